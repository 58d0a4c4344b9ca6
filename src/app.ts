import rateLimit from '@fastify/rate-limit';
import { organizationRateLimit } from './access/organization-rate-limit.js';
import { rateLimitStore } from './core/rate-limit-store.js';
import { sharedCountersStore } from './core/processes/rate-limit-counters.js';
import type { WorkerChannel } from './core/processes/worker-channel.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { authPlugin, requireScopeOnEveryRoute } from './access/auth.js';
import { httpCachePlugin } from './core/http-cache.js';
import { systemClock, type Clock } from './core/clock.js';
import { ApiError, errorBody, errorHandlingPlugin, toApiError } from './core/errors.js';
import { inputPlugin } from './core/input.js';
import { securityHeadersPlugin } from './core/security-headers.js';
import { loadSheddingPlugin } from './core/load-shedding.js';
import { AccessLog, loggerOptions } from './core/logging.js';
import { Cursors } from './core/pagination.js';
import { DeferredCompilations } from './core/deferred-compilation.js';
import { listSerializerFactory } from './core/list-serializer.js';
import { sharedSchemas } from './core/schemas.js';
import { auditRoutes } from './audit/routes.js';
import { requestOriginPlugin } from './audit/origin.js';
import { AuditEventActionSchema, AuditEventDetailsSchema, AuditEventSchema } from './audit/schemas.js';
import { loadServiceSecret } from './core/secret.js';
import { Keyring } from './core/keyring.js';
import { createMailer } from './core/mailer.js';
import { createUrls, type Urls } from './core/urls.js';
import { createValidatorCompiler } from './core/validation.js';
import { ListeningClockFeed, localWrite } from './db/clock-feed.js';
import { createDatabase, type Db } from './db/database.js';
import { createLagTolerantReads, type LagTolerantReads } from './db/replica.js';
import { readRoutingPlugin } from './db/read-routing.js';
import { operationsRoutes } from './ops/routes.js';
import { siteReaderRoutes } from './sites/reader/routes.js';
import { appReaderRoutes } from './app-reader/routes.js';
import { API_DESCRIPTION, API_TAGS, BEARER_SCHEME } from './ops/document.js';
import { subdomainRoutes } from './orgs/subdomains/routes.js';
import { organizationRoutes } from './orgs/routes.js';
import { OrganizationSchema } from './orgs/schemas.js';
import { userRoutes } from './users/routes.js';
import { tokenRoutes } from './users/token-routes.js';
import { profileRoutes } from './users/profile-routes.js';
import { apiInformationRoutes } from './ops/api-information.js';
import { specRawContentRoutes } from './specs/raw-content-routes.js';
import { collectionRoutes } from './collections/routes.js';
import { CollectionSchema } from './collections/schemas.js';
import { memberRoutes } from './members/routes.js';
import { spaceRoutes } from './spaces/routes.js';
import { permissionRoutes } from './permissions/routes.js';
import { inviteRoutes } from './invites/routes.js';
import { acceptInvitationRoutes, invitationRoutes } from './invitations/routes.js';
import { EmailInvitationSchema } from './invitations/schemas.js';
import { InviteLinkSchema } from './invites/schemas.js';
import { ssoRoutes } from './sso/routes.js';
import { samlSignInRoutes } from './sso/sign-in-routes.js';
import { SamlProviderSchema } from './sso/schemas.js';
import { teamRoutes } from './teams/routes.js';
import { SpaceSchema } from './spaces/space-schemas.js';
import { changeRequestRoutes } from './change-requests/routes.js';
import { semanticChangesRoutes } from './change-requests/semantic-changes/routes.js';
import { revisionDiffPool } from './change-requests/semantic-changes/pool.js';
import { reviewerRoutes } from './reviewers/routes.js';
import { reviewRoutes } from './reviews/routes.js';
import { readReviewFacts } from './reviews/actions.js';
import { ChangeRequestReviewSchema } from './reviews/schemas.js';
import { commentRoutes } from './comments/routes.js';
import { CommentReplySchema, CommentSchema } from './comments/schemas.js';
import { contentRoutes } from './content/routes.js';
import { linkRoutes } from './links/routes.js';
import { siteRoutes } from './sites/routes.js';
import { searchRoutes } from './search/routes.js';
import { specRoutes } from './specs/routes.js';
import { gitSyncRoutes } from './git-sync/routes.js';
import { importRunRoutes } from './imports/routes.js';
import { importArchivePool } from './imports/archive-pool.js';
import { exportDownloadRoutes, exportRoutes } from './exports/routes.js';
import { exportPool } from './exports/pool.js';
import { gitRemoteRoutes } from './git-sync/remote-server/routes.js';
import { exportOnMerge } from './git-sync/export-on-merge.js';
import { eventsOnMerge } from './integrations/events/emit.js';
import { gitSyncInstallationRoutes } from './git-sync/installations/routes.js';
import { gitSyncWebhookRoutes } from './git-sync/installations/webhook-routes.js';
import { integrationRoutes } from './integrations/routes.js';
import { integrationAssetRoutes } from './integrations/asset-routes.js';
import { translationRoutes } from './translations/routes.js';
import { TranslationSettingsSchema } from './translations/schemas.js';
import { siteSchemas } from './sites/schemas.js';
import { SiteCustomizationSettingsSchema } from './sites/customization/schemas.js';
import { fileDownloadRoutes } from './content/files/routes.js';
import { storageRoutes } from './content/files/storage/routes.js';
import { customFontRoutes, fontFileRoutes } from './fonts/routes.js';
import { templateRoutes } from './templates/routes.js';
import { spaceTemplateFiller } from './templates/actions.js';
import { FileUrlSigner } from './content/files/signing.js';
import { ContentStore } from './content/store.js';
import { CurrentRevisions } from './content/current-revisions.js';
import { createOutboundFetcher, type OutboundFetcher } from './core/outbound.js';
import { Conversions } from './conversions/pool.js';
import { WorkPool, type WorkPoolOptions } from './core/work-pool.js';
import { ownThreads, type ThreadSource } from './core/thread-source.js';
import { htmlReaderPool } from './change-requests/import/reader.js';
import { imageDecoderPool } from './integrations/image-pool.js';
import { specParserPool } from './specs/parser.js';
import { samlAssertionPool } from './sso/saml-client.js';
import { GitThreads } from './git-sync/git/threads.js';
import { CONVERSION_MS_PER_KIB, type AppConfig } from './config.js';
import { MemberSchema, TeamSchema } from './members/member-schemas.js';
import { ChangeRequestSchema } from './content/change-request-schemas.js';
import { type Context } from './context.js';
import { ScopedCache } from './core/scoped-cache.js';
import { findSpecOutlines } from './specs/outline-queries.js';
import { routedUrl, SiteHostnames } from './reader/hostnames.js';
import { requestHost, trustFunction } from './core/proxy.js';
import { customHostnameRoutes } from './custom-hostnames/routes.js';
import { urlRoutes } from './urls/routes.js';
import { ReservedHostnames } from './core/hostname-rules.js';
import { siteHostnames } from './sites/queries.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    clock: Clock;
    urls: Urls;
    cursors: Cursors;
    /** SECRET_KEY or the generated secret; keys for signing are derived from it. */
    serviceSecret: string;
    /** Revisions' content, read through caches of what never changes. */
    content: ContentStore;
    /** The one way the service fetches URLs it is given. */
    outbound: OutboundFetcher;
    fileUrls: FileUrlSigner;
    /** Parsing and conversion of user-written content, off the event loop and within a deadline. */
    conversions: Conversions;
    /** All of the above, for actions: they take this, never the Fastify instance. */
    context: Context;
    /** Every route as registered, in order: what the route index (src/ROUTES.md) is generated from. */
    routeTable: RouteEntry[];
    /** Request validators and response serialisers compiled on first use; a server compiles the rest once it listens. */
    deferredCompilations: DeferredCompilations;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  operationId: string | undefined;
  scope: string | undefined;
  /** Left out of the published OpenAPI document (probes, the document itself, the docs UI). */
  hidden: boolean;
}

