import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, ref, StringEnum, Url } from '../core/schemas.js';
import { OrganizationSchema } from '../orgs/organization-schemas.js';
import { SpaceSchema } from '../spaces/space-schemas.js';
import { SiteSchema } from '../sites/schemas.js';

// The enums of the GitBook API description (0.143.2).
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const INTEGRATION_RUNTIMES = ['v1', 'v2'] as const;
export const INTEGRATION_CATEGORIES = [
  'analytics',
  'collaboration',
  'content',
  'gitsync',
  'marketing',
  'visitor-auth',
  'other',
] as const;
/**
 * The scopes of both specs (0.202.0 adds `site:visitor:claims`) and of the
 * seeds, whose Part B names `space:views:read`, which neither spec has.
 */
export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'space:views:read',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'openapi:read',
  'openapi:write',
  'conversations:ingest',
] as const;
const CSP_DIRECTIVES = [
  'base-uri',
  'block-all-mixed-content',
  'child-src',
  'connect-src',
  'default-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'plugin-types',
  'prefetch-src',
  'referrer',
  'report-to',
  'report-uri',
  'require-sri-for',
  'require-trusted-types-for',
  'sandbox',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'trusted-types',
  'upgrade-insecure-requests',
  'worker-src',
] as const;

export type IntegrationVisibility = (typeof INTEGRATION_VISIBILITIES)[number];
export type IntegrationTarget = (typeof INTEGRATION_TARGETS)[number];

/** Bounds of what one publish may carry. */
export const INTEGRATION_LIMITS = {
  scriptCharacters: 2 * 1024 * 1024,
  secrets: 20,
  secretNameCharacters: 100,
  secretValueCharacters: 8 * 1024,
  blocks: 50,
  urlUnfurlPatterns: 20,
  contentSources: 50,
  configurationProperties: 50,
  /** Base64 characters of one image before any configured limit is applied: what the schema alone lets through. */
  imageCharacters: 14 * 1024 * 1024,
  /** A configuration an installation is given, as JSON. */
  installationConfigurationBytes: 64 * 1024,
} as const;

const NAME_PATTERN = '^(?!\\.{1,2}$)[a-zA-Z0-9_.-]+$';
export const IntegrationName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: NAME_PATTERN,
  description: 'Name of the integration: letters, digits, `-`, `_` and `.`',
});
const ItemId = Type.String({ minLength: 1, maxLength: 100 });
const ItemTitle = Type.String({ minLength: 2, maxLength: 40 });
const ItemDescription = Type.String({ maxLength: 150 });
const IconUrl = Type.String({ maxLength: 2048, description: 'URL of an icon' });
const PropertyName = '^[A-Za-z0-9_.-]{1,64}$';

// ---- The definition an integration publishes ----

