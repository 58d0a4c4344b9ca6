import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TRANSLATION_LANGUAGES } from '../core/languages.js';
import { DateTime, IdParam, ListQuery, Nullable, StringEnum } from '../core/schemas.js';
import { SpaceSchema } from '../spaces/space-schemas.js';

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;

const Id = Type.String({ minLength: 1, maxLength: 128 });
export const SiteTitle = Type.String({ minLength: 2, maxLength: 128, description: 'Title of the site' });
export const SiteBasename = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'Name of the site in its published address, /s/{basename}: not in the form of a site id (20 letters and ' +
    'digits), and not an address another organization gave up',
});
/**
 * A site's custom hostname as written: any case, a trailing dot allowed. The
 * action puts it in its one form (lower case, no trailing dot) and refuses
 * what is not a DNS name, an IP address, and reserved hosts, naming the rule.
 */
export const SiteHostname = Type.String({
  minLength: 1,
  maxLength: 254,
  description:
    'A custom hostname to read the site at (an extension: GitBook sets it elsewhere), such as docs.example.com. ' +
    'It is stored in lower case without a trailing dot, and stays pending, routing nothing, until a DNS TXT ' +
    'record at `_quire-challenge.<hostname>` holds the token GET /v1/custom-hostnames/{hostname} names. ' +
    'The service’s own host and hosts its operator reserved are refused (400); `null` removes it.',
});
export const SiteProxyOrigin = Type.String({
  maxLength: 512,
  pattern: '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$',
  description: 'Where the site is served through a proxy, such as company.com/docs',
});
export const SectionTitle = Type.String({ minLength: 2, maxLength: 128 });
/** One segment of a published address: no slash, query, fragment, escape or space, and not `.` or `..`. */
const PATH_SEGMENT = String.raw`^(?!\.{1,2}$)[^/\\?#%\s]+$`;
export const SectionPath = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: PATH_SEGMENT,
  description: 'Path of the section on the site',
});
export const SectionDescription = Type.String({ maxLength: 256 });
export const SiteSpacePath = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: PATH_SEGMENT,
  description: 'Path of the space on the site',
});
export const GroupTitle = Type.String({ minLength: 1, maxLength: 100 });
export const Icon = Type.String({ maxLength: 50, description: 'Name of an icon' });
/** The seeds bound conditions to 1–1024 characters; their syntax and names are checked by the adaptive module. */
export const Condition = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: 'Expression deciding whether the visitor is shown the item',
});

// ---- Responses ----

const PublishedUrls = Type.Object({ published: Type.Optional(Type.String({ format: 'uri' })) });

/** What the caller may do with a site, from their organization role: only admins change a site here. */
const SitePermissions = Type.Object({
  view: Type.Boolean(),
  access: Type.Boolean(),
  edit: Type.Boolean(),
  create: Type.Boolean(),
  admin: Type.Boolean(),
  installIntegration: Type.Boolean(),
  viewAdaptiveSchema: Type.Boolean(),
  editAdaptiveSchema: Type.Boolean(),
});

