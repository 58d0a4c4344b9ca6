import cookie from '@fastify/cookie';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readerErrorHandler } from '../reader/error-page.js';
import { themeOf } from '../reader/http.js';
import { MAX_EMAIL_LENGTH, signInPage } from '../app-reader/home-pages.js';
import { appPathOrHome, startPersonSession } from '../app-reader/session.js';
import { sendAppAnswer as send } from '../app-reader/shell.js';
import { isActive } from './present.js';
import { activeSamlProvidersForDomain, findSamlProviderById } from './queries.js';
import { providerChoicePage, startUrl } from './sign-in-pages.js';
import {
  finishSamlSignIn,
  PENDING_SAML_SECONDS,
  pendingSamlSignIn,
  SamlRefusal,
  serviceMetadata,
  startSamlSignIn,
  type ActiveSamlProvider,
} from './saml-client.js';
import { checkSamlSignIn } from './sign-in.js';

const hidden = { hide: true } as const;
const PENDING_COOKIE = 'quire_saml';
/** The largest SAMLResponse taken: a signed assertion with a certificate and many attributes is a few tens of KB. */
const MAX_SAML_RESPONSE = 200_000;
const Params = Type.Object({ samlProviderId: Type.String({ minLength: 1, maxLength: 128 }) });
const NOT_STARTED_HERE =
  'This sign-in was not started in this browser, or took longer than ten minutes: sign in again from the start.';

/**
 * People signing in through their organization's SAML provider, at the
 * service endpoints the API lists for it (`service.startURL`, `acsURL`,
 * `entityID`): the start sends them to the provider with a request whose id
 * waits, sealed, in a cookie of this provider's path; the provider posts its
 * signed answer back to the ACS, which must answer that request. Only
 * sign-ins started here are taken (no IdP-initiated ones), so no other site
 * can sign a visitor in as someone else.
 */
export const samlSignInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(cookie);
  // Browsers come here: errors are pages, as the app's are.
  app.setErrorHandler(readerErrorHandler);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_SAML_RESPONSE + 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const context = () => app.context;
  const https = app.context.config.publicUrl.startsWith('https:');
  // The provider posts its answer from its own site: the cookie must go with a cross-site post (SameSite=None needs https).
  const cookieOptions = (providerId: string) => ({
    path: `/sso/saml/${encodeURIComponent(providerId)}`,
    httpOnly: true,
    secure: https,
    // Over http (a service on one's own machine) no SameSite at all: browsers then send it with a top-level post for a while.
    sameSite: https ? ('none' as const) : false,
  });

  // Where a person whose organization signs in with SAML goes from the sign-in page: their address's domain names it.
  app.get(
    '/app/sign-in/sso',
    {
      schema: {
        ...hidden,
        querystring: Type.Object({
          email: Type.String({ maxLength: MAX_EMAIL_LENGTH }),
          next: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request, reply) => {
      const next = appPathOrHome(context(), request.query.next);
      const domain = /^[^\s@]+@([^\s@]+)$/.exec(request.query.email.trim().toLowerCase())?.[1];
      if (!domain) return refused(request, reply, 400, 'Give your whole e-mail address, such as ada@example.com.');
      const providers = await activeSamlProvidersForDomain(context().db, domain);
      if (providers.length === 0) {
        return refused(
          request,
          reply,
          404,
          `No organization here signs in people at ${domain} through SAML: sign in with your password, or ask your organization's admin.`,
        );
      }
      if (providers.length === 1) return reply.redirect(startUrl(context(), providers[0]!.id, next), 302);
      return send(reply, providerChoicePage(context(), themeOf(request), domain, providers, next));
    },
  );

  app.get('/sso/saml/:samlProviderId', { schema: { ...hidden, params: Params } }, async (request, reply) => {
    const provider = await findSamlProviderById(context().db, request.params.samlProviderId);
    if (!provider) return refused(request, reply, 404, 'There is no such SAML provider.');
    return reply
      .type('application/samlmetadata+xml; charset=utf-8')
      .send(serviceMetadata(provider, context().config.publicUrl));
  });

  app.get(
    '/sso/saml/:samlProviderId/start',
    {
      schema: {
        ...hidden,
        params: Params,
        querystring: Type.Object({ next: Type.Optional(Type.String({ maxLength: 2048 })) }),
      },
    },
    async (request, reply) => {
      const provider = await activeProvider(request.params.samlProviderId);
      if (!provider) return refused(request, reply, 404, NO_SUCH_PROVIDER);
      const next = appPathOrHome(context(), request.query.next);
      const started = await startSamlSignIn(
        provider,
        context().config.publicUrl,
        context().keyring,
        next,
        app.clock.now(),
      );
      void reply.setCookie(PENDING_COOKIE, started.sealed, {
        ...cookieOptions(provider.id),
        maxAge: PENDING_SAML_SECONDS,
      });
      return reply.redirect(started.url, 302);
    },
  );

  app.post(
    '/sso/saml/:samlProviderId/acs',
    {
      schema: {
        ...hidden,
        params: Params,
        body: Type.Object(
          {
            SAMLResponse: Type.String({ minLength: 1, maxLength: MAX_SAML_RESPONSE }),
            RelayState: Type.Optional(Type.String({ maxLength: 2048 })),
          },
          { additionalProperties: true },
        ),
      },
    },
    async (request, reply) => {
      const { samlProviderId } = request.params;
      void reply.clearCookie(PENDING_COOKIE, cookieOptions(samlProviderId));
      const provider = await activeProvider(samlProviderId);
      if (!provider) return refused(request, reply, 404, NO_SUCH_PROVIDER);
      const pending = pendingSamlSignIn(
        context().keyring,
        request.cookies[PENDING_COOKIE],
        provider.id,
        app.clock.now(),
      );
      if (!pending) return refused(request, reply, 400, NOT_STARTED_HERE);
      let identity;
      try {
        identity = await finishSamlSignIn(
          context().workPools.saml,
          provider,
          context().config.publicUrl,
          pending,
          request.body.SAMLResponse,
        );
      } catch (error) {
        if (!(error instanceof SamlRefusal)) throw error;
        request.log.info({ samlProviderId, reason: error.message }, 'a SAML assertion was refused');
        return refused(
          request,
          reply,
          401,
          'Your organization’s identity provider did not sign you in here: its answer could not be verified.',
        );
      }
      const checked = await checkSamlSignIn(context(), provider, identity);
      if (!checked.ok) return refused(request, reply, checked.status, checked.message);
      await startPersonSession(context(), request, reply, checked.userId, 'saml', {
        organizationId: provider.organization_id,
      });
      return reply.redirect(appPathOrHome(context(), pending.next), 303);
    },
  );

  async function activeProvider(id: string): Promise<ActiveSamlProvider | undefined> {
    const provider = await findSamlProviderById(context().db, id);
    return provider && isActive(provider) ? (provider as ActiveSamlProvider) : undefined;
  }

  function refused(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
    return send(reply, signInPage(context(), undefined, message, themeOf(request)), status);
  }
};

const NO_SUCH_PROVIDER =
  'There is no such SAML provider, or it is not set up yet (an entity id, SSO URL and certificate).';