export type { AppConfig };

export interface AppDependencies {
  clock?: Clock;
  /** A logger shared with the process that starts the app; otherwise one is made from the config. */
  logger?: FastifyBaseLogger;
  /** Where the app's pools get their threads; otherwise each starts its own and stops them when the app closes. */
  threadSource?: ThreadSource;
  /** The channel to the other processes on the same port (PROCESSES > 1): rate-limit counters, writes, forgotten tokens. */
  siblings?: WorkerChannel;
}

/**
 * Builds the complete API on its own database pool. Nothing is global but
 * what is compiled from route schemas (core/compiled-once.ts), so tests can build many.
 */
export async function buildApp(config: AppConfig, deps: AppDependencies = {}): Promise<FastifyInstance> {
  const deferred = new DeferredCompilations();
  const siblings = deps.siblings;
  // A sibling's write shows here as this process's own do.
  siblings?.hear((news) => news.kind === 'wrote' && localWrite());
  // Routing cannot wait for the database: the hostnames are read into memory once the pool exists.
  let hostnameDb: Db | undefined;
  // The service's own host and the reserved ones never route to a site, even
  // if a row says so (a claim proven before PUBLIC_URL or the list changed).
  const reserved = new ReservedHostnames(config.publicUrl, config.hostnames?.reserved ?? []);
  const hostnames = new SiteHostnames(async () => {
    if (!hostnameDb) return new Map<string, string>();
    const live = await siteHostnames(hostnameDb);
    for (const hostname of live.keys()) if (reserved.reason(hostname) !== undefined) live.delete(hostname);
    return live;
  });
  const trustedProxy = trustFunction(config.trustProxy);
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config.logLevel) }),
    logController: new AccessLog(),
    bodyLimit: config.bodyLimit,
    // One trust function for the client's address and host, here and in rewriteUrl.
    trustProxy: config.trustProxy === false ? false : trustedProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // A request that reaches a route while closing is served (close waits for
    // it) rather than answered with Fastify's own 503 body.
    return503OnClosing: false,
    // A request to a site's proven custom hostname reads that site, and only
    // its pages; the host is read as request.host reads it.
    rewriteUrl: (request) => routedUrl(request.url ?? '/', hostnames.siteAt(requestHost(request, trustedProxy))),
    // The serializer tells the branches of a response union apart with its own
    // Ajv. What it serializes is ours, not input: checking formats (uri,
    // date-time on every item of a large structure) there would only cost time.
    serializerOpts: { ajv: { validateFormats: false } },
    schemaController: { compilersFactory: { buildSerializer: listSerializerFactory(deferred) } },
    // Errors Fastify meets before routing (an undecodable URL, a bad content type) get the same body.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const apiError = toApiError(error);
      // No onSend hook runs for these replies.
      request.server.addSecurityHeaders(reply);
      void reply.code(apiError.statusCode).send(errorBody(apiError));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.decorate('deferredCompilations', deferred);
  app.addHook('onRoute', (route) => {
    const schema = route.schema;
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD route for every GET; the table lists what was written.
      if (method === 'HEAD') continue;
      routeTable.push({
        method,
        url: route.url,
        operationId: schema?.operationId,
        scope: route.config?.scope,
        hidden: schema?.hide === true,
      });
    }
  });

  const schemas = [
    ...sharedSchemas,
    OrganizationSchema,
    CollectionSchema,
    SpaceSchema,
    MemberSchema,
    TeamSchema,
    SamlProviderSchema,
    InviteLinkSchema,
    EmailInvitationSchema,
    ChangeRequestSchema,
    CommentSchema,
    CommentReplySchema,
    ChangeRequestReviewSchema,
    ...siteSchemas,
    SiteCustomizationSettingsSchema,
    TranslationSettingsSchema,
    AuditEventSchema,
    AuditEventDetailsSchema,
    AuditEventActionSchema,
  ];
  for (const schema of schemas) app.addSchema(schema);
  app.setValidatorCompiler(createValidatorCompiler(schemas, deferred));

  // The API speaks JSON only; any other body is a 415.
  app.removeContentTypeParser(['text/plain']);

  // Once closing, every response ends its keep-alive connection, so that a
  // request still in flight at shutdown does not keep the server open after it
  // is answered; the client opens its next connection to another instance.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks on every request take a callback, not a promise: a small read has a dozen of them.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  await app.register(errorHandlingPlugin);
  await app.register(loadSheddingPlugin, config.loadShedding ?? {});
  await app.register(inputPlugin);

  // Made before the context: the replica's read-your-writes keeps callers' write positions in the same Redis.
  const sharedCounters = config.rateLimit.redisUrl
    ? rateLimitStore(config.rateLimit.redisUrl, (error) =>
        app.log.warn({ err: error }, 'Redis of the rate-limit counters unreachable: requests go on uncounted'),
      )
    : undefined;
  if (sharedCounters) app.addHook('onClose', async () => sharedCounters.disconnect());
  let lagTolerantReads: LagTolerantReads | undefined;
  let clocks: ListeningClockFeed | undefined;

  await app.register(
    fp(
      async (instance) => {
        const db = createDatabase({
          url: config.databaseUrl,
          poolSize: config.databasePoolSize,
          preparedStatements: config.databasePreparedStatements,
          statementTimeoutMs: config.databaseStatementTimeoutMs,
          logger: instance.log,
          // What this process wrote shows in its next reads at once, before the notification comes back;
          // and in its siblings' on the same port, told before the write's answer leaves.
          afterWrite: siblings ? () => (localWrite(), siblings.tell({ kind: 'wrote' })) : localWrite,
        });
        if (config.clockNotifications) {
          clocks = new ListeningClockFeed({
            listenUrl: config.databaseListenUrl ?? config.databaseUrl,
            db,
            logger: instance.log,
          });
          const feed = clocks;
          instance.addHook('onReady', async () => feed.start());
        }
        lagTolerantReads = config.databaseReplicaUrl
          ? createLagTolerantReads({
              primary: db,
              replicaUrl: config.databaseReplicaUrl,
              poolSize: config.databasePoolSize,
              preparedStatements: config.databasePreparedStatements,
              statementTimeoutMs: config.databaseStatementTimeoutMs,
              maxLagMs: config.databaseReplicaMaxLagMs,
              redis: sharedCounters,
              logger: instance.log,
            })
          : undefined;
        instance.decorate('config', config);
        instance.decorate('clock', deps.clock ?? systemClock);
        instance.decorate('urls', createUrls(config.publicUrl));
        const secret = await loadServiceSecret(db, config.secretKey);
        instance.decorate('serviceSecret', secret);
        instance.decorate('cursors', new Cursors(secret));
        instance.decorate('outbound', createOutboundFetcher(config.outbound));
        instance.decorate('fileUrls', new FileUrlSigner(secret, instance.urls, config.fileUrlTtlSeconds));
        const threadSource = deps.threadSource ?? ownThreads;
        const workPool = (options: WorkPoolOptions) => new WorkPool({ ...options, threadSource });
        const conversions = new Conversions({
          threadSource,
          threads: config.conversion.threads,
          timeoutMs: config.conversion.timeoutMs,
          queueWaitMs: config.conversion.queueWaitMs,
          msPerKib: CONVERSION_MS_PER_KIB,
          // Enough to absorb a burst; past it a new conversion is a 503 rather than a long wait.
          maxQueue: config.conversion.threads * 32,
          onThreadError: (error) => instance.log.error({ err: error }, 'A conversion thread failed'),
        });
        instance.decorate('conversions', conversions);
        const workPools = {
          html: workPool(
            htmlReaderPool(config.conversion, (error) => instance.log.error({ err: error }, 'An import thread failed')),
          ),
          images: workPool(
            imageDecoderPool(config.conversion, (error) =>
              instance.log.error({ err: error }, 'An image decoding thread failed'),
            ),
          ),
          specs: workPool(
            specParserPool(config.specs, (error) => instance.log.error({ err: error }, 'A spec parser thread failed')),
          ),
          saml: workPool(
            samlAssertionPool(config.conversion, (error) =>
              instance.log.error({ err: error }, 'A SAML assertion thread failed'),
            ),
          ),
        };
        const importArchives = workPool(
          importArchivePool(config.conversion, (error) =>
            instance.log.error({ err: error }, 'An import archive thread failed'),
          ),
        );
        const exportWorks = workPool(
          exportPool(config.conversion, (error) => instance.log.error({ err: error }, 'An export thread failed')),
        );
        const revisionDiffs = workPool(
          revisionDiffPool(config.conversion, (error) =>
            instance.log.error({ err: error }, 'A revision diff thread failed'),
          ),
        );
        const git = new GitThreads({
          ...config.gitSync,
          threadSource,
          outbound: config.outbound,
          onThreadError: (error) => instance.log.error({ err: error }, 'A Git thread failed'),
        });
        instance.decorate('content', new ContentStore(db, instance.urls, conversions, config.contentCacheBytes));
        const mailer = createMailer(config.mail, instance.log);
        instance.decorate('context', {
          db,
          clock: instance.clock,
          urls: instance.urls,
          config,
          cursors: instance.cursors,
          serviceSecret: secret,
          keyring: Keyring.fromConfig(config.encryption, secret),
          content: instance.content,
          currentRevisions: new CurrentRevisions(db, clocks),
          conversions,
          workPools,
          outbound: instance.outbound,
          fileUrls: instance.fileUrls,
          specOutlines: (organizationId, slugs) => findSpecOutlines(db, organizationId, slugs),
          // 64 MiB: some hundred large sites' structures, each as a few of its viewers see it.
          siteStructures: new ScopedCache(config.siteCacheTtlMs, 64 * 1024 * 1024, () =>
            instance.clock.now().getTime(),
          ),
          siteHostnames: hostnames,
          git,
          importArchives,
          exportWorks,
          revisionDiffs,
          log: instance.log,
          mailer,
        });
        // Each merge into a space linked to a Git branch becomes one commit on it.
        // Each merge is also an event for the space's integrations and webhooks.
        instance.context.mergeHooks = [exportOnMerge(instance.context), eventsOnMerge(instance.context)];
        instance.context.spaceTemplates = spaceTemplateFiller(instance.context);
        // Merges and change requests read the merge rules' review facts from the reviews domain above.
        instance.context.reviewFacts = readReviewFacts;
        hostnameDb = db;
        instance.addHook('onReady', async () => {
          await hostnames.start((error) =>
            instance.log.warn(
              { cause: (error as Error).message },
              'reading the sites’ hostnames failed; keeping the last ones',
            ),
          );
        });
        instance.addHook('onClose', async () => {
          hostnames.stop();
          await mailer?.close();
          await Promise.all(
            [conversions, git, importArchives, exportWorks, revisionDiffs, ...Object.values(workPools)].map((pool) =>
              pool.close(),
            ),
          );
          await lagTolerantReads?.close();
          await clocks?.close();
          await db.destroy();
        });
      },
      { name: 'context' },
    ),
  );

  await app.register(rateLimit, {
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    enableDraftSpec: true,
    ...(sharedCounters
      ? {
          redis: sharedCounters,
          nameSpace: 'quire-rate-limit:',
          // Redis unreachable: requests go on uncounted rather than fail; the log says so.
          skipOnError: true,
        }
      : siblings
        ? // Several processes on one port: counted here, and added up across them by the primary.
          { store: sharedCountersStore(siblings.counters) }
        : {}),
    // Counted after authentication, per user: tokens are free to make, so all of a
    // user's tokens share one budget. Routes without a token count per address.
    // Made-up tokens are refused before this and bounded by the auth plugin's failure limit.
    hook: 'preHandler',
    keyGenerator: (request) => {
      const caller = request.caller;
      return caller ? `user:${caller.userId}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        429,
        `Rate limit exceeded: ${context.max} requests per ${context.after}; retry after the time in Retry-After`,
      ),
  });
  // Users are free to make too: an organization's routes also share a second,
  // larger budget, so that many users of one organization cannot flood.
  app.addHook('onRoute', organizationRateLimit(app, config.rateLimit));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version: '1.0.0',
        description: API_DESCRIPTION,
        // Whoever runs this instance, at its address.
        contact: { name: 'Quire', url: config.publicUrl },
      },
      servers: [{ url: config.publicUrl }],
      tags: API_TAGS,
      components: { securitySchemes: { bearer: BEARER_SCHEME } },
      security: [{ bearer: [] }],
    },
    refResolver: {
      buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  const embeddablePrefixes = ['/files/', '/integration-assets/', '/fonts/'];
  await app.register(securityHeadersPlugin, { publicUrl: config.publicUrl, docsPrefix: '/docs', embeddablePrefixes });
  // No validator badge: it would send the document's address to validator.swagger.io.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
  });

  await app.register(authPlugin, {
    db: app.context.db,
    clock: app.clock,
    cacheTtlMs: config.authCacheTtlMs,
    failures: { max: config.rateLimit.max, windowMs: config.rateLimit.windowMs },
    siblings,
  });
  // The caller, token and address of each request, for the audit log the actions write.
  await app.register(requestOriginPlugin);
  // Before the routes: lag-tolerant routes read the replica when they may; writes are remembered for read-your-writes.
  await app.register(readRoutingPlugin, { reads: lagTolerantReads, callerKey: (request) => request.caller?.userId });
  // Before the routes: it wraps the handlers of those that declare a version, and of writes (If-Match).
  await app.register(httpCachePlugin, { db: app.context.db, capacityBytes: config.answerStoreBytes, clocks });
  await app.register(operationsRoutes);
  await app.register(apiInformationRoutes);
  // The published reader: HTML for a site's audience, outside the API and its tokens.
  await app.register(siteReaderRoutes);
  // The app reader, where every urls.app leads: a member signs in with a password or a token and reads what it may read.
  await app.register(appReaderRoutes, { counters: siblings?.counters });
  // An organization's SAML provider signs its members in to the app, at the endpoints the API lists for it.
  await app.register(samlSignInRoutes);
  // Signed download URLs carry their own authorization.
  await app.register(fileDownloadRoutes);
  await app.register(integrationAssetRoutes);
  await app.register(fontFileRoutes);
  // A provider's push events, proven by the Git Sync installation's secret rather than a token.
  await app.register(gitSyncWebhookRoutes);
  await app.register(exportDownloadRoutes);
  // Every space as a Git remote over smart HTTP: Git's bodies, an API token as the password.
  await app.register(gitRemoteRoutes);
  await app.register(
    async (v1) => {
      v1.addHook('onRoute', requireScopeOnEveryRoute);
      v1.addHook('onRequest', v1.authenticate);
      await v1.register(userRoutes);
      await v1.register(profileRoutes);
      await v1.register(tokenRoutes);
      await v1.register(organizationRoutes);
      await v1.register(subdomainRoutes);
      await v1.register(collectionRoutes);
      await v1.register(spaceRoutes);
      await v1.register(permissionRoutes);
      await v1.register(memberRoutes);
      await v1.register(teamRoutes);
      await v1.register(ssoRoutes);
      await v1.register(inviteRoutes);
      await v1.register(customHostnameRoutes);
      await v1.register(urlRoutes);
      await v1.register(invitationRoutes);
      await v1.register(changeRequestRoutes);
      await v1.register(semanticChangesRoutes);
      await v1.register(reviewerRoutes);
      await v1.register(reviewRoutes);
      await v1.register(commentRoutes);
      await v1.register(contentRoutes);
      await v1.register(storageRoutes);
      await v1.register(customFontRoutes);
      await v1.register(templateRoutes);
      await v1.register(linkRoutes);
      await v1.register(siteRoutes);
      await v1.register(searchRoutes);
      await v1.register(translationRoutes);
      await v1.register(specRoutes);
      await v1.register(specRawContentRoutes);
      await v1.register(gitSyncRoutes);
      await v1.register(importRunRoutes);
      await v1.register(exportRoutes);
      await v1.register(gitSyncInstallationRoutes);
      await v1.register(integrationRoutes);
      await v1.register(auditRoutes);
    },
    { prefix: '/v1' },
  );
  // An invitation's accept link, which its invitee opens before they have a token.
  await app.register(
    async (v1) => {
      v1.addHook('onRoute', requireScopeOnEveryRoute);
      v1.addHook('onRequest', v1.authenticateIfPresent);
      await v1.register(acceptInvitationRoutes);
    },
    { prefix: '/v1' },
  );

  return app;
}
