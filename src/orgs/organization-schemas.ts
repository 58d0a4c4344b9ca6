/** The Organization resource, as every domain that embeds an organization (organizations, content locations) presents it. */
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, StringEnum } from '../core/schemas.js';
import { NullableRoleSchema } from '../access/schemas.js';
import { MergeRulesStandaloneSchema } from './merge-rules.js';

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

export const SitePointer = Type.Object(
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
    mergeRules: MergeRulesStandaloneSchema,
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      logo: Type.Optional(Type.String({ format: 'uri' })),
    }),
    trial: Type.Object({
      status: StringEnum(['notapplicable', 'none', 'active', 'ended', 'expired'] as const),
      count: Type.Integer({ description: 'Trials the organization has consumed' }),
    }),
    permissions: Type.Object({
      view: Type.Boolean(),
      access: Type.Boolean(),
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
