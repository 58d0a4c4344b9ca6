import { Type, type Static } from '@sinclair/typebox';
import { DateTime, ListQuery, NullableString, ref, StringEnum } from '../core/schemas.js';
import { NullableRoleSchema } from '../model/access/schemas.js';

export const ORGANIZATION_TYPES = ['business', 'community'] as const;
export const ORGANIZATION_USE_CASES = [
  'internalDocs',
  'docsSite',
  'audienceControlledSite',
  'productDocs',
  'teamKnowledgeBase',
  'designSystem',
  'openSourceDocs',
  'notes',
  'other',
] as const;
export const COMMUNITY_TYPES = ['nonProfit', 'openSource', 'education'] as const;

export const OrganizationTitle = Type.String({ minLength: 2, maxLength: 255, description: 'Name of the organization' });
/** The first label of the organization's default public address, so it must be a DNS label. */
export const OrganizationHostname = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$',
  description: 'Default hostname for the organization’s public content',
});
export const EmailDomain = Type.String({
  minLength: 3,
  maxLength: 253,
  pattern: '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
});
export const OrganizationEmailDomains = Type.Array(EmailDomain, {
  maxItems: 50,
  description: 'Email domains whose users may join',
});

const SitePointer = Type.Object(
  { type: Type.Literal('site'), site: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);

export const OrganizationSchema = Type.Object(
  {
    object: Type.Literal('organization'),
    id: Type.String(),
    title: Type.String(),
    createdAt: DateTime,
    emailDomains: Type.Array(Type.String()),
    hostname: Type.Optional(Type.String()),
    type: StringEnum(ORGANIZATION_TYPES),
    useCase: Type.Optional(StringEnum(ORGANIZATION_USE_CASES)),
    communityType: Type.Optional(StringEnum(COMMUNITY_TYPES)),
    defaultRole: NullableRoleSchema,
    defaultContent: Type.Optional(SitePointer),
    sso: Type.Boolean(),
    ai: Type.Boolean(),
    inviteLinks: Type.Boolean(),
    plan: Type.String(),
    customHostname: Type.Optional(Type.String()),
    internal_isOnNewTrial: Type.Literal(true, { deprecated: true }),
    mergeRules: Type.Object({
      type: StringEnum(['none', 'rules'] as const),
      rules: Type.Optional(Type.Array(Type.Unknown())),
    }),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      logo: Type.Optional(Type.String({ format: 'uri' })),
    }),
    trial: Type.Object({ status: StringEnum(['notapplicable', 'none', 'active', 'ended', 'expired'] as const) }),
    permissions: Type.Object({
      view: Type.Boolean(),
      admin: Type.Boolean(),
      ownTeam: Type.Boolean(),
      createContent: Type.Boolean(),
      createOpenAPISpec: Type.Boolean(),
      ingestConversations: Type.Boolean(),
      viewBilling: Type.Boolean(),
      listMembers: Type.Boolean(),
      listTeams: Type.Boolean(),
      listIntegrations: Type.Boolean(),
      listInstallations: Type.Boolean(),
      installIntegration: Type.Boolean(),
    }),
  },
  { $id: 'Organization' },
);
export type Organization = Static<typeof OrganizationSchema>;

export const CreateOrganizationBody = Type.Object(
  {
    title: OrganizationTitle,
    emailDomains: Type.Optional(OrganizationEmailDomains),
    hostname: Type.Optional(OrganizationHostname),
    type: Type.Optional(StringEnum(ORGANIZATION_TYPES)),
    useCase: Type.Optional(StringEnum(ORGANIZATION_USE_CASES)),
    communityType: Type.Optional(StringEnum(COMMUNITY_TYPES)),
  },
  { additionalProperties: false },
);
export type CreateOrganizationBody = Static<typeof CreateOrganizationBody>;

export const UpdateOrganizationBody = Type.Object(
  {
    title: Type.Optional(OrganizationTitle),
    emailDomains: Type.Optional(OrganizationEmailDomains),
    hostname: Type.Optional(OrganizationHostname),
    defaultRole: Type.Optional(NullableRoleSchema),
    defaultContent: Type.Optional(Type.Union([SitePointer, Type.Null()])),
    logo: Type.Optional(NullableString({ format: 'uri', maxLength: 2048, pattern: '^https?://' })),
    sso: Type.Optional(Type.Boolean()),
    ai: Type.Optional(Type.Boolean()),
    inviteLinks: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateOrganizationBody = Static<typeof UpdateOrganizationBody>;

export const EmailDomainParams = Type.Object({ emailDomain: EmailDomain });
export type EmailDomainParams = Static<typeof EmailDomainParams>;

export const ListOrganizationsQuery = Type.Object(ListQuery);
export type ListOrganizationsQuery = Static<typeof ListOrganizationsQuery>;

export const EmailDomainOrganizationsResponse = Type.Object({ organizations: Type.Array(ref(OrganizationSchema)) });
export type EmailDomainOrganizationsResponse = Static<typeof EmailDomainOrganizationsResponse>;