export const SiteSchema = Type.Object(
  {
    object: Type.Literal('site'),
    id: Type.String(),
    type: StringEnum(SITE_TYPES),
    appliedType: StringEnum(SITE_TYPES, { description: 'The type in effect: no site is frozen here, so `type`' }),
    title: Type.String(),
    icon: Type.Optional(
      Type.Union([
        Type.Object({ icon: Type.Object({ light: Type.String(), dark: Type.String() }) }),
        Type.Object({ emoji: Type.String() }),
        Type.Null(),
      ]),
    ),
    basename: Type.Optional(Type.String()),
    hostname: Type.Optional(
      Type.String({
        description:
          'The custom hostname claimed for the site (an extension). It routes, and is the site’s published ' +
          'address, only once proven: see `hostnameStatus` and GET /v1/custom-hostnames/{hostname}',
      }),
    ),
    hostnameStatus: Type.Optional(
      StringEnum(['pending', 'live'] as const, {
        description:
          'Whether `hostname` is proven and routing (`live`) or waits for its DNS TXT record (`pending`; an ' +
          'extension). GET /v1/custom-hostnames/{hostname} names the record to create.',
      }),
    ),
    proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
    visibility: StringEnum(SITE_VISIBILITIES),
    defaultLevel: Type.Literal('inherit', {
      description: 'Members read a site as their organization role allows: no site sets a level of its own',
    }),
    permissions: SitePermissions,
    published: Type.Boolean(),
    siteSpaces: Type.Integer({ description: 'How many spaces the site publishes' }),
    createdAt: DateTime,
    adaptiveContent: Type.Object({ enabled: Type.Boolean() }),
    agentsContext: StringEnum(AGENTS_CONTEXTS),
    features: Type.Array(Type.Object({ id: Type.String(), plan: StringEnum(SITE_TYPES), frozen: Type.Boolean() })),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      published: Type.Optional(Type.String({ format: 'uri' })),
      preview: Type.String({
        format: 'uri',
        description: 'Where members see what the site shows, published or not (getPublishedContentSite)',
      }),
    }),
  },
  { $id: 'Site' },
);
export type Site = Static<typeof SiteSchema>;

export const SiteSpaceSchema = Type.Object(
  {
    object: Type.Literal('site-space'),
    id: Type.String(),
    path: Type.String(),
    section: Type.Optional(Type.String()),
    space: Type.Ref(SpaceSchema),
    title: Type.String(),
    default: Type.Boolean(),
    draft: Type.Boolean({ description: 'A draft site space is shown to members only, and in previews' }),
    hidden: Type.Boolean({
      description: 'A hidden site space is reached by its address but left out of the site’s navigation',
    }),
    condition: Type.Optional(Type.String()),
    hasAdvancedCustomizationFeature: Type.Boolean(),
    urls: PublishedUrls,
  },
  { $id: 'SiteSpace' },
);
export type SiteSpace = Static<typeof SiteSpaceSchema>;

export const SiteSectionSchema = Type.Object(
  {
    object: Type.Literal('site-section'),
    id: Type.String(),
    title: Type.String(),
    description: Type.Optional(Type.String()),
    default: Type.Boolean(),
    draft: Type.Boolean({ description: 'A draft section is shown to members only, and in previews' }),
    path: Type.String(),
    condition: Type.Optional(Type.String()),
    sectionGroup: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    siteSpaces: Type.Array(Type.Ref(SiteSpaceSchema)),
    urls: PublishedUrls,
  },
  { $id: 'SiteSection' },
);
export type SiteSection = Static<typeof SiteSectionSchema>;

/** A string per language, for languages other than the site's own: at most `maxLength` characters each. */
export const LocalizedString = (maxLength: number) =>
  Type.Record(Type.String({ pattern: `^(?:${TRANSLATION_LANGUAGES.join('|')})$` }), Type.String({ maxLength }), {
    maxProperties: TRANSLATION_LANGUAGES.length,
    additionalProperties: false,
  });

export const SiteExternalLinkSchema = Type.Object(
  {
    object: Type.Literal('site-external-link'),
    id: Type.String(),
    title: Type.String(),
    localizedTitle: Type.Optional(Type.Record(Type.String(), Type.String())),
    description: Type.Optional(Type.String()),
    localizedDescription: Type.Optional(Type.Record(Type.String(), Type.String())),
    icon: Type.Optional(Type.String()),
    url: Type.String({ format: 'uri' }),
    sectionGroup: Type.Optional(Type.String({ description: 'The group the link sits in; absent at the root' })),
    draft: Type.Boolean({ description: 'A draft link is shown to members only, and in previews' }),
    condition: Type.Optional(Type.String()),
  },
  { $id: 'SiteExternalLink' },
);
export type SiteExternalLink = Static<typeof SiteExternalLinkSchema>;

