import { availableParallelism } from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { isCronPattern } from './core/cron.js';
import type { LoadSheddingOptions } from './core/load-shedding.js';
import { parseTrustProxy, type TrustProxy } from './core/proxy.js';
import { parseReservedHostnames } from './core/hostname-rules.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Every environment variable the service reads, with its bounds and default. */
export const EnvSchema = Type.Object({
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DATABASE_PREPARED_STATEMENTS: Type.Boolean({ default: true }),
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 30_000 }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+(/[^\\s]*)?$' })),
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
  DATA_DIR: Type.String({ minLength: 1, default: './.data' }),
  BOOTSTRAP_ADMIN_TOKEN: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.~-]{20,200}$' })),
  BOOTSTRAP_ADMIN_EMAIL: Type.String({
    minLength: 3,
    maxLength: 254,
    pattern: '^[^\\s@]+@[^\\s@]+$',
    default: 'admin@example.com',
  }),
  BOOTSTRAP_ORG_TITLE: Type.String({ minLength: 2, maxLength: 255, default: 'My organization' }),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 600 }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, default: 60_000 }),
  RATE_LIMIT_REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://\\S+$' })),
  RATE_LIMIT_ORGANIZATION_MAX: Type.Integer({ minimum: 1, default: 3000 }),
  FILE_BATCH_MAX_BYTES: Type.Integer({ minimum: 1024 * 1024, maximum: 1024 * 1024 * 1024, default: 64 * 1024 * 1024 }),
  IMPORT_MAX_RUNNING_PER_ORGANIZATION: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  IMPORT_MAX_RUNNING: Type.Integer({ minimum: 1, maximum: 1024, default: 8 }),
  MACHINE_OUTPUT_CACHE_BYTES: Type.Integer({ minimum: 0, maximum: 4 * 1024 * 1024 * 1024, default: 64 * 1024 * 1024 }),
  BODY_LIMIT: Type.Integer({ minimum: 1024, default: 5 * 1024 * 1024 }),
  AUTH_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 5_000 }),
  SITE_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 2_000 }),
  ANSWER_STORE_BYTES: Type.Integer({ minimum: 0, maximum: 16 * 1024 * 1024 * 1024, default: 64 * 1024 * 1024 }),
  SECRET_KEY: Type.Optional(Type.String({ minLength: 32 })),
  TRUST_PROXY: Type.String({ maxLength: 4096, default: 'false' }),
  RESERVED_HOSTNAMES: Type.Optional(Type.String({ maxLength: 65_536 })),
  DNS_SERVERS: Type.Optional(Type.String({ pattern: '^[0-9A-Fa-f.:\\[\\]]+(,\\s*[0-9A-Fa-f.:\\[\\]]+)*$' })),
  HOSTNAME_CHECK_SCHEDULE: Type.String({ minLength: 1, maxLength: 100, default: '*/5 * * * *' }),
  HOSTNAME_CHECK_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 10_000, default: 100 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  SPACE_RETENTION_DAYS: Type.Number({ exclusiveMinimum: 0, maximum: 3650, default: 7 }),
  PURGE_SCHEDULE: Type.String({ minLength: 1, maxLength: 100, default: '0 * * * *' }),
  PURGE_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 10_000, default: 500 }),
  OUTBOUND_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  OUTBOUND_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 300_000, default: 10_000 }),
  OUTBOUND_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 1024 * 1024 * 1024, default: 10 * 1024 * 1024 }),
  FILE_URL_TTL_SECONDS: Type.Integer({ minimum: 10, maximum: 7 * 86_400, default: 3_600 }),
  IMPORT_MAX_PAGES: Type.Integer({ minimum: 1, maximum: 5_000, default: 200 }),
  IMPORT_MAX_BYTES: Type.Integer({ minimum: 64 * 1024, maximum: 1024 * 1024 * 1024, default: 50 * 1024 * 1024 }),
  IMPORT_TIMEOUT_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 60_000 }),
  CONVERSION_THREADS: Type.Integer({ minimum: 1, maximum: 64, default: Math.max(2, availableParallelism()) }),
  CONVERSION_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 2_000 }),
  CONVERSION_QUEUE_WAIT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 10_000 }),
  MAX_EVENT_LOOP_DELAY_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 1_000 }),
  SPEC_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 1024 * 1024 * 1024, default: 20 * 1024 * 1024 }),
  SPEC_MAX_FILES: Type.Integer({ minimum: 1, maximum: 1_000, default: 50 }),
  SPEC_MAX_REF_DEPTH: Type.Integer({ minimum: 0, maximum: 100, default: 10 }),
  SPEC_FETCH_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
  SPEC_PROCESS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 60_000 }),
  SPEC_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 1_000 }),
  SPEC_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 100, default: 5 }),
  ENCRYPTION_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/_-]{43}=?$' })),
  ENCRYPTION_KEY_PREVIOUS: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9+/_-]{43}=?$' })),
  INTEGRATION_MAX_IMAGE_BYTES: Type.Integer({ minimum: 1024, maximum: 10 * 1024 * 1024, default: 1024 * 1024 }),
  VISITOR_TOKEN_MAX_AGE_SECONDS: Type.Integer({ minimum: 60, maximum: 90 * 86_400, default: 7 * 86_400 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://\\S+$' })),
  MAIL_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 320 })),
});
type Env = Static<typeof EnvSchema>;

