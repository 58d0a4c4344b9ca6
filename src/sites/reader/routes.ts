import cookie from '@fastify/cookie';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { lagTolerant, type Context } from '../../context.js';
import { admit, type SiteCookie } from './audience.js';
import { messagePage, MESSAGE_PAGE_POLICY, readerErrorHandler } from '../../reader/error-page.js';
import { machineText, pageAsMarkdown, robots, type MachineOutput } from './machine.js';
import { searchPage, MAX_QUERY_LENGTH } from './search-page.js';
import { readerSite } from './site-cache.js';
import { findSiteRetiredAt } from './site-lookup.js';
import { siteAddress } from '../addresses.js';
import {
  addressIn,
  inSiteSpace,
  openSite,
  pageAddress,
  readPageAt,
  type OpenSite,
  type ReaderAnswer,
} from './site-reader.js';
import { spaceContent } from '../../reader/page-content.js';
import { READER_CSS, READER_CSS_ETAG } from '../../reader/styles.js';
import { sendStylesheet, THEME_COOKIE, THEME_SECONDS, themeChoice, themeOf } from '../../reader/http.js';
import { siteCss } from './theme-css.js';
import { redirectAt } from '../redirects/reader.js';
import { movedPageAt } from '../redirects/page-history.js';
import { allSiteSpaces } from '../structure/tree.js';
import { feedbackRoute } from '../insights/feedback-route.js';
import { recordPageView, recordReaderEvent } from '../insights/reader.js';
import { customFontCss } from '../../fonts/site-css.js';

const SiteParams = Type.Object({ site: Type.String({ minLength: 1, maxLength: 100 }) });
const PathParams = Type.Object({
  site: Type.String({ minLength: 1, maxLength: 100 }),
  '*': Type.String({ maxLength: 2048 }),
});
/** What the reader reads in an address: anything, as strings (share keys, tokens, claims, a query), bounded. */
const ReaderQuery = Type.Record(Type.String(), Type.String({ maxLength: 8192 }));

/**
 * The published reader, `/s/{basename or site id}/...`: the site's pages as
 * HTML (and markdown, llms.txt, sitemap.xml, robots.txt) for its audience,
 * with no API token. Who may read is the site's: an unpublished site is a
 * 404 to everyone here (members preview it through the API).
 */
