import { Type, type Static } from '@sinclair/typebox';
import { ListQuery, NullableString, ref, StringEnum } from '../core/schemas.js';
import { NullableRoleSchema } from '../access/schemas.js';
import { MergeRulesStandaloneSchema } from './merge-rules.js';
import {
  COMMUNITY_TYPES,
  ORGANIZATION_TYPES,
  ORGANIZATION_USE_CASES,
  OrganizationSchema,
  SitePointer,
  type Organization,
} from './organization-schemas.js';

export { OrganizationSchema, type Organization };

export const OrganizationTitle = Type.String({ minLength: 2, maxLength: 255, description: 'Name of the organization' });
/**
 * The first label of the organization's default public address, so it must
 * be a DNS label; and not in the form of an id (20 letters and digits), since
 * an organization is named by either where one is asked for.
 */
export const OrganizationHostname = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^(?![a-z0-9]{20}$)[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$',
  description: 'Default hostname for the organization’s public content; not 20 letters and digits, the form of an id',
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

export const CreateOrganizationBody = Type.Object(
  {
    title: OrganizationTitle,
    emailDomains: Type.Optional(OrganizationEmailDomains),
    hostname: Type.Optional(OrganizationHostname),
    type: Type.Optional(StringEnum(ORGANIZATION_TYPES)),
    useCase: Type.Optional(StringEnum(ORGANIZATION_USE_CASES)),
    communityType: Type.Optional(StringEnum(COMMUNITY_TYPES)),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Acme', emailDomains: ['acme.example'], hostname: 'acme', type: 'business' }],
  },
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
    mergeRules: Type.Optional(MergeRulesStandaloneSchema),
  },
  { additionalProperties: false, examples: [{ title: 'Acme Documentation', defaultRole: 'read', inviteLinks: true }] },
);
export type UpdateOrganizationBody = Static<typeof UpdateOrganizationBody>;

export const EmailDomainParams = Type.Object({ emailDomain: EmailDomain });
export type EmailDomainParams = Static<typeof EmailDomainParams>;

export const ListOrganizationsQuery = Type.Object(ListQuery);
export type ListOrganizationsQuery = Static<typeof ListOrganizationsQuery>;

export const EmailDomainOrganizationsResponse = Type.Object({ organizations: Type.Array(ref(OrganizationSchema)) });
export type EmailDomainOrganizationsResponse = Static<typeof EmailDomainOrganizationsResponse>;
