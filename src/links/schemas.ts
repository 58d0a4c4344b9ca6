import { Type } from '@sinclair/typebox';
import { ListEnvelope, ListQuery, ref, StringEnum } from '../core/schemas.js';
import { OrganizationSchema } from '../orgs/organization-schemas.js';
import { SpaceSchema } from '../spaces/space-schemas.js';
import { RevisionFileResponse, RevisionPageResponse } from '../content/schemas.js';

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;

const LinkStatus = StringEnum(LINK_STATUSES, {
  description:
    '`ok`: the target is in the revision, or is an external URL (never fetched); `broken`: the page, anchor or file is not in the revision; `in-app`: a URL into this service’s app',
});

export const LinksQuery = Type.Object({
  ...ListQuery,
  status: Type.Optional(LinkStatus),
});

export const ChangeRequestLinksQuery = Type.Object({
  ...LinksQuery.properties,
  brokenContext: Type.Optional(
    StringEnum(['change-request', 'space'] as const, {
      description:
        '`change-request`: of the broken links, only those the change request breaks (not broken in the space revision it is based on); `space` (default): every broken link',
    }),
  ),
});

export const BacklinksQuery = Type.Object(ListQuery);

const PageLocation = Type.Object(
  {
    kind: Type.Literal('page'),
    organization: ref(OrganizationSchema),
    space: ref(SpaceSchema),
    page: RevisionPageResponse,
    internalLocation: Type.Optional(Type.Object({ type: Type.Literal('anchor'), anchor: Type.String() })),
  },
  { description: 'A page of the revision (its subpages are not listed)' },
);

const ContentLocation = Type.Union([
  PageLocation,
  Type.Object(
    {
      kind: Type.Literal('file'),
      organization: ref(OrganizationSchema),
      space: ref(SpaceSchema),
      file: RevisionFileResponse,
    },
    { description: 'A file of the revision' },
  ),
  Type.Object(
    { kind: Type.Literal('url'), url: Type.String() },
    { description: 'An external URL; or, for a missing page or file, the link as the page writes it (`/pages/<id>`)' },
  ),
]);

const LinkItem = Type.Object({
  status: LinkStatus,
  relation: StringEnum(['reference', 'dependsOn'] as const, {
    description: '`reference`: a link; `dependsOn`: an image the page shows',
  }),
  targetReference: ContentLocation,
  locationReferences: Type.Array(PageLocation, { description: 'The pages that link to the target' }),
});

export const LinksResponse = Type.Object({
  ...ListEnvelope(LinkItem).properties,
  stats: Type.Object({
    total: Type.Integer({ description: 'Links listed, whatever the filters' }),
    broken: Type.Object({
      total: Type.Integer({ description: 'Of those, the broken ones' }),
      changeRequest: Type.Integer({
        description: 'Of those, the ones a change request breaks (not broken where it is based); 0 on the space',
      }),
    }),
  }),
});

export const BacklinksResponse = ListEnvelope(PageLocation);