export const IntegrationBlockSchema = Type.Object(
  {
    id: ItemId,
    title: ItemTitle,
    description: Type.Optional(ItemDescription),
    icon: Type.Optional(IconUrl),
    urlUnfurl: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
        maxItems: INTEGRATION_LIMITS.urlUnfurlPatterns,
        description: 'URL patterns this block unfurls, such as https://*.example.com/*',
      }),
    ),
    markdown: Type.Optional(
      Type.Object(
        {
          codeblock: Type.String({ minLength: 1, maxLength: 100 }),
          body: Type.String({ minLength: 1, maxLength: 100 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type IntegrationBlock = Static<typeof IntegrationBlockSchema>;

const ConfigurationComponent = Type.Object(
  { componentId: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const IntegrationContentSourceSchema = Type.Object(
  {
    id: ItemId,
    title: ItemTitle,
    description: Type.Optional(ItemDescription),
    icon: Type.Optional(IconUrl),
    configuration: ConfigurationComponent,
  },
  { additionalProperties: false },
);

const PropertyLabels = {
  title: Type.Optional(Type.String({ maxLength: 30 })),
  description: Type.Optional(Type.String({ maxLength: 100 })),
};
const ConfigurationProperty = Type.Union([
  Type.Object(
    {
      ...PropertyLabels,
      type: Type.Literal('string'),
      default: Type.Optional(Type.String({ maxLength: 1000 })),
      completion_url: Type.Optional(Url),
      enum: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { ...PropertyLabels, type: Type.Literal('number'), default: Type.Optional(Type.Number()) },
    { additionalProperties: false },
  ),
  Type.Object(
    { ...PropertyLabels, type: Type.Literal('boolean'), default: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      ...PropertyLabels,
      type: Type.Literal('button'),
      callback_url: Url,
      button_text: Type.String({ minLength: 1, maxLength: 50 }),
    },
    { additionalProperties: false },
  ),
]);
export type ConfigurationProperty = Static<typeof ConfigurationProperty>;

const ConfigurationSchema = Type.Object(
  {
    properties: Type.Record(Type.String({ pattern: PropertyName }), ConfigurationProperty, {
      maxProperties: INTEGRATION_LIMITS.configurationProperties,
    }),
    required: Type.Optional(
      Type.Array(Type.String({ pattern: PropertyName }), {
        maxItems: INTEGRATION_LIMITS.configurationProperties,
        uniqueItems: true,
      }),
    ),
  },
  { additionalProperties: false },
);
/** How an account, space or site installation is configured: a schema of properties, or a ContentKit component. */
const IntegrationConfiguration = Type.Union([ConfigurationSchema, ConfigurationComponent]);
export type IntegrationConfiguration = Static<typeof IntegrationConfiguration>;

export const IntegrationConfigurationsSchema = Type.Object(
  {
    account: Type.Optional(IntegrationConfiguration),
    space: Type.Optional(IntegrationConfiguration),
    site: Type.Optional(IntegrationConfiguration),
  },
  { additionalProperties: false },
);
export type IntegrationConfigurations = Static<typeof IntegrationConfigurationsSchema>;

export const ExternalLinksSchema = Type.Array(
  Type.Object({ url: Url, label: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
  { maxItems: 5 },
);

const ContentSecurityPolicy = Type.Union([
  Type.String({ maxLength: 4096 }),
  Type.Object(
    Object.fromEntries(CSP_DIRECTIVES.map((name) => [name, Type.Optional(Type.String({ maxLength: 2048 }))])),
    {
      additionalProperties: false,
    },
  ),
]);
export type ContentSecurityPolicy = string | Record<string, string>;

const Base64Image = (description: string) =>
  Type.String({ minLength: 1, maxLength: INTEGRATION_LIMITS.imageCharacters, description });

export const PublishIntegrationBody = Type.Object(
  {
    runtime: Type.Optional(StringEnum(INTEGRATION_RUNTIMES, { default: 'v1' })),
    icon: Type.Optional(Base64Image('Base64 content of the icon: PNG, JPEG, GIF or WebP')),
    title: Type.String({ minLength: 2, maxLength: 30 }),
    description: Type.String({ maxLength: 100 }),
    summary: Type.Optional(Type.String({ maxLength: 2048, description: 'Long form markdown summary' })),
    previewImages: Type.Optional(
      Type.Array(Base64Image('Base64 content of an image: PNG, JPEG, GIF or WebP'), { maxItems: 3 }),
    ),
    visibility: Type.Optional(
      StringEnum(INTEGRATION_VISIBILITIES, { description: 'Who may see the integration (default private)' }),
    ),
    target: Type.Optional(
      StringEnum(INTEGRATION_TARGETS, { description: 'Where it may be installed; when omitted, `all`' }),
    ),
    scopes: Type.Optional(Type.Array(StringEnum(INTEGRATION_SCOPES), { maxItems: INTEGRATION_SCOPES.length })),
    categories: Type.Optional(
      Type.Array(StringEnum(INTEGRATION_CATEGORIES), { maxItems: INTEGRATION_CATEGORIES.length }),
    ),
    blocks: Type.Optional(Type.Array(IntegrationBlockSchema, { maxItems: INTEGRATION_LIMITS.blocks })),
    contentSources: Type.Optional(
      Type.Array(IntegrationContentSourceSchema, { maxItems: INTEGRATION_LIMITS.contentSources }),
    ),
    externalLinks: Type.Optional(ExternalLinksSchema),
    configurations: Type.Optional(IntegrationConfigurationsSchema),
    script: Type.String({
      minLength: 1,
      maxLength: INTEGRATION_LIMITS.scriptCharacters,
      description: 'Content of the script; stored, never returned',
    }),
    organization: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'The id or subdomain of the publishing organization, where the caller is an admin',
    }),
    secrets: Type.Optional(
      Type.Record(
        Type.String({ pattern: `^[A-Za-z0-9_.-]{1,${INTEGRATION_LIMITS.secretNameCharacters}}$` }),
        Type.String({ maxLength: INTEGRATION_LIMITS.secretValueCharacters }),
        {
          maxProperties: INTEGRATION_LIMITS.secrets,
          description: 'Secrets passed to the script at runtime; encrypted at rest, never returned',
        },
      ),
    ),
    contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
    endpoint: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'Where its events are sent (an extension of this service): an https URL; its signing secret comes from POST /v1/integrations/{integrationName}/signing-secret',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        title: 'Status page',
        description: 'Shows the service status in your docs',
        visibility: 'unlisted',
        target: 'space',
        scopes: ['space:content:read'],
        categories: ['content'],
        configurations: {
          space: {
            properties: { page: { type: 'string', title: 'Status page', description: 'Its address' } },
            required: ['page'],
          },
        },
        script: 'export default {};',
        organization: 'o2Fj7RmX4kLq9ZbT6wNe',
        secrets: { API_KEY: 'a secret value' },
      },
    ],
  },
);
export type PublishIntegrationBody = Static<typeof PublishIntegrationBody>;

// ---- The Integration resource ----

/** Stored JSON, already checked when published, passed to the response as it is. */
const Stored = <T>(description: string) => Type.Unsafe<T>({ description });

export const IntegrationSchema = Type.Object(
  {
    object: Type.Literal('integration'),
    name: Type.String(),
    version: Type.Integer({ description: 'Counts publishes, from 1' }),
    title: Type.String(),
    description: Type.String(),
    summary: Type.Optional(Type.String()),
    previewImages: Type.Array(Type.String({ format: 'uri' }), { description: 'URLs of the preview images' }),
    target: StringEnum(INTEGRATION_TARGETS),
    verified: Type.Boolean(),
    visibility: StringEnum(INTEGRATION_VISIBILITIES),
    scopes: Type.Array(StringEnum(INTEGRATION_SCOPES)),
    categories: Type.Array(StringEnum(INTEGRATION_CATEGORIES)),
    blocks: Type.Array(IntegrationBlockSchema),
    contentSources: Type.Array(IntegrationContentSourceSchema),
    configurations: Stored<IntegrationConfigurations>('Configuration schemas of account, space and site installations'),
    externalLinks: ExternalLinksSchema,
    owner: ref(OrganizationSchema),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      icon: Type.Optional(Type.String({ format: 'uri' })),
      app: Type.String({ format: 'uri' }),
      assets: Type.String({ format: 'uri' }),
      publicEndpoint: Type.String({ format: 'uri' }),
      publicContentEndpoint: Type.String({ format: 'uri' }),
    }),
    permissions: Type.Object({
      admin: Type.Boolean({ description: 'The caller is an admin of the owner organization' }),
      install: Type.Boolean({ description: 'The caller can install it on an organization' }),
    }),
    contentSecurityPolicy: Type.Optional(Stored<ContentSecurityPolicy>('A string, or an object of directives')),
  },
  { title: 'Integration' },
);
export type Integration = Static<typeof IntegrationSchema>;

export const IntegrationParams = Type.Object({ integrationName: IntegrationName });

export const ListIntegrationsQuery = Type.Object(
  {
    ...ListQuery,
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name or title, any case' }),
    ),
    category: Type.Optional(StringEnum(INTEGRATION_CATEGORIES)),
    blockDomain: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: '^[a-zA-Z0-9_.-]+$',
        description: 'A host whose URLs a block of the integration unfurls',
      }),
    ),
    blocks: Type.Optional(Type.Boolean({ description: 'Only integrations with (true) or without (false) blocks' })),
    contentSources: Type.Optional(
      Type.Boolean({ description: 'Only integrations with (true) or without (false) content sources' }),
    ),
    owner: Type.Optional(IdParam),
    scope: Type.Optional(StringEnum(INTEGRATION_SCOPES)),
    target: Type.Optional(StringEnum(INTEGRATION_TARGETS)),
  },
  { additionalProperties: false },
);
export type ListIntegrationsQuery = Static<typeof ListIntegrationsQuery>;