export const siteReaderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  app.setErrorHandler(readerErrorHandler);
  const context = () => app.context;
  const hidden = { hide: true } as const;
  // A page's reading may lag (the replica, within DATABASE_REPLICA_MAX_LAG_MS); the site's admission and the view's record use the primary.
  const pageRoute = <Params extends typeof SiteParams | typeof PathParams>(params: Params) => ({
    config: { lagTolerant: 'visitor' as const },
    schema: { ...hidden, params, querystring: ReaderQuery },
  });

  app.get('/s/:site', pageRoute(SiteParams), (request, reply) =>
    withSite(context(), request, reply, (open) =>
      readPageAt(lagTolerant(context(), request), open, [], themeOf(request))
        .then(recordPageView(context(), request, open))
        .then(send(reply)),
    ),
  );

  app.get('/s/:site/*', pageRoute(PathParams), (request, reply) =>
    withSite(context(), request, reply, async (open) => {
      const segments = request.params['*'].split('/').filter((segment) => segment !== '');
      const last = segments.at(-1);
      if (last?.endsWith('.md')) {
        const markdown = await pageAsMarkdown(context(), open, [...segments.slice(0, -1), last.slice(0, -3)]);
        if (markdown === undefined) {
          const moved = await movedPageAt(context(), open, [...segments.slice(0, -1), last.slice(0, -3)]);
          if (moved) return reply.redirect(`${moved.location}.md`, moved.status);
          return reply.code(404).type('text/plain; charset=utf-8').send('No page here\n');
        }
        recordReaderEvent(context(), request, open, 'page_markdown_request', undefined);
        return sendText(reply, open, 'text/markdown; charset=utf-8', markdown);
      }
      const answer = await readPageAt(lagTolerant(context(), request), open, segments, themeOf(request));
      // Only where no page answers: a redirect never shadows a page.
      if (answer.kind === 'page' && answer.status === 404) {
        const redirect = await redirectAt(context(), open, request.url.replace(/^\/s\/[^/?#]*/, '').split('?')[0]!);
        if (redirect) return reply.redirect(redirect.location, redirect.status);
        const moved = await movedPageAt(context(), open, segments);
        if (moved) return reply.redirect(moved.location, moved.status);
      }
      return send(reply)(recordPageView(context(), request, open)(answer));
    }),
  );

  app.get(
    '/s/:site/~/search',
    { schema: { ...hidden, params: SiteParams, querystring: ReaderQuery } },
    (request, reply) =>
      withSite(context(), request, reply, async (open) => {
        const query = (request.query.q ?? '').slice(0, MAX_QUERY_LENGTH);
        if (query.trim() !== '')
          recordReaderEvent(context(), request, open, 'search_type_query', undefined, { search_query: query });
        return send(reply)(await searchPage(context(), open, query, themeOf(request)));
      }),
  );

  app.get(
    '/s/:site/~/go/:spaceId/:pageId',
    {
      schema: {
        ...hidden,
        params: Type.Object({
          site: Type.String({ minLength: 1, maxLength: 100 }),
          spaceId: Type.String({ minLength: 1, maxLength: 64 }),
          pageId: Type.String({ minLength: 1, maxLength: 64 }),
        }),
        querystring: ReaderQuery,
      },
    },
    (request, reply) =>
      withSite(context(), request, reply, async (open) => {
        const siteSpace = allSiteSpaces(open.structure).find(
          (candidate) => candidate.space.id === request.params.spaceId,
        );
        const content = siteSpace && (await spaceContent(context(), siteSpace.space));
        const page = content?.tree.pages.get(request.params.pageId);
        if (!siteSpace || !content || !page)
          return send(reply)(await readPageAt(context(), open, ['~', 'go'], themeOf(request)));
        return reply.redirect(pageAddress(context(), open, siteSpace, content.tree.pathOf(page.pageId)), 302);
      }),
  );

  app.get(
    '/s/:site/~/theme',
    { schema: { ...hidden, params: SiteParams, querystring: ReaderQuery } },
    (request, reply) =>
      withSite(context(), request, reply, (open) => {
        const home = addressIn(context(), open);
        const chosen = themeChoice(request.query.set);
        const back = request.query.back;
        if (chosen) {
          void reply.setCookie(
            THEME_COOKIE,
            chosen,
            cookieOptions(context(), request, request.params.site, THEME_SECONDS),
          );
        }
        // Back to a page of this site only: the switch must not send visitors to another site's address.
        const location = back && (back === home || back.startsWith(`${home}/`)) ? back : home;
        return Promise.resolve(reply.redirect(location, 303));
      }),
  );

  app.get('/s/:site/~/reader.css', { schema: { ...hidden, params: SiteParams } }, (request, reply) =>
    Promise.resolve(sendStylesheet(request, reply, READER_CSS, READER_CSS_ETAG)),
  );

  app.get(
    '/s/:site/~/site.css',
    { schema: { ...hidden, params: SiteParams, querystring: ReaderQuery } },
    (request, reply) =>
      withSite(context(), request, reply, (open) => {
        // A site space's page names its site space, whose overrides may change the colours.
        const named = request.query.siteSpace;
        const siteSpace = named ? allSiteSpaces(open.structure).find((candidate) => candidate.id === named) : undefined;
        const { css, etag } = siteCss((siteSpace ? inSiteSpace(open, siteSpace) : open).settings);
        return Promise.resolve(sendStylesheet(request, reply, css, etag));
      }),
  );

  // The site's custom fonts are read on every request (a font can change without the site): revalidated, not kept.
  app.get(
    '/s/:site/~/fonts.css',
    { schema: { ...hidden, params: SiteParams, querystring: ReaderQuery } },
    (request, reply) =>
      withSite(context(), request, reply, async (open) => {
        const named = request.query.siteSpace;
        const siteSpace = named ? allSiteSpaces(open.structure).find((candidate) => candidate.id === named) : undefined;
        const { settings } = siteSpace ? inSiteSpace(open, siteSpace) : open;
        const { css, etag } = await customFontCss(context(), open.site.organization_id, settings.styling);
        void reply.header('etag', etag).header('cache-control', 'private, no-cache');
        if (request.headers['if-none-match'] === etag) return reply.code(304).send();
        return reply.type('text/css; charset=utf-8').send(css);
      }),
  );

  feedbackRoute(app, (request, reply, serve) => withSite(context(), request, reply, serve));

  // Built from every page of the site, so kept once built (machine.ts), and answered 304 when unchanged.
  const machineRoute = (url: string, type: string, output: MachineOutput) =>
    app.get(url, { schema: { ...hidden, params: SiteParams, querystring: ReaderQuery } }, (request, reply) =>
      withSite(context(), request, reply, async (open) => {
        const built = await machineText(context(), open, output);
        if (output !== 'sitemap.xml') {
          const variant = output === 'llms.txt' ? 'standard' : 'full';
          recordReaderEvent(context(), request, open, 'llms_request', undefined, { llms_variant: variant });
        }
        void reply.header('etag', built.etag);
        if (request.headers['if-none-match'] === built.etag) return textHeaders(reply, open).code(304).send();
        return sendText(reply, open, type, built.text);
      }),
    );
  machineRoute('/s/:site/llms.txt', 'text/plain; charset=utf-8', 'llms.txt');
  machineRoute('/s/:site/llms-full.txt', 'text/plain; charset=utf-8', 'llms-full.txt');
  machineRoute('/s/:site/sitemap.xml', 'application/xml; charset=utf-8', 'sitemap.xml');
  app.get(
    '/s/:site/robots.txt',
    { schema: { ...hidden, params: SiteParams, querystring: ReaderQuery } },
    (request, reply) =>
      withSite(context(), request, reply, (open) =>
        Promise.resolve(sendText(reply, open, 'text/plain; charset=utf-8', robots(context(), open))),
      ),
  );
};

/**
 * Finds the site, admits the visitor (or keeps their key or token in a cookie
 * and sends them on without it, or to the site's sign-in), then runs `serve`.
 */
async function withSite(
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  serve: (open: OpenSite) => Promise<unknown>,
): Promise<unknown> {
  // Every reader route's schema has the site's name in its params and a record of strings as its query.
  const params = request.params as { site: string };
  const query = request.query as Record<string, string | undefined>;
  const read = await readerSite(context, params.site);
  const site = read?.site;
  if (!read || !site) {
    // An address a site gave up leads on to where the site is read now; a custom hostname names its site by id.
    const moved = viaHostname(request) ? undefined : await findSiteRetiredAt(context.db, params.site);
    if (moved)
      return reply.redirect(`${siteAddress(context.urls, moved)}${request.url.replace(/^\/s\/[^/?#]*/, '')}`, 302);
    return sendMessage(reply, 404, 'Site not found', 'There is no published site at this address.');
  }
  const admission = await admit(context, site, { query, cookies: request.cookies });
  switch (admission.kind) {
    case 'not-found':
      return sendMessage(reply, 404, 'Site not found', 'There is no published site at this address.');
    case 'remember': {
      for (const kept of admission.cookies) setSiteCookie(context, request, reply, params.site, kept);
      return reply.redirect(withoutCredentials(request.originalUrl), 303);
    }
    case 'sign-in': {
      if (admission.fallbackUrl) {
        const target = new URL(admission.fallbackUrl);
        // Where to come back to with a token: this address as the visitor asked for it, without its query.
        // The lookbehind starts the match where a run of slashes starts (see core/urls.ts).
        const base = viaHostname(request)
          ? `${context.urls.protocol}//${request.hostname}`
          : context.urls.service().replace(/(?<!\/)\/+$/, '');
        target.searchParams.set('location', `${base}${request.originalUrl.split('?')[0]}`);
        return reply.redirect(target.toString(), 302);
      }
      return sendMessage(
        reply,
        401,
        'Sign-in needed',
        'This site is for signed-in visitors. Open it from the link your sign-in gives you.',
      );
    }
    case 'admitted': {
      void reply.header('vary', 'cookie');
      return serve(openSite(read, admission.visitor));
    }
  }
}

/** The address without the share key, tokens and claims it carried: they live in cookies from now on. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url, 'http://reader.invalid');
  for (const name of [...parsed.searchParams.keys()]) {
    if (name === 'share' || name === 'jwt_token' || name === 'preview' || name.startsWith('visitor.')) {
      parsed.searchParams.delete(name);
    }
  }
  return `${parsed.pathname}${parsed.search}`;
}

/** Whether the request came to the site's custom hostname: routing rewrote its address to the site's. */
function viaHostname(request: FastifyRequest): boolean {
  return request.originalUrl !== request.url;
}

/** A site's cookies stay with its pages: under `/s/{name}`, or the whole of its own hostname. */
function cookieOptions(context: Context, request: FastifyRequest, siteName: string, maxAge: number | undefined) {
  return {
    path: viaHostname(request) ? '/' : new URL(context.urls.site(siteName)).pathname,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: context.config.publicUrl.startsWith('https:'),
    ...(maxAge !== undefined ? { maxAge } : {}),
  };
}

function setSiteCookie(
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  siteName: string,
  kept: SiteCookie,
): void {
  void reply.setCookie(kept.name, kept.value, cookieOptions(context, request, siteName, kept.maxAge));
}

/**
 * Pages may show images from anywhere on the web (they are the authors'), load
 * styles and send forms only to the service itself, and run no script at all.
 */
function readerPolicy(context: Context): string {
  const { origin } = context.urls;
  // The same text for every page of a service: made once, not on each request.
  if (policyOf.origin !== origin) policyOf = { origin, policy: policyFor(origin) };
  return policyOf.policy;
}
let policyOf = { origin: '', policy: '' };

function policyFor(origin: string): string {
  return [
    "default-src 'none'",
    `style-src 'self' ${origin}`,
    // The site's custom fonts, served by the service (fonts/routes.ts).
    `font-src 'self' ${origin}`,
    `img-src 'self' ${origin} https: data:`,
    `form-action 'self' ${origin}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function send(reply: FastifyReply) {
  return (answer: ReaderAnswer): FastifyReply => {
    if (answer.kind === 'redirect') return reply.redirect(answer.location, 302);
    const request = reply.request;
    void reply
      .header('content-security-policy', readerPolicy(request.server.context))
      .header('etag', answer.etag)
      .header('cache-control', 'private, no-cache');
    if (answer.status === 200 && request.headers['if-none-match'] === answer.etag) return reply.code(304).send();
    return reply.code(answer.status).type('text/html; charset=utf-8').send(answer.html);
  };
}

function textHeaders(reply: FastifyReply, open: OpenSite): FastifyReply {
  void reply.header('cache-control', 'private, no-cache');
  if (!open.indexable) void reply.header('x-robots-tag', 'noindex');
  return reply;
}

function sendText(reply: FastifyReply, open: OpenSite, type: string, text: string): FastifyReply {
  return textHeaders(reply, open).type(type).send(text);
}

function sendMessage(reply: FastifyReply, status: 401 | 404, title: string, message: string): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', MESSAGE_PAGE_POLICY)
    .header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(messagePage(status, title, message));
}