/**
 * Where invitation e-mail goes out: an SMTP server (smtp:// or smtps://, with
 * its user and password in the URL) and the sender. Without an SMTP server no
 * mail is sent, and an inviting admin gets the accept links to hand over.
 */
export interface MailConfig {
  smtpUrl: string | undefined;
  from: string;
}

/**
 * Custom hostnames: those no site may claim besides PUBLIC_URL's host
 * (`*.example.com` for every name under it), and the DNS servers that prove
 * claims (`ip` or `ip:port`; the system's resolvers when undefined).
 */
export interface HostnameConfig {
  reserved: string[];
  dnsServers: string[] | undefined;
}

export interface Config {
  databaseUrl: string | undefined;
  databasePoolSize: number;
  /** Run queries as named prepared statements; off behind poolers that cannot keep them. */
  databasePreparedStatements: boolean;
  /** How long PostgreSQL lets one statement of a request or a job run before cancelling it (a 503); 0: no limit. */
  databaseStatementTimeoutMs: number;
  port: number;
  host: string;
  /** Base of every absolute URL in responses, without a trailing slash. */
  publicUrl: string;
  logLevel: (typeof LOG_LEVELS)[number];
  dataDir: string;
  bootstrap: { adminToken: string | undefined; adminEmail: string; organizationTitle: string };
  /** With `redisUrl`, the counters are shared by every instance through Redis; without, each instance keeps its own. */
  /**
   * `max` requests per window for each user (all of a user's tokens share it;
   * callers without a token count per address), and `organizationMax` for each
   * organization on routes under `/orgs/{organizationId}`, whoever calls.
   */
  rateLimit: { max: number; windowMs: number; organizationMax?: number; redisUrl?: string };
  /** The most bytes of files one content write may bring (inline and fetched together). */
  fileBatchMaxBytes?: number;
  /** Imports running at once, per organization and on all instances together. */
  importSlots?: { perOrganization: number; total: number };
  /** Bytes of built llms.txt, llms-full.txt and sitemap.xml kept per instance. */
  machineOutputCacheBytes?: number;
  bodyLimit: number;
  authCacheTtlMs: number;
  /** How long an instance serves a site's published structure from memory; a change on another instance shows after it. */
  siteCacheTtlMs: number;
  /** The most bytes of answers an instance keeps to serve again while their rows are unchanged; 0 keeps none. */
  answerStoreBytes: number;
  /** Signs page cursors; when unset, a generated secret kept in the database is used. */
  secretKey: string | undefined;
  trustProxy: TrustProxy;
  hostnames: HostnameConfig;
  /** How often custom hostnames' DNS records are looked up again, and how many a run. */
  hostnameCheck: { pattern: string; batchSize: number };
  shutdownTimeoutMs: number;
  /** How long a deleted space can be restored before it is gone for good. */
  spaceRetentionMs: number;
  /** When deleted spaces past the retention are removed for good, and how many per transaction. */
  purge: { pattern: string; batchSize: number };
  /** Fetches the service makes itself (file URLs, imports, spec sources). */
  outbound: { allowPrivate: boolean; timeoutMs: number; maxBytes: number };
  /** How long a file's signed `downloadURL` stays valid. */
  fileUrlTtlSeconds: number;
  /** A website import's limits: pages fetched, bytes fetched (pages and images), and time spent crawling. */
  importLimits: { maxPages: number; maxBytes: number; timeoutMs: number };
  /**
   * The worker threads that parse and convert user-written content, how
   * long one conversion may take (plus CONVERSION_MS_PER_KIB for each KiB),
   * and how long it may wait for a thread before it is refused as busy.
   */
  conversion: { threads: number; timeoutMs: number; queueWaitMs: number };
  /** Past this mean event-loop delay, requests are refused with a 503 until it recovers; 0 never refuses. */
  loadShedding: { maxEventLoopDelayMs: number };
  /**
   * Processing of OpenAPI specs: the bytes and files one spec may fetch (its
   * entry file and the files its `$ref`s reach, how deep), the time for each
   * fetch and for the parse, how often an instance looks for work, and how
   * many times a failing job is tried.
   */
  specs: {
    maxBytes: number;
    maxFiles: number;
    maxRefDepth: number;
    fetchTimeoutMs: number;
    processTimeoutMs: number;
    pollIntervalMs: number;
    maxAttempts: number;
  };
  /**
   * The key that encrypts secrets at rest (32 bytes, base64), and the one it
   * replaced while a rotation re-encrypts; when unset, a key derived from the
   * service secret is used.
   */
  encryption: { key: string | undefined; previousKey: string | undefined };
  /** The largest icon or preview image an integration may publish, decoded. */
  integrations: { maxImageBytes: number };
  /** The longest a visitor token of a site may live: one whose `exp` is further away, or missing, is refused. */
  visitorTokenMaxAgeSeconds: number;
  mail: MailConfig;
}