// ---- Installations ----

const ExternalIds = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), {
  maxItems: 5,
  description: 'External ids the integration gives the installation',
});
const Configuration = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
  maxProperties: INTEGRATION_LIMITS.configurationProperties,
  description: 'Values of the properties the integration’s configuration schema declares',
});
const InstallationStatus = StringEnum(['active', 'pending', 'paused'] as const);

export const IntegrationInstallationSchema = Type.Object(
  {
    id: Type.String(),
    status: InstallationStatus,
    space_selection: StringEnum(['all', 'selected'] as const),
    site_selection: StringEnum(['all', 'selected'] as const),
    spaces: Type.Integer({ description: 'How many spaces it is installed on' }),
    configuration: Stored<Record<string, unknown>>('Configuration of the installation'),
    externalIds: Type.Array(Type.String()),
    target: Type.Object({ organization: Type.String() }),
    createdAt: DateTime,
    updatedAt: DateTime,
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      publicEndpoint: Type.String({ format: 'uri' }),
      publicContentEndpoint: Type.String({ format: 'uri' }),
    }),
  },
  { title: 'IntegrationInstallation' },
);
export type IntegrationInstallation = Static<typeof IntegrationInstallationSchema>;

const ContentInstallationBase = {
  integration: Type.String({ description: 'Name of the integration' }),
  installation: Type.String({ description: 'Id of the installation' }),
  status: InstallationStatus,
  configuration: Stored<Record<string, unknown>>('Configuration of the installation on this space or site'),
  externalIds: Type.Array(Type.String()),
  urls: Type.Object({
    location: Type.String({ format: 'uri' }),
    publicEndpoint: Type.String({ format: 'uri' }),
    publicContentEndpoint: Type.String({
      format: 'uri',
      description: 'Equals publicEndpoint: there is no separate content origin',
    }),
  }),
};

