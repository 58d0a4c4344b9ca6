import cookie from '@fastify/cookie';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../access/auth.js';
import type { Scope } from '../access/scopes.js';
import { ApiError } from '../core/errors.js';
import { readerErrorHandler } from '../reader/error-page.js';
import type { ThemeChoice } from '../reader/layout.js';
import { READER_CSS, READER_CSS_ETAG } from '../reader/styles.js';
import { sendStylesheet, THEME_COOKIE, THEME_SECONDS, themeChoice, themeOf } from '../reader/http.js';
import { collectionPage, integrationPage, organizationPage, sitePage, specPage } from './entity-pages.js';
import { notFound, sendAppAnswer as send, type AppAnswer } from './shell.js';
import { appHome, appPath, appPathOrHome, sameOrigin, sessionCaller, startSession } from './session.js';
import { pageAddressInApp, spacePage } from './space-pages.js';
import { homePage, MAX_TOKEN_LENGTH, signInPage } from './home-pages.js';
import { accountRoutes, type AccountRoutesOptions } from './account-routes.js';
import { editRoutes } from './edit-routes.js';
import { reviewRoutes } from './review-routes.js';

const Id = Type.String({ minLength: 1, maxLength: 64 });
const AppQuery = Type.Record(Type.String(), Type.String({ maxLength: 2048 }));

/**
 * The app at `/app/...`, where every `urls.app` of the API leads: a person
 * signs in with their e-mail address and password, through an identity
 * provider, or by pasting an API token, then reads what the API would let
 * them read (spaces, a change request's content with its changes marked,
 * organizations, collections, sites, specs, integrations). Its forms change
 * the person's own account (account-routes.ts), write pages in change
 * requests (edit-routes.ts), and take change requests through review to
 * their merge (review-routes.ts), each as the API would let them.
 */
