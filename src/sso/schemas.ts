import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, NullableString, ref, StringEnum } from '../core/schemas.js';
import { NullableRoleSchema } from '../access/schemas.js';
import { TeamSchema } from '../members/member-schemas.js';

const Label = Type.String({ minLength: 1, maxLength: 30 });
const EntityId = Type.String({ maxLength: 1024 });
const Certificate = Type.String({
  maxLength: 10_000,
  description: 'The identity provider’s X.509 certificate, PEM or base64',
});
const SsoUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  pattern: '^https://',
  description: 'The identity provider’s sign-in URL (https)',
});

export const SamlProviderSchema = Type.Object(
  {
    object: Type.Literal('saml-provider'),
    id: Type.String(),
    label: Type.String(),
    // Always present, as the spec requires; empty until configured.
    ssoURL: Type.String({ description: 'The identity provider’s sign-in URL; empty until set' }),
    entityID: Type.String({ description: 'Empty until set' }),
    certificate: Type.String({ description: 'PEM; empty until set' }),
    defaultTeam: Type.Optional(ref(TeamSchema)),
    defaultRole: NullableRoleSchema,
    createdAt: DateTime,
    status: StringEnum(['active', 'pending'] as const, {
      description: '`active` once it has an entity id, a sign-in URL and a certificate',
    }),
    service: Type.Object({
      acsURL: Type.String({ format: 'uri' }),
      startURL: Type.String({ format: 'uri' }),
      entityID: Type.String(),
    }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'SamlProvider' },
);
export type SamlProvider = Static<typeof SamlProviderSchema>;

export const SamlProviderParams = Type.Object({ organizationId: IdParam, samlProviderId: IdParam });

const fields = {
  entityID: Type.Optional(NullableString({ maxLength: 1024 })),
  certificate: Type.Optional(NullableString({ maxLength: 10_000 })),
  ssoURL: Type.Optional(Type.Union([SsoUrl, Type.Null()])),
  defaultTeam: Type.Optional(NullableString({ minLength: 1, maxLength: 128 })),
  defaultRole: Type.Optional(NullableRoleSchema),
};
export const CreateSamlProviderBody = Type.Object(
  {
    label: Label,
    ...fields,
    entityID: Type.Optional(EntityId),
    certificate: Type.Optional(Certificate),
    ssoURL: Type.Optional(SsoUrl),
  },
  {
    additionalProperties: false,
    examples: [
      {
        label: 'Okta',
        entityID: 'http://www.okta.com/exk4acme',
        ssoURL: 'https://acme.okta.example/app/quire/sso/saml',
        defaultRole: 'read',
      },
    ],
  },
);
export type CreateSamlProviderBody = Static<typeof CreateSamlProviderBody>;
export const UpdateSamlProviderBody = Type.Object(
  { label: Type.Optional(Label), ...fields },
  { additionalProperties: false, examples: [{ label: 'Okta (staff)', defaultRole: 'edit', defaultTeam: null }] },
);
export type UpdateSamlProviderBody = Static<typeof UpdateSamlProviderBody>;

export const SsoLoginSchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  startURL: Type.String({ format: 'uri' }),
});
export type SsoLogin = Static<typeof SsoLoginSchema>;

export const ListSamlProvidersQuery = Type.Object(ListQuery);
export type ListSamlProvidersQuery = Static<typeof ListSamlProvidersQuery>;

export const SsoLoginsResponse = Type.Object({ items: Type.Array(SsoLoginSchema) });
export type SsoLoginsResponse = Static<typeof SsoLoginsResponse>;