export const IntegrationSpaceInstallationSchema = Type.Object(
  {
    ...ContentInstallationBase,
    space: Type.Union([Type.String(), ref(SpaceSchema)], {
      description: 'The space’s id; the Space itself with `extended=true`',
    }),
  },
  { title: 'IntegrationSpaceInstallation' },
);
export type IntegrationSpaceInstallation = Static<typeof IntegrationSpaceInstallationSchema>;

export const IntegrationSiteInstallationSchema = Type.Object(
  {
    ...ContentInstallationBase,
    site: Type.Union([Type.String(), ref(SiteSchema)], {
      description: 'The site’s id; the Site itself with `extended=true`',
    }),
  },
  { title: 'IntegrationSiteInstallation' },
);
export type IntegrationSiteInstallation = Static<typeof IntegrationSiteInstallationSchema>;

export const InstallationParams = Type.Object({ integrationName: IntegrationName, installationId: IdParam });
export const SpaceInstallationParams = Type.Object({
  integrationName: IntegrationName,
  installationId: IdParam,
  spaceId: IdParam,
});
export const SiteInstallationParams = Type.Object({
  integrationName: IntegrationName,
  installationId: IdParam,
  siteId: IdParam,
});

export const InstallIntegrationBody = Type.Object(
  { organization: Type.String({ minLength: 1, maxLength: 128, description: 'Id of the organization to install on' }) },
  { additionalProperties: false, examples: [{ organization: 'o2Fj7RmX4kLq9ZbT6wNe' }] },
);
export type InstallIntegrationBody = Static<typeof InstallIntegrationBody>;

export const UpdateInstallationBody = Type.Object(
  { externalIds: Type.Optional(ExternalIds), configuration: Type.Optional(Configuration) },
  {
    additionalProperties: false,
    examples: [{ externalIds: ['acme-status'], configuration: { page: 'https://status.acme.example' } }],
  },
);
export type UpdateInstallationBody = Static<typeof UpdateInstallationBody>;

export const ListInstallationsQuery = Type.Object(
  {
    ...ListQuery,
    externalId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: 'Only installations with this external id' }),
    ),
  },
  { additionalProperties: false },
);
export type ListInstallationsQuery = Static<typeof ListInstallationsQuery>;

export const ListOrganizationInstallationsQuery = Type.Object(
  {
    ...ListQuery,
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Part of the integration’s name or title, any case' }),
    ),
  },
  { additionalProperties: false },
);
export type ListOrganizationInstallationsQuery = Static<typeof ListOrganizationInstallationsQuery>;

const Extended = Type.Optional(
  Type.Boolean({ description: 'Give each space as a Space object rather than its id', default: false }),
);
export const ListSpaceInstallationsQuery = Type.Object(
  { ...ListQuery, extended: Extended },
  { additionalProperties: false },
);
export type ListSpaceInstallationsQuery = Static<typeof ListSpaceInstallationsQuery>;
export const ExtendedQuery = Type.Object({ extended: Extended }, { additionalProperties: false });
export const ListSiteInstallationsQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListSiteInstallationsQuery = Static<typeof ListSiteInstallationsQuery>;

export const InstallOnSpaceBody = Type.Object(
  { space: Type.String({ minLength: 1, maxLength: 128, description: 'Id of the space' }) },
  { additionalProperties: false, examples: [{ space: 's8Hd3KpW6qZr1XcV5nTa' }] },
);
export const InstallOnSiteBody = Type.Object(
  { siteId: Type.String({ minLength: 1, maxLength: 128, description: 'Id of the site' }) },
  { additionalProperties: false, examples: [{ siteId: 'st6Mb1ZqK9wR4XnL7vTc' }] },
);