function groupSchema<T extends TSchema>(children: T, options: { $id?: string } = {}) {
  return Type.Object(
    {
      object: Type.Literal('site-section-group'),
      id: Type.String(),
      title: Type.String(),
      icon: Type.Optional(Type.String()),
      sectionGroup: Type.Optional(Type.String({ description: 'The group this group sits in' })),
      draft: Type.Boolean({
        description: 'A draft group is shown to members only, and in previews, with everything in it',
      }),
      sections: Type.Array(Type.Ref(SiteSectionSchema), { description: 'Deprecated: the sections of `children`' }),
      children: Type.Array(children),
    },
    options,
  );
}
/** A group inside another group: groups nest one level deep, so its children are sections and links. */
const NestedSectionGroup = groupSchema(Type.Union([Type.Ref(SiteSectionSchema), Type.Ref(SiteExternalLinkSchema)]));
export const SiteSectionGroupSchema = groupSchema(
  Type.Union([Type.Ref(SiteSectionSchema), NestedSectionGroup, Type.Ref(SiteExternalLinkSchema)]),
  { $id: 'SiteSectionGroup' },
);
/** Groups nest one level deep; the type covers both levels. */
export type SiteSectionGroup = Static<typeof SiteSectionGroupSchema> | Static<typeof NestedSectionGroup>;

export const SiteStructureSchema = Type.Union([
  Type.Object({
    type: Type.Literal('sections'),
    structure: Type.Array(
      Type.Union([Type.Ref(SiteSectionSchema), Type.Ref(SiteSectionGroupSchema), Type.Ref(SiteExternalLinkSchema)]),
    ),
  }),
  Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(Type.Ref(SiteSpaceSchema)) }),
]);
export type SiteStructure = Static<typeof SiteStructureSchema>;

export const SiteStructureItemSchema = Type.Union([
  Type.Ref(SiteSpaceSchema),
  Type.Ref(SiteSectionSchema),
  Type.Ref(SiteSectionGroupSchema),
  Type.Ref(SiteExternalLinkSchema),
]);

export const siteSchemas = [
  SiteSchema,
  SiteSpaceSchema,
  SiteSectionSchema,
  SiteExternalLinkSchema,
  SiteSectionGroupSchema,
];

// ---- Parameters and queries ----

export const SiteParams = Type.Object({ organizationId: IdParam, siteId: IdParam });
export const SectionParams = Type.Object({ organizationId: IdParam, siteId: IdParam, siteSectionId: IdParam });
export const GroupParams = Type.Object({ organizationId: IdParam, siteId: IdParam, siteSectionGroupId: IdParam });
export const GroupSectionParams = Type.Object({
  organizationId: IdParam,
  siteId: IdParam,
  siteSectionGroupId: IdParam,
  siteSectionId: IdParam,
});
export const SiteSpaceParams = Type.Object({ organizationId: IdParam, siteId: IdParam, siteSpaceId: IdParam });

const ShareKey = Type.Optional(
  Type.String({ minLength: 1, maxLength: 128, description: 'Key of a share link of the site' }),
);

export const ListSitesQuery = Type.Object(
  {
    ...ListQuery,
    space: Type.Optional(Id),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Part of the title, any case' })),
    published: Type.Optional(Type.Boolean()),
    type: Type.Optional(Type.Array(StringEnum(SITE_TYPES), { maxItems: SITE_TYPES.length })),
  },
  { additionalProperties: false },
);
export type ListSitesQuery = Static<typeof ListSitesQuery>;

