import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../access/auth.js';
import { errorResponses, SpaceParams } from '../core/schemas.js';
import { contentByUrl } from './content.js';
import { embedOfUrl, embedOfUrlInSpace } from './embeds.js';
import { resolvePublishedUrl } from './published.js';
import {
  ContentByUrl,
  Embed,
  PublishedSiteContentLookup,
  PublishedUrlQuery,
  ResolvePublishedBody,
  SpaceUrlQuery,
  UrlQuery,
} from './schemas.js';

const tags = ['urls'];

const PUBLISHED_DESCRIPTION =
  'Any token with site:read: the address is resolved as the site’s reader resolves it for a visitor (never as the ' +
  'caller): an unpublished site, a share-link site without its key in the address, or a visitor-auth site ' +
  'without a valid visitor token is a 404 (a visitor-auth one answers its sign-in address with ' +
  '`redirectOnError`). A path no page answers follows the site’s live redirects, and a site’s former ' +
  'basename leads to where it is read now. `apiToken` is empty: this service issues no short-lived tokens.';

/**
 * Addresses back to what they show: an app or published address of ours to
 * its content for the caller's rights, a published address to its site as a
 * visitor reads it, and any address to an embed (oEmbed for outside ones).
 */
export const urlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/urls/content',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getContentByUrl',
        tags,
        summary: 'Resolve a URL of this service to a collection, or a space with its change request and page',
        description:
          'Any app address (`/app/o/…`), a space’s published address (`/p/…`) or a published site’s ' +
          '(`/s/…` or its proven hostname), read with the caller’s rights: what they may not read is a 404, ' +
          'as an address of nothing is. A site’s address is first resolved as its reader does for a visitor.',
        querystring: UrlQuery,
        response: { 200: ContentByUrl, ...errorResponses },
      },
    },
    async (request) => contentByUrl(app.context, callerOf(request).userId, request.query.url),
  );

  app.get(
    '/urls/published',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getPublishedContentByUrl',
        tags,
        deprecated: true,
        summary: 'Resolve a URL of a published content',
        description: `${PUBLISHED_DESCRIPTION} \`visitorAuthToken\` is a visitor token signed with the site’s key.`,
        querystring: PublishedUrlQuery,
        response: { 200: PublishedSiteContentLookup, ...errorResponses },
      },
    },
    async (request) =>
      resolvePublishedUrl(
        app.context,
        request.query.url,
        { jwtToken: request.query.visitorAuthToken },
        request.query.redirectOnError ?? false,
      ),
  );

  app.post(
    '/urls/published',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'resolvePublishedContentByUrl',
        tags,
        summary: 'Resolve a URL of a published content',
        description:
          `${PUBLISHED_DESCRIPTION} \`visitor.jwtToken\` is a visitor token signed with the site’s key; ` +
          '`visitor.unsignedClaims` feed adaptive content as `?visitor.<name>=` does in the reader.',
        body: ResolvePublishedBody,
        response: { 200: PublishedSiteContentLookup, ...errorResponses },
      },
    },
    async (request) => {
      const { url, visitor, redirectOnError } = request.body;
      const credentials = { jwtToken: visitor?.jwtToken, unsignedClaims: visitor?.unsignedClaims };
      return resolvePublishedUrl(app.context, url, credentials, redirectOnError ?? false);
    },
  );

  const embedDescription =
    'An address of this service is the content it shows, for the caller’s rights (404 otherwise). Any other ' +
    'http(s) address is fetched without credentials through the guarded fetcher: a well-known provider’s ' +
    'oEmbed endpoint, or the one its page names in `<link rel="alternate" type="application/json+oembed">`; ' +
    'else a link with the page’s title and icon. Kept for a while (the provider’s `cache_age`, 1 hour to ' +
    '7 days), and fetched a few at a time per user and organization (429 past that). A private or otherwise ' +
    'refused address is a 400; one that does not answer, a link named by its host.';

  app.get(
    '/urls/embed',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getEmbedByUrl',
        tags,
        summary: 'Resolve a URL to an embed',
        description: `Any valid token with space:read. ${embedDescription}`,
        querystring: UrlQuery,
        response: { 200: Embed, ...errorResponses },
      },
    },
    async (request) => embedOfUrl(app.context, callerOf(request).userId, request.query.url),
  );

  app.get(
    '/spaces/:spaceId/embed',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getEmbedByUrlInSpace',
        tags,
        summary: 'Resolve a URL to an embed within a space',
        description: `Members with a role on the space (404 for anyone else, visitors too). ${embedDescription}`,
        params: SpaceParams,
        querystring: SpaceUrlQuery,
        response: { 200: Embed, ...errorResponses },
      },
    },
    async (request) =>
      embedOfUrlInSpace(app.context, callerOf(request).userId, request.params.spaceId, request.query.url),
  );
};
