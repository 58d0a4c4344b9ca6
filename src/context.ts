import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config.js';
import type { Clock } from './core/clock.js';
import type { OutboundFetcher } from './core/outbound.js';
import type { Keyring } from './core/keyring.js';
import type { Mailer } from './core/mailer.js';
import type { Cursors } from './core/pagination.js';
import type { ScopedCache } from './core/scoped-cache.js';
import type { Urls } from './core/urls.js';
import type { WorkPool } from './core/work-pool.js';
import type { Db } from './db/database.js';
import type { Conversions } from './conversions/pool.js';

/**
 * What actions, and the shared layers below them, may use of the running
 * service. Routes pass `app.context`; nothing below the routes takes the
 * Fastify instance, so an action can be called from a test, a script or a job.
 *
 * A service that belongs to a domain is declared by that domain, which adds
 * it to this interface (the content store in content/store.ts, signed file
 * URLs in content/files/signing.ts, spec outlines in content/computed.ts, site
 * hostnames in reader/hostnames.ts): this module stays below every domain.
 */
export interface Context {
  db: Db;
  clock: Clock;
  urls: Urls;
  config: AppConfig;
  cursors: Cursors;
  /** SECRET_KEY or the generated secret; keys for signing are derived from it. */
  serviceSecret: string;
  /** Seals and opens secrets at rest under ENCRYPTION_KEY (and the keys it replaced while they rotate). */
  keyring: Keyring;
  /** Parsing and conversion of user-written content, off the event loop and within a deadline. */
  conversions: Conversions;
  /**
   * The other worker pools, built once with the app and closed with it: each
   * runs its domain's tasks (imported pages' HTML, integrations' images, specs, SAML assertions)
   * off the event loop within a deadline, through that domain's wrapper.
   */
  workPools: { html: WorkPool; images: WorkPool; specs: WorkPool; saml: WorkPool };
  /** The one way the service fetches URLs it is given. */
  outbound: OutboundFetcher;
  /** Sites' structures as JSON, kept a moment (SITE_CACHE_TTL_MS); scoped by site id. */
  siteStructures: ScopedCache;
  log: FastifyBaseLogger;
  /** Sends mail through the operator's SMTP server; undefined when none is configured (SMTP_URL). */
  mailer: Mailer | undefined;
}

/**
 * The context for a read that may lag (a `lagTolerant` route): its database is
 * the one chosen for the request (the replica when the caller's writes are
 * there), everything else as `ctx`. Without a replica, `ctx` itself.
 */
export function lagTolerant<C extends Context>(ctx: C, request: { lagTolerantDb: Db | null }): C {
  const db = request.lagTolerantDb;
  return db && db !== ctx.db ? { ...ctx, db, [MADE_FROM]: appContext(ctx) } : ctx;
}

/** On a context lagTolerant made: the app's own, which it copied. */
const MADE_FROM = Symbol('the app context this one was made from');

function appContext(ctx: Context): Context {
  return (ctx as Context & { [MADE_FROM]?: Context })[MADE_FROM] ?? ctx;
}

/**
 * One `T` per app, made on first use from the app's own context: what a
 * module keeps for each app that runs it (a cache, say). A context lagTolerant
 * made for one request reaches its app's, not one of its own, and `make`
 * never sees the copy (whose database may be the replica).
 */
export function perContext<T>(make: (app: Context) => T): (ctx: Context) => T {
  const made = new WeakMap<Context, T>();
  return (ctx) => {
    const app = appContext(ctx);
    let value = made.get(app);
    if (value === undefined) {
      value = make(app);
      made.set(app, value);
    }
    return value;
  };
}