export const ListStructureQuery = Type.Object({ ...ListQuery, shareKey: ShareKey }, { additionalProperties: false });
export type ListStructureQuery = Static<typeof ListStructureQuery>;
export const ListSiteSpacesQuery = Type.Object(
  { ...ListQuery, shareKey: ShareKey, default: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type ListSiteSpacesQuery = Static<typeof ListSiteSpacesQuery>;
export const ShareKeyOnlyQuery = Type.Object({ shareKey: ShareKey }, { additionalProperties: false });

// ---- Bodies ----

/** At most this many spaces in one create: a site's structure is read whole, so it is kept small. */
export const MAX_SPACES_ON_CREATE = 100;

export const CreateSiteBody = Type.Object(
  {
    type: Type.Optional(StringEnum(SITE_TYPES)),
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(StringEnum(SITE_VISIBILITIES)),
    spaces: Type.Optional(
      Type.Union([
        Type.Array(Id, { maxItems: MAX_SPACES_ON_CREATE, uniqueItems: true, description: 'Spaces to publish' }),
        StringEnum(['sample', 'empty'] as const, { description: 'Create a new space for the site' }),
      ]),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Docs', visibility: 'public', spaces: ['s8Hd3KpW6qZr1XcV5nTa', 's1Pw6XnR3kLq8ZtV4mBd'] }],
  },
);
export type CreateSiteBody = Static<typeof CreateSiteBody>;

export const UpdateSiteBody = Type.Object(
  {
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(StringEnum(SITE_VISIBILITIES)),
    basename: Type.Optional(SiteBasename),
    hostname: Type.Optional(Nullable(SiteHostname)),
    agentsContext: Type.Optional(StringEnum(AGENTS_CONTEXTS)),
    defaultSiteSpace: Type.Optional(Id),
    defaultSiteSection: Type.Optional(Id),
    proxy: Type.Optional(Nullable(SiteProxyOrigin)),
    adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
  },
  { additionalProperties: false, examples: [{ title: 'Acme Docs', basename: 'acme-docs', visibility: 'unlisted' }] },
);
export type UpdateSiteBody = Static<typeof UpdateSiteBody>;

const DraftOnCreate = (what: string) =>
  Type.Optional(
    Type.Boolean({
      default: false,
      description: `Whether the ${what} is created as a draft: shown to members and in previews, not to visitors`,
    }),
  );
const DraftOnUpdate = (what: string) =>
  Type.Optional(Type.Boolean({ description: `true makes the ${what} a draft, false makes it live` }));

export const AddSectionBody = Type.Object(
  {
    spaceId: Id,
    title: Type.Optional(Nullable(SectionTitle)),
    icon: Type.Optional(Nullable(Icon)),
    siteSectionGroupId: Type.Optional(Id),
    draft: DraftOnCreate('section'),
  },
  { additionalProperties: false, examples: [{ spaceId: 's1Pw6XnR3kLq8ZtV4mBd', title: 'Version 2', icon: 'rocket' }] },
);
export type AddSectionBody = Static<typeof AddSectionBody>;

export const UpdateSectionBody = Type.Object(
  {
    title: Type.Optional(SectionTitle),
    path: Type.Optional(SectionPath),
    defaultSiteSpace: Type.Optional(Id),
    condition: Type.Optional(Nullable(Condition)),
    icon: Type.Optional(Nullable(Icon)),
    description: Type.Optional(Nullable(SectionDescription)),
    // The group to move the section into; null: to the root of the site.
    siteSectionGroupId: Type.Optional(Nullable(Id)),
    draft: DraftOnUpdate('section'),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Version 2', path: 'v2', condition: 'visitor.claims.isBeta === true', description: null }],
  },
);
export type UpdateSectionBody = Static<typeof UpdateSectionBody>;

export const AddGroupBody = Type.Object(
  {
    title: GroupTitle,
    icon: Type.Optional(Nullable(Icon)),
    sections: Type.Optional(Type.Array(Id, { maxItems: 100, uniqueItems: true })),
    parent: Type.Optional(Id),
    draft: DraftOnCreate('section group'),
  },
  { additionalProperties: false, examples: [{ title: 'Guides', icon: 'book', sections: ['sc2Nv7QxL4mR9TbK1wPz'] }] },
);
export type AddGroupBody = Static<typeof AddGroupBody>;

export const UpdateGroupBody = Type.Object(
  { title: Type.Optional(GroupTitle), icon: Type.Optional(Nullable(Icon)), draft: DraftOnUpdate('section group') },
  { additionalProperties: false, examples: [{ title: 'User guides', icon: null }] },
);
export type UpdateGroupBody = Static<typeof UpdateGroupBody>;

export const AddSectionToGroupBody = Type.Object(
  { sectionId: Id },
  { additionalProperties: false, examples: [{ sectionId: 'sc2Nv7QxL4mR9TbK1wPz' }] },
);

export const AddSiteSpaceBody = Type.Object(
  { spaceId: Id, sectionId: Type.Optional(Id), draft: DraftOnCreate('site space') },
  { additionalProperties: false, examples: [{ spaceId: 's1Pw6XnR3kLq8ZtV4mBd', sectionId: 'sc2Nv7QxL4mR9TbK1wPz' }] },
);
export type AddSiteSpaceBody = Static<typeof AddSiteSpaceBody>;

export const UpdateSiteSpaceBody = Type.Object(
  {
    path: Type.Optional(SiteSpacePath),
    condition: Type.Optional(Nullable(Condition)),
    spaceId: Type.Optional(Id),
    draft: DraftOnUpdate('site space'),
    hidden: Type.Optional(
      Type.Boolean({ description: 'true leaves the site space out of the site’s navigation, false lists it again' }),
    ),
  },
  { additionalProperties: false, examples: [{ path: 'api', condition: null }] },
);
export type UpdateSiteSpaceBody = Static<typeof UpdateSiteSpaceBody>;

// ---- Moves and sorting ----

const ITEM_TYPES = ['site-space', 'site-section', 'site-section-group', 'site-external-link'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];
const ItemPointer = Type.Object({ type: StringEnum(ITEM_TYPES), id: Id }, { additionalProperties: false });
export type ItemPointer = Static<typeof ItemPointer>;

function positionOf<T extends TSchema>(pointer: T) {
  return Type.Object(
    { before: Type.Optional(pointer), after: Type.Optional(pointer) },
    { additionalProperties: false },
  );
}

export const SortStructureBody = Type.Object(
  { item: ItemPointer, position: positionOf(ItemPointer) },
  {
    additionalProperties: false,
    examples: [
      {
        item: { type: 'site-section', id: 'sc2Nv7QxL4mR9TbK1wPz' },
        position: { after: { type: 'site-section-group', id: 'sg9Tq4LmW1xR6NbV2kZc' } },
      },
    ],
  },
);
export type SortStructureBody = Static<typeof SortStructureBody>;

export const MoveSiteSpaceBody = Type.Object(
  {
    position: Type.Optional(
      positionOf(Type.Object({ type: Type.Literal('site-space'), siteSpace: Id }, { additionalProperties: false })),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ position: { after: { type: 'site-space', siteSpace: 'ss5Jk8RwD2nX7QvM3tLb' } } }],
  },
);
export type MoveSiteSpaceBody = Static<typeof MoveSiteSpaceBody>;

export const MoveSectionBody = Type.Object(
  {
    position: Type.Optional(
      positionOf(Type.Object({ type: Type.Literal('site-section'), siteSection: Id }, { additionalProperties: false })),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ position: { before: { type: 'site-section', siteSection: 'sc2Nv7QxL4mR9TbK1wPz' } } }],
  },
);
export type MoveSectionBody = Static<typeof MoveSectionBody>;

export const MoveGroupBody = Type.Object(
  {
    position: Type.Optional(
      positionOf(
        Type.Object(
          { type: StringEnum(['site-section', 'site-section-group'] as const), id: Id },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ position: { after: { type: 'site-section', id: 'sc2Nv7QxL4mR9TbK1wPz' } } }],
  },
);
export type MoveGroupBody = Static<typeof MoveGroupBody>;