/** Time a conversion is given for each KiB of its input, beyond CONVERSION_TIMEOUT_MS: about twice what prose needs. */
export const CONVERSION_MS_PER_KIB = 8;

export class ConfigError extends Error {}

/** Variables that hold secrets: a bad one is named, never shown. */
const SECRET_VARIABLES = new Set(['SECRET_KEY', 'BOOTSTRAP_ADMIN_TOKEN', 'ENCRYPTION_KEY', 'ENCRYPTION_KEY_PREVIOUS']);

/** A bad value as the error may show it: secrets by their length, URLs without their password. */
function shown(name: string, value: unknown): string {
  if (SECRET_VARIABLES.has(name)) return `a value of ${String(value).length} characters`;
  if (typeof value === 'string' && URL.canParse(value)) {
    const url = new URL(value);
    if (url.password) {
      url.password = '***';
      return JSON.stringify(url.href);
    }
  }
  return JSON.stringify(value);
}

/** Reads and validates the configuration; throws a ConfigError that names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(EnvSchema, Value.Default(EnvSchema, raw));
  const problems = [...Value.Errors(EnvSchema, converted)].map(
    (error) =>
      `${error.path.slice(1) || 'environment'} ${error.message} (got ${shown(error.path.slice(1), raw[error.path.slice(1)])})`,
  );
  if (!isCronPattern(String((converted as Env).PURGE_SCHEDULE))) {
    problems.push(`PURGE_SCHEDULE is not a cron pattern (got ${JSON.stringify(raw.PURGE_SCHEDULE)})`);
  }
  if (!isCronPattern(String((converted as Env).HOSTNAME_CHECK_SCHEDULE))) {
    problems.push(`HOSTNAME_CHECK_SCHEDULE is not a cron pattern (got ${JSON.stringify(raw.HOSTNAME_CHECK_SCHEDULE)})`);
  }
  const trustProxy = parseTrustProxy(String((converted as Env).TRUST_PROXY));
  if (typeof trustProxy === 'string') problems.push(trustProxy);
  const reserved = parseReservedHostnames((converted as Env).RESERVED_HOSTNAMES);
  if (typeof reserved === 'string') problems.push(reserved);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const e = converted as Env;
  return {
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/(?<!\/)\/+$/, ''),
    logLevel: e.LOG_LEVEL,
    dataDir: e.DATA_DIR,
    bootstrap: {
      adminToken: e.BOOTSTRAP_ADMIN_TOKEN,
      adminEmail: e.BOOTSTRAP_ADMIN_EMAIL.toLowerCase(),
      organizationTitle: e.BOOTSTRAP_ORG_TITLE,
    },
    rateLimit: {
      max: e.RATE_LIMIT_MAX,
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      organizationMax: e.RATE_LIMIT_ORGANIZATION_MAX,
      ...(e.RATE_LIMIT_REDIS_URL ? { redisUrl: e.RATE_LIMIT_REDIS_URL } : {}),
    },
    bodyLimit: e.BODY_LIMIT,
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    siteCacheTtlMs: e.SITE_CACHE_TTL_MS,
    answerStoreBytes: e.ANSWER_STORE_BYTES,
    secretKey: e.SECRET_KEY,
    trustProxy: trustProxy as TrustProxy,
    hostnames: {
      reserved: reserved as string[],
      dnsServers: e.DNS_SERVERS?.split(',').map((server) => server.trim()),
    },
    hostnameCheck: { pattern: e.HOSTNAME_CHECK_SCHEDULE, batchSize: e.HOSTNAME_CHECK_BATCH_SIZE },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    spaceRetentionMs: Math.round(e.SPACE_RETENTION_DAYS * 86_400_000),
    purge: { pattern: e.PURGE_SCHEDULE, batchSize: e.PURGE_BATCH_SIZE },
    outbound: {
      allowPrivate: e.OUTBOUND_ALLOW_PRIVATE,
      timeoutMs: e.OUTBOUND_TIMEOUT_MS,
      maxBytes: e.OUTBOUND_MAX_BYTES,
    },
    fileUrlTtlSeconds: e.FILE_URL_TTL_SECONDS,
    importLimits: { maxPages: e.IMPORT_MAX_PAGES, maxBytes: e.IMPORT_MAX_BYTES, timeoutMs: e.IMPORT_TIMEOUT_MS },
    conversion: {
      threads: e.CONVERSION_THREADS,
      timeoutMs: e.CONVERSION_TIMEOUT_MS,
      queueWaitMs: e.CONVERSION_QUEUE_WAIT_MS,
    },
    loadShedding: { maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS },
    specs: {
      maxBytes: e.SPEC_MAX_BYTES,
      maxFiles: e.SPEC_MAX_FILES,
      maxRefDepth: e.SPEC_MAX_REF_DEPTH,
      fetchTimeoutMs: e.SPEC_FETCH_TIMEOUT_MS,
      processTimeoutMs: e.SPEC_PROCESS_TIMEOUT_MS,
      pollIntervalMs: e.SPEC_POLL_INTERVAL_MS,
      maxAttempts: e.SPEC_MAX_ATTEMPTS,
    },
    encryption: { key: e.ENCRYPTION_KEY, previousKey: e.ENCRYPTION_KEY_PREVIOUS },
    integrations: { maxImageBytes: e.INTEGRATION_MAX_IMAGE_BYTES },
    visitorTokenMaxAgeSeconds: e.VISITOR_TOKEN_MAX_AGE_SECONDS,
    fileBatchMaxBytes: e.FILE_BATCH_MAX_BYTES,
    importSlots: { perOrganization: e.IMPORT_MAX_RUNNING_PER_ORGANIZATION, total: e.IMPORT_MAX_RUNNING },
    machineOutputCacheBytes: e.MACHINE_OUTPUT_CACHE_BYTES,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? defaultSender(e.PUBLIC_URL ?? 'http://localhost') },
  };
}

/** Quire at the public host, when MAIL_FROM names no sender. */
function defaultSender(publicUrl: string): string {
  return `Quire <no-reply@${new URL(publicUrl).hostname}>`;
}