export const appReaderRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, options) => {
  await app.register(cookie);
  app.setErrorHandler(readerErrorHandler);
  // The sign-in form posts as browsers do; this plugin alone reads such bodies.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const hidden = { hide: true } as const;

  app.get('/app', { schema: { ...hidden, querystring: AppQuery } }, async (request, reply) => {
    const caller = await sessionCaller(app, request, reply, 'organization:read');
    if (!caller) return send(reply, signInPage(app.context, request.query.next, undefined, themeOf(request)));
    return send(reply, await homePage(app.context, caller, themeOf(request), request.url));
  });

  app.post(
    '/app/sign-in',
    {
      schema: {
        ...hidden,
        body: Type.Object({
          token: Type.String({ maxLength: MAX_TOKEN_LENGTH }),
          next: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request, reply) => {
      const context = app.context;
      if (!sameOrigin(context, request)) throw new ApiError(403, 'Sign in from this service’s own page');
      const token = request.body.token.trim();
      const refused = () =>
        send(
          reply,
          signInPage(
            app.context,
            request.body.next,
            'That token does not work: it is unknown, revoked or expired.',
            themeOf(request),
          ),
          401,
        );
      let caller: Caller;
      try {
        caller = await app.authenticateToken(request, token);
      } catch (error) {
        if (!(error instanceof ApiError) || error.statusCode !== 401) throw error;
        return refused();
      }
      // The cookie carries a new session's id; the token itself is never sent back.
      if (!(await startSession(context, request, reply, caller))) return refused();
      return reply.redirect(appPathOrHome(context, request.body.next), 303);
    },
  );

  // People's own sign-in, with a password, and their account.
  await app.register(accountRoutes, options);
  // Writing a page in a change request, and taking the change request through review to its merge.
  await app.register(editRoutes);
  await app.register(reviewRoutes);

  app.get('/app/~/theme', { schema: { ...hidden, querystring: AppQuery } }, async (request, reply) => {
    const chosen = themeChoice(request.query.set);
    if (chosen) {
      void reply.setCookie(THEME_COOKIE, chosen, {
        path: appPath(app.context),
        httpOnly: true,
        sameSite: 'lax',
        secure: app.context.config.publicUrl.startsWith('https:'),
        maxAge: THEME_SECONDS,
      });
    }
    const back = request.query.back ? new URL(request.query.back, app.context.config.publicUrl).pathname : undefined;
    return reply.redirect(appPathOrHome(app.context, back), 303);
  });

  app.get('/app/~/reader.css', { schema: hidden }, async (request, reply) => {
    return sendStylesheet(request, reply, READER_CSS, READER_CSS_ETAG);
  });

  /** A page for a signed-in caller with `scope`; others are sent to sign in and brought back. */
  const page = <P>(
    url: string,
    scope: Scope,
    params: ReturnType<typeof Type.Object>,
    answer: (
      caller: Caller,
      params: P,
      request: FastifyRequest,
      theme: ThemeChoice | undefined,
    ) => Promise<AppAnswer | string>,
  ) =>
    app.get(url, { schema: { ...hidden, params, querystring: AppQuery } }, async (request, reply) => {
      const caller = await sessionCaller(app, request, reply, scope);
      if (!caller) {
        const next = encodeURIComponent(request.url.split('?')[0]!);
        return reply.redirect(`${appHome(app.context)}?next=${next}`, 302);
      }
      const result = await answer(caller, request.params as P, request, themeOf(request));
      if (typeof result === 'string') return reply.redirect(result, 302);
      return send(reply, result);
    });

  const back = (request: FastifyRequest) => request.url.split('?')[0]!;
  type OrgParams = { organizationId: string };
  type SpaceParams = OrgParams & { spaceId: string; '*'?: string; changeRequest?: string };

  page<OrgParams>(
    '/app/o/:organizationId',
    'organization:read',
    Type.Object({ organizationId: Id }),
    (caller, p, request, theme) => organizationPage(app.context, caller, p.organizationId, theme, back(request)),
  );
  const spaceParams = Type.Object({ organizationId: Id, spaceId: Id });
  const readSpace = (caller: Caller, p: SpaceParams, request: FastifyRequest, theme: ThemeChoice | undefined) =>
    spacePage(
      app.context,
      caller,
      {
        organizationId: p.organizationId,
        spaceId: p.spaceId,
        changeRequest: p.changeRequest,
        pagePath: (p['*'] ?? '')
          .split('/')
          .filter((segment) => segment !== '')
          .join('/'),
      },
      theme,
      back(request),
    );
  page<SpaceParams>('/app/o/:organizationId/s/:spaceId', 'space:read', spaceParams, readSpace);
  page<SpaceParams>(
    '/app/o/:organizationId/s/:spaceId/*',
    'space:read',
    Type.Object({ organizationId: Id, spaceId: Id, '*': Type.String({ maxLength: 2048 }) }),
    readSpace,
  );
  page<SpaceParams>(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest',
    'space:read',
    Type.Object({ organizationId: Id, spaceId: Id, changeRequest: Id }),
    readSpace,
  );
  page<SpaceParams>(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/*',
    'space:read',
    Type.Object({ organizationId: Id, spaceId: Id, changeRequest: Id, '*': Type.String({ maxLength: 2048 }) }),
    readSpace,
  );
  page<SpaceParams & { pageId: string }>(
    '/app/o/:organizationId/s/:spaceId/~/page/:pageId',
    'space:read',
    Type.Object({ organizationId: Id, spaceId: Id, pageId: Id }),
    async (caller, p, request, theme) =>
      (await pageAddressInApp(app.context, caller, p.organizationId, p.spaceId, p.pageId)) ??
      notFound(app.context, caller, theme, back(request)),
  );
  page<OrgParams & { collectionId: string }>(
    '/app/o/:organizationId/c/:collectionId',
    'space:read',
    Type.Object({ organizationId: Id, collectionId: Id }),
    (caller, p, request, theme) =>
      collectionPage(app.context, caller, p.organizationId, p.collectionId, theme, back(request)),
  );
  page<OrgParams & { siteId: string }>(
    '/app/o/:organizationId/sites/:siteId',
    'site:read',
    Type.Object({ organizationId: Id, siteId: Id }),
    (caller, p, request, theme) => sitePage(app.context, caller, p.organizationId, p.siteId, theme, back(request)),
  );
  page<OrgParams & { slug: string }>(
    '/app/o/:organizationId/openapi/:slug',
    'openapi:read',
    Type.Object({ organizationId: Id, slug: Type.String({ minLength: 1, maxLength: 100 }) }),
    (caller, p, request, theme) => specPage(app.context, caller, p.organizationId, p.slug, theme, back(request)),
  );
  page<OrgParams & { name: string }>(
    '/app/o/:organizationId/integrations/:name',
    'integration:read',
    Type.Object({ organizationId: Id, name: Type.String({ minLength: 1, maxLength: 100 }) }),
    (caller, p, request, theme) => integrationPage(app.context, caller, p.name, p.organizationId, theme, back(request)),
  );
  page<{ name: string }>(
    '/app/integrations/:name',
    'integration:read',
    Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }),
    (caller, p, request, theme) => integrationPage(app.context, caller, p.name, undefined, theme, back(request)),
  );
};
