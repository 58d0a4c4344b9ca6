import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, NullableString, StringEnum } from '../../core/schemas.js';

// ---- Share links ----

export const ShareLinkName = Type.String({ minLength: 0, maxLength: 50, description: 'A name to tell links apart' });

export const ShareLinkSchema = Type.Object({
  object: Type.Literal('share-link'),
  id: Type.String(),
  createdAt: DateTime,
  name: ShareLinkName,
  active: Type.Boolean({ description: 'Whether the link opens the site' }),
  urls: Type.Object({
    published: Type.String({ format: 'uri', description: 'The site’s address with the link’s key' }),
  }),
});
export type ShareLink = Static<typeof ShareLinkSchema>;

export const CreateShareLinkBody = Type.Object(
  { name: ShareLinkName },
  { additionalProperties: false, examples: [{ name: 'Beta customers' }] },
);
export type CreateShareLinkBody = Static<typeof CreateShareLinkBody>;

export const UpdateShareLinkBody = Type.Object(
  { active: Type.Optional(Type.Boolean()), name: Type.Optional(ShareLinkName) },
  { additionalProperties: false, minProperties: 1, examples: [{ active: false }] },
);
export type UpdateShareLinkBody = Static<typeof UpdateShareLinkBody>;

export const ListShareLinksQuery = Type.Object(
  {
    ...ListQuery,
    order: Type.Optional(StringEnum(['asc', 'desc'] as const, { description: 'By creation time' })),
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Part of a link’s name, any case, or its whole key' }),
    ),
  },
  { additionalProperties: false },
);
export type ListShareLinksQuery = Static<typeof ListShareLinksQuery>;

export const ShareLinkParams = Type.Object({ organizationId: IdParam, siteId: IdParam, shareLinkId: IdParam });

// ---- Visitor authentication ----

export const AUTH_BACKENDS = ['custom', 'integration'] as const;

export const SitePublishingAuthSchema = Type.Object({
  object: Type.Literal('publishing-auth'),
  backend: StringEnum(AUTH_BACKENDS),
  privateKey: Type.String({ description: 'The key that signs visitor tokens (HS256)' }),
  fallbackURL: Type.Optional(Type.String({ format: 'uri' })),
  logoutURL: Type.Optional(Type.String({ format: 'uri' })),
});
export type SitePublishingAuth = Static<typeof SitePublishingAuthSchema>;

export const SitePublishingAuthUpdate = Type.Object(
  {
    backend: StringEnum(AUTH_BACKENDS),
    // Visitors' browsers are sent there: an absolute http(s) address, never another scheme.
    fallbackURL: Type.Optional(
      NullableString({
        format: 'uri',
        maxLength: 2048,
        pattern: '^[hH][tT][tT][pP][sS]?://',
        description: 'Where visitors who fail authentication are sent; null removes it, absent leaves it',
      }),
    ),
    logoutURL: Type.Optional(
      NullableString({
        format: 'uri',
        maxLength: 2048,
        pattern: '^[hH][tT][tT][pP][sS]?://',
        description: 'Where the custom backend signs visitors out; null removes it, absent leaves it',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ backend: 'custom', fallbackURL: 'https://acme.example/login' }] },
);
export type SitePublishingAuthUpdate = Static<typeof SitePublishingAuthUpdate>;