/** Whether the service runs in production: NODE_ENV=production, which the container image sets. */
export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'production';
}

/**
 * What is wrong with the keys of secrets at rest, for the operator: without
 * SECRET_KEY and ENCRYPTION_KEY every key derives from a secret kept in the
 * database, so whoever has a dump of it opens integration secrets, share and
 * visitor keys, and forges visitor-claim tokens, cursors and download links.
 * Undefined when both are set. Production refuses to start without them.
 */
export function missingKeysProblem(config: Pick<Config, 'secretKey' | 'encryption'>): string | undefined {
  const missing = [
    ...(config.secretKey ? [] : ['SECRET_KEY (generate one with `openssl rand -base64 48`)']),
    ...(config.encryption.key ? [] : ['ENCRYPTION_KEY (generate one with `openssl rand -base64 32`)']),
  ];
  if (missing.length === 0) return undefined;
  return (
    `Set ${missing.join(' and ')}. Without ${missing.length > 1 ? 'them' : 'it'}, the keys that seal secrets at rest ` +
    'and sign links derive from a secret kept in the database, so a copy of the database opens integration secrets ' +
    'and share and visitor keys. Keep the keys apart from the database and its backups; after setting ENCRYPTION_KEY ' +
    'on a database that already holds secrets, run `npm run cli -- secrets rotate`.'
  );
}

/** What buildApp needs of the configuration; the rest belongs to the process that starts it. */
export type AppConfig = Pick<
  Config,
  | 'publicUrl'
  | 'logLevel'
  | 'rateLimit'
  | 'bodyLimit'
  | 'authCacheTtlMs'
  | 'siteCacheTtlMs'
  | 'answerStoreBytes'
  | 'secretKey'
  | 'trustProxy'
  | 'databasePoolSize'
  | 'databasePreparedStatements'
  | 'spaceRetentionMs'
  | 'outbound'
  | 'fileUrlTtlSeconds'
  | 'importLimits'
  | 'conversion'
  | 'specs'
  | 'encryption'
  | 'integrations'
  | 'visitorTokenMaxAgeSeconds'
  | 'fileBatchMaxBytes'
  | 'importSlots'
  | 'machineOutputCacheBytes'
> & {
  databaseUrl: string;
  databaseStatementTimeoutMs?: number;
  loadShedding?: LoadSheddingOptions;
  /** Without it, or without its smtpUrl, no mail is sent. */
  mail?: MailConfig;
  /** Without it, only PUBLIC_URL's host is reserved and claims are proven through the system's resolvers. */
  hostnames?: HostnameConfig;
};
