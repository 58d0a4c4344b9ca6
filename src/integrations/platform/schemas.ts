import { Type, type Static } from '@sinclair/typebox';
import { IdParam, ListQuery, StringEnum } from '../../core/schemas.js';
import { IntegrationBlockSchema, IntegrationName, ListIntegrationsQuery } from '../schemas.js';

// The calls an integration makes to the platform (0.202.0): its installations' tokens, development mode, where it is installed.

export const INSTALLATION_TOKEN_TTL_MS = 60 * 60 * 1000;

export const InstallationTokenSchema = Type.Object(
  { token: Type.String({ description: 'The token, shown once; it expires after an hour' }) },
  { title: 'APITemporaryToken' },
);
export type InstallationToken = Static<typeof InstallationTokenSchema>;

export const DevelopmentModeBody = Type.Object(
  {
    tunnelUrl: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'The http(s) URL events and UI renders go to instead of the integration’s endpoint',
    }),
    all: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Send every organization’s requests to the tunnel, not only the owner organization’s',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ tunnelUrl: 'https://tunnel.example.com/integration', all: false }] },
);
export type DevelopmentModeBody = Static<typeof DevelopmentModeBody>;

const Extended = Type.Optional(
  Type.Boolean({ default: false, description: 'Give each space or site as its object rather than its id' }),
);
const ExternalId = Type.Optional(
  Type.String({ minLength: 1, maxLength: 256, description: 'Only installations with this external id' }),
);

export const ListIntegrationContentQuery = Type.Object(
  { ...ListQuery, externalId: ExternalId, extended: Extended },
  { additionalProperties: false },
);
export type ListIntegrationContentQuery = Static<typeof ListIntegrationContentQuery>;

export const OrganizationIntegrationParams = Type.Object({ organizationId: IdParam, integrationName: IntegrationName });

/** listOrganizationIntegrations takes the filters of listIntegrations. */
export const ListOrganizationIntegrationsQuery = ListIntegrationsQuery;

export const INSTALLATION_TARGETS = ['organization', 'space', 'site'] as const;
export type InstallationTargetType = (typeof INSTALLATION_TARGETS)[number];

export const ListInstallationStatusesQuery = Type.Object(
  {
    ...ListQuery,
    target: Type.Optional(StringEnum(INSTALLATION_TARGETS, { default: 'organization' })),
    site: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'With target=site: only this site' })),
    space: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'With target=space: only this space' }),
    ),
  },
  { additionalProperties: false },
);
export type ListInstallationStatusesQuery = Static<typeof ListInstallationStatusesQuery>;

const InstallationStatus = StringEnum(['active', 'pending', 'paused'] as const);

export const InstallationStatusSchema = Type.Object({ status: InstallationStatus });

export const InstalledIntegrationTarget = Type.Union([
  Type.Object({ type: Type.Literal('organization'), organizationId: Type.String() }),
  Type.Object({ type: Type.Literal('space'), spaceId: Type.String() }),
  Type.Object({ type: Type.Literal('site'), siteId: Type.String() }),
]);
export type InstalledIntegrationTarget = Static<typeof InstalledIntegrationTarget>;

// Open to other parameters, as the space's other reads are: a share-link visitor's `shareKey`
// must meet the same 404 as any non-member, not a 400 that tells the route apart.
export const ListContentIntegrationsQuery = Type.Object({
  ...ListQuery,
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name or title, any case' }),
  ),
});
export type ListContentIntegrationsQuery = Static<typeof ListContentIntegrationsQuery>;

export const SpaceIntegrationBlocksSchema = Type.Array(
  Type.Object({ name: Type.String(), blocks: Type.Array(IntegrationBlockSchema) }),
  { title: 'SpaceIntegrationBlocks' },
);
export type SpaceIntegrationBlocks = Static<typeof SpaceIntegrationBlocksSchema>;

export const SiteIntegrationScriptSchema = Type.Object(
  {
    script: Type.String({ format: 'uri', description: 'The script’s URL' }),
    contentSecurityPolicy: Type.Optional(Type.String()),
    cookies: Type.Boolean({ description: 'The script may set cookies' }),
  },
  { title: 'SiteIntegrationScript' },
);
export type SiteIntegrationScript = Static<typeof SiteIntegrationScriptSchema>;
