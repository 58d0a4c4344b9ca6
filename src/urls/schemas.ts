import { Type, type Static } from '@sinclair/typebox';
import { ref, Url } from '../core/schemas.js';
import { CollectionSchema } from '../collections/schemas.js';
import { ChangeRequestSchema } from '../content/change-request-schemas.js';
import { RevisionPageResponse } from '../content/schemas.js';
import { SpaceSchema } from '../spaces/space-schemas.js';

/** The longest address any of these operations reads: the spec's URL bound. */
export const MAX_URL_LENGTH = 2048;
const MAX_VISITOR_TOKEN_LENGTH = 8192;

const UrlToResolve = Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'URL to resolve' });

export const UrlQuery = Type.Object({ url: UrlToResolve }, { additionalProperties: false });
export const SpaceUrlQuery = Type.Object(
  {
    url: UrlToResolve,
    shareKey: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Ignored: members only' })),
  },
  { additionalProperties: false },
);

export const PublishedUrlQuery = Type.Object(
  {
    url: Type.String({ ...Url, description: 'URL to resolve' }),
    visitorAuthToken: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_VISITOR_TOKEN_LENGTH,
        description: 'A visitor token signed with the site’s key, as the reader takes it',
      }),
    ),
    redirectOnError: Type.Optional(
      Type.Boolean({ default: false, description: 'Answer the site’s sign-in address when the token does not admit' }),
    ),
  },
  { additionalProperties: false },
);
export type PublishedUrlQuery = Static<typeof PublishedUrlQuery>;

/** Unsigned claims: named booleans are what adaptive conditions read; other values are accepted and ignored. */
const UnsignedClaims = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
  maxProperties: 32,
  description: 'Claims the visitor states without a signature; adaptive content reads the boolean ones',
});

export const ResolvePublishedBody = Type.Object(
  {
    url: Type.String({ ...Url, description: 'URL to resolve' }),
    redirectOnError: Type.Optional(Type.Boolean({ default: false })),
    visitor: Type.Optional(
      Type.Object(
        {
          type: Type.Optional(Type.Union([Type.Literal('human'), Type.Literal('agent')])),
          jwtToken: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_VISITOR_TOKEN_LENGTH })),
          unsignedClaims: Type.Optional(UnsignedClaims),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ url: 'https://docs.example.com/guides/intro' }] },
);
export type ResolvePublishedBody = Static<typeof ResolvePublishedBody>;

export const PublishedSiteContent = Type.Object({
  site: Type.String({ description: 'ID of the site matching.' }),
  siteSection: Type.Optional(Type.String({ description: 'ID of the site-section matching.' })),
  siteSpace: Type.String({ description: 'ID of the site-space matching.' }),
  space: Type.String({ description: 'ID of the space matching.' }),
  revision: Type.Optional(Type.String({ description: 'The revision the site shows now' })),
  pathname: Type.String({ description: 'Path of the page relative to the site space' }),
  basePath: Type.String({ description: 'Prefix of the path up to the site space' }),
  siteBasePath: Type.String({ description: 'Prefix of the site path' }),
  apiToken: Type.String({
    description:
      'Always empty here: this service issues no short-lived content tokens. The space is read through the ' +
      'API with the caller’s own token, as its visibility allows.',
  }),
  organization: Type.String(),
  shareKey: Type.Optional(Type.String({ description: 'The share key that opened a share-link site' })),
  complete: Type.Boolean(),
  contextId: Type.Optional(
    Type.String({ description: 'Changes when the visitor’s claims that change the content change' }),
  ),
  canonicalUrl: Type.String(),
  preview: Type.Optional(Type.Boolean()),
});
export type PublishedSiteContent = Static<typeof PublishedSiteContent>;

export const PublishedContentRedirect = Type.Union([
  Type.Object({ target: Type.Union([Type.Literal('application'), Type.Literal('content')]), redirect: Type.String() }),
  Type.Object({ target: Type.Literal('external'), site: Type.String(), redirect: Type.String() }),
]);

export const PublishedSiteContentLookup = Type.Union([PublishedContentRedirect, PublishedSiteContent]);
export type PublishedSiteContentLookup = Static<typeof PublishedSiteContentLookup>;

/** A page as the page reads answer it (their JSON text, parsed). */
export type PageJson = Static<typeof RevisionPageResponse>;

export const ContentByUrl = Type.Union([
  Type.Object({ collection: ref(CollectionSchema) }),
  Type.Object({
    space: ref(SpaceSchema),
    changeRequest: Type.Optional(ref(ChangeRequestSchema)),
    page: Type.Optional(RevisionPageResponse),
  }),
]);
export type ContentByUrl = Static<typeof ContentByUrl>;

const EmbedBase = {
  title: Type.String(),
  site: Type.String({ description: 'Who provides the content: the provider’s name, or its host' }),
  icon: Type.Optional(Type.String()),
};
export const Embed = Type.Union([
  Type.Object({ ...EmbedBase, type: Type.Literal('link') }),
  Type.Object({
    ...EmbedBase,
    type: Type.Literal('rich'),
    html: Type.String({ description: 'The provider’s HTML, as it gave it: show it in a sandboxed frame' }),
  }),
]);
export type Embed = Static<typeof Embed>;
