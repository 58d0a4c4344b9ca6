import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** A share of this process's JavaScript heap limit in whole MiB, at most `most` bytes. */
function heapShare(share: number, most: number): number {
  return Math.min(most, Math.floor((getHeapStatistics().heap_size_limit * share) / MIB) * MIB);
}
const ENCRYPTION_KEY_PATTERN = '^[A-Za-z0-9+/_-]{43}=?$';

/**
 * Every setting of the service: the environment variable it is read from
 * (`env`), its type and bounds, its default and what it does. The
 * configuration's type is this schema's, less the few settings that
 * src/config.ts turns into what the service uses (PUBLIC_URL, TRUST_PROXY,
 * RESERVED_HOSTNAMES, DNS_SERVERS, SPACE_RETENTION_DAYS, MAIL_FROM); the
 * configuration reference (docs/configuration.md) is generated from it.
 * `secret` settings are named in errors, never shown; `cron` ones must be
 * cron patterns; `defaultText` says what a default computed here means.
 */
export const SettingsSchema = Type.Object({
  databaseUrl: Type.Optional(
    Type.String({
      env: 'DATABASE_URL',
      pattern: '^postgres(ql)?://',
      description:
        '`postgres://` or `postgresql://` URL of a PostgreSQL 15+ database. Unset: an embedded PostgreSQL is run in `DATA_DIR`.',
    }),
  ),
  databasePoolSize: Type.Integer({
    env: 'DATABASE_POOL_SIZE',
    minimum: 1,
    maximum: 200,
    default: 10,
    description: 'Database connections per instance.',
  }),
  databasePreparedStatements: Type.Boolean({
    env: 'DATABASE_PREPARED_STATEMENTS',
    default: true,
    description:
      'Run queries as named prepared statements, so PostgreSQL plans each query once per connection. Set `false` behind a pooler that cannot keep prepared statements (PgBouncer before 1.21, or with `max_prepared_statements = 0`).',
  }),
  databaseStatementTimeoutMs: Type.Integer({
    env: 'DATABASE_STATEMENT_TIMEOUT_MS',
    minimum: 0,
    maximum: 3_600_000,
    default: 30_000,
    description:
      'How long PostgreSQL lets one statement of a request or a background job run before cancelling it (`0`: no limit). A request whose statement is cancelled gets 503 and changes nothing; the connection stays in use. Migrations and the purge run without it. Sent as the `statement_timeout` startup parameter: behind PgBouncer, add `statement_timeout` to `ignore_startup_parameters` (and set the timeout on the database role instead), or set `0`.',
  }),
  databaseReplicaUrl: Type.Optional(
    Type.String({
      env: 'DATABASE_REPLICA_URL',
      pattern: '^postgres(ql)?://',
      description:
        "A streaming replica of `DATABASE_URL` (`postgres://` URL), for reads that may lag: lists of spaces and members, search, and published sites' pages (docs/cluster.md). Reads go there only while it lags less than `DATABASE_REPLICA_MAX_LAG_MS`, and a caller's only once it has replayed their last write, which `RATE_LIMIT_REDIS_URL` keeps for every instance (without it, callers read the primary). Unset: every read on `DATABASE_URL`.",
    }),
  ),
  databaseReplicaMaxLagMs: Type.Integer({
    env: 'DATABASE_REPLICA_MAX_LAG_MS',
    minimum: 0,
    maximum: 600_000,
    default: 1_000,
    description:
      'How far behind the primary the replica may be and still serve reads (what others wrote, such as a removed membership, shows within it); further behind, every read goes to the primary.',
  }),
  clockNotifications: Type.Boolean({
    env: 'CLOCK_NOTIFICATIONS',
    default: true,
    description:
      "Listen for the database's notifications of changed clocks, so that an answer kept by `ANSWER_STORE_BYTES` is served again without reading its version until something it shows changes. The instance checks that it hears its own notifications every 5 s and reads versions every time while it does not. A change made on another instance shows here once its notification arrives (milliseconds); one made here, at once. `false`: every kept answer reads its version.",
  }),
  databaseListenUrl: Type.Optional(
    Type.String({
      env: 'DATABASE_LISTEN_URL',
      pattern: '^postgres(ql)?://',
      description:
        'Where the instance listens for clock notifications (`CLOCK_NOTIFICATIONS`): PostgreSQL itself, since PgBouncer in transaction mode passes no `LISTEN`. Unset: `DATABASE_URL`.',
    }),
  ),
  port: Type.Integer({
    env: 'PORT',
    minimum: 0,
    maximum: 65535,
    default: 3000,
    description: 'TCP port to listen on.',
  }),
  host: Type.String({
    env: 'HOST',
    minLength: 1,
    default: '127.0.0.1',
    description: 'Address to listen on. The Docker image sets `0.0.0.0`.',
  }),
  processes: Type.Integer({
    env: 'PROCESSES',
    minimum: 1,
    maximum: 64,
    default: 1,
    description:
      "Processes that answer requests on the one port (node:cluster), so that the service uses more than one core: set it to the machine's cores, less what PostgreSQL needs if it runs there. A primary process starts the embedded PostgreSQL and the migrations, restarts a process that exits, and adds up the rate-limit counters across them (without `RATE_LIMIT_REDIS_URL`; a budget may then run over by what the others admitted in the last few tens of ms). The first process also runs the background work. Each has its own caches and `DATABASE_POOL_SIZE` connections.",
  }),
  precompileSchemas: Type.Boolean({
    env: 'PRECOMPILE_SCHEMAS',
    default: true,
    description:
      "Once listening, compile every route's request validators and response serialisers, between requests, so that no request waits for its route's first compilation (logged as `compiled every schema`; some 5 s of one core and 130 MiB here). `false`: each compiles on its route's first request, and an instance that serves a few of the routes keeps the memory.",
  }),
  publicUrl: Type.Optional(
    Type.String({
      env: 'PUBLIC_URL',
      pattern: '^https?://[^\\s/]+(/[^\\s]*)?$',
      defaultText: '`http://localhost:$PORT`',
      description:
        'Base of the absolute URLs in responses (`urls.location`, …), without a trailing slash. Set it to the address clients use.',
    }),
  ),
  logLevel: Type.Union(
    LOG_LEVELS.map((level) => Type.Literal(level)),
    { env: 'LOG_LEVEL', default: 'info', description: 'The least severe level of what is logged.' },
  ),
  dataDir: Type.String({
    env: 'DATA_DIR',
    minLength: 1,
    default: './.data',
    description: 'Where the embedded PostgreSQL keeps its data (`DATA_DIR/postgres`). Unused with `DATABASE_URL`.',
  }),
  bootstrap: Type.Object({
    adminToken: Type.Optional(
      Type.String({
        env: 'BOOTSTRAP_ADMIN_TOKEN',
        secret: true,
        pattern: '^[A-Za-z0-9_.~-]{20,200}$',
        description:
          'Token to give the admin created on the first start (20–200 characters of `A-Za-z0-9_.~-`). Unset: one is generated and logged once. Ignored once the database has users.',
      }),
    ),
    adminEmail: Type.String({
      env: 'BOOTSTRAP_ADMIN_EMAIL',
      minLength: 3,
      maxLength: 254,
      pattern: '^[^\\s@]+@[^\\s@]+$',
      default: 'admin@example.com',
      description: 'Email of the admin user created on the first start.',
    }),
    organizationTitle: Type.String({
      env: 'BOOTSTRAP_ORG_TITLE',
      minLength: 2,
      maxLength: 255,
      default: 'My organization',
      description: 'Title of the organization created on the first start.',
    }),
  }),
  rateLimit: Type.Object({
    max: Type.Integer({
      env: 'RATE_LIMIT_MAX',
      minimum: 1,
      default: 600,
      description:
        "Requests allowed per window, per user: all of a user's tokens share one budget (per client address for routes without a token); per instance, where the counters live in the process, or for all instances together with `RATE_LIMIT_REDIS_URL`. The same number bounds failed authentications (unknown, revoked or expired tokens) per client address and window, after which that address gets 429 until the window ends.",
    }),
    windowMs: Type.Integer({
      env: 'RATE_LIMIT_WINDOW_MS',
      minimum: 1000,
      default: 60_000,
      description: 'Length of the rate-limit window in ms.',
    }),
    redisUrl: Type.Optional(
      Type.String({
        env: 'RATE_LIMIT_REDIS_URL',
        pattern: '^rediss?://\\S+$',
        description:
          'A Redis (`redis://…` or `rediss://…`) where every instance keeps the rate-limit counters, so that the limit holds across instances. While Redis cannot be reached, requests go on uncounted (logged) rather than fail. Failed authentications stay counted per instance.',
      }),
    ),
    // Optional to buildApp, which then allows an organization five users' budgets.
    organizationMax: Type.Optional(
      Type.Integer({
        env: 'RATE_LIMIT_ORGANIZATION_MAX',
        minimum: 1,
        default: 3000,
        description:
          "Requests allowed per window to the routes of one organization (`/v1/orgs/{organizationId}/…`), from all its members together, on top of each user's own budget (a caller who is not a member spends only their own): users cost nothing to make, so many users of one organization cannot flood.",
      }),
    ),
  }),
  fileBatchMaxBytes: Type.Integer({
    env: 'FILE_BATCH_MAX_BYTES',
    minimum: MIB,
    maximum: GIB,
    default: 64 * MIB,
    description:
      'Bytes of files one content write may bring, inline and fetched from URLs together; a write over it is answered 413 and writes nothing. Files are fetched four at a time, and an instance runs at once one write that fetches files per user, two per organization and four in all; one more is answered 429 with `Retry-After`.',
  }),
  storageUploadMaxBytes: Type.Integer({
    env: 'STORAGE_UPLOAD_MAX_BYTES',
    minimum: MIB,
    maximum: 512 * MIB,
    default: 64 * MIB,
    description:
      "Bytes of one file uploaded to an organization's storage (the PUT to the URL that generateStorageUploadURL gives); a larger one is answered 413 and stores nothing. The bytes stream to the database a part at a time; the content write that then names the upload reads none of them back.",
  }),
  importSlots: Type.Object({
    perOrganization: Type.Integer({
      env: 'IMPORT_MAX_RUNNING_PER_ORGANIZATION',
      minimum: 1,
      maximum: 64,
      default: 2,
      description:
        'Imports one organization may have running at once, on all instances together; one more is answered 429 with `Retry-After` and imports nothing.',
    }),
    total: Type.Integer({
      env: 'IMPORT_MAX_RUNNING',
      minimum: 1,
      maximum: 1024,
      default: 8,
      description:
        'Imports running at once on all instances together, whatever their organization; one more is answered 429 with `Retry-After`.',
    }),
  }),
  machineOutputCacheBytes: Type.Integer({
    env: 'MACHINE_OUTPUT_CACHE_BYTES',
    minimum: 0,
    maximum: 4 * GIB,
    default: 64 * MIB,
    description:
      "Bytes of built `llms.txt`, `llms-full.txt` and `sitemap.xml` an instance keeps, each for one published state of its site (the site, its spaces' revisions and the visitor's audience), the least recently read dropped first; `0` builds each answer anew.",
  }),
  bodyLimit: Type.Integer({
    env: 'BODY_LIMIT',
    minimum: KIB,
    default: 5 * MIB,
    description: 'Largest request body accepted, in bytes; larger bodies get 413.',
  }),
  authCacheTtlMs: Type.Integer({
    env: 'AUTH_CACHE_TTL_MS',
    minimum: 0,
    maximum: 60_000,
    default: 5_000,
    description:
      'How long an instance caches a token lookup, in ms. A revoked token may keep working up to this long on an instance. `0` disables the cache.',
  }),
  siteCacheTtlMs: Type.Integer({
    env: 'SITE_CACHE_TTL_MS',
    minimum: 0,
    maximum: 60_000,
    default: 2_000,
    description:
      "How long an instance serves a site's structure (`…/structure`, `…/published`) from memory, in ms. A change to the site, or to a space's title, settings, trash state or organization, made through the same instance shows at once; one made through another instance (or a space's counters) within this time. `0` disables the cache.",
  }),
  answerStoreBytes: Type.Integer({
    env: 'ANSWER_STORE_BYTES',
    minimum: 0,
    maximum: 16 * GIB,
    // Outside the heap (its bytes are buffers), so beside the heap limit rather than in it: a tenth of it.
    default: heapShare(0.1, 64 * MIB),
    defaultText: '10 % of the JavaScript heap limit (`--max-old-space-size`), at most 64 MiB',
    description:
      'How many bytes of answers an instance keeps to serve again, byte for byte, while what they were made from is unchanged. `0` keeps none. Their bytes are kept outside the JavaScript heap, so an instance given a heap limit keeps less by default, to stay within the memory it was given.',
  }),
  contentCacheBytes: Type.Integer({
    env: 'CONTENT_CACHE_BYTES',
    minimum: 1 * MIB,
    maximum: 16 * GIB,
    default: heapShare(0.4, 256 * MIB),
    defaultText: '40 % of the JavaScript heap limit (`--max-old-space-size`), at most 256 MiB',
    description:
      "About how much memory an instance gives to the content it has read and made, to read it again without the database: revisions' page trees, pages' markdown and documents, and answers made from them. Revisions never change, so nothing kept is ever stale. An instance given a heap limit keeps less by default, so that its caches never fill its heap; more serves more spaces from memory.",
  }),
  secretKey: Type.Optional(
    Type.String({
      env: 'SECRET_KEY',
      secret: true,
      minLength: 32,
      description:
        'Key (`openssl rand -base64 48`) that signs pagination cursors, file download URLs and visitor claims. **Required in production** (`NODE_ENV=production`, as the Docker image sets): the service refuses to start without it. Unset elsewhere: a secret is generated on the first start and kept in the database (so a copy of the database can forge what it signs), with a warning at every start.',
    }),
  ),
  trustProxy: Type.String({
    env: 'TRUST_PROXY',
    maxLength: 4096,
    default: 'false',
    description:
      "Which proxies in front of the service are believed about the client's address, host and protocol (`X-Forwarded-For`, `-Host`, `-Proto`): `false` (none), a number of hops (`1`: the one proxy the service sits behind), or a comma-separated list of the proxies' addresses or CIDR networks (`10.0.0.0/8,127.0.0.1`). Only the entries those proxies appended count; what a client wrote before them is ignored. Behind a proxy, set it: otherwise every client shares the proxy's address, and so its rate and failed-authentication limits. `true` (every hop, so any client could name its own address and host) is refused at start.",
  }),
  hostnames: Type.Object({
    reserved: Type.Optional(
      Type.String({
        env: 'RESERVED_HOSTNAMES',
        maxLength: 65_536,
        description:
          "Hostnames no site may claim, comma-separated, besides PUBLIC_URL's own host (always reserved); `*.example.com` reserves every name under example.com.",
      }),
    ),
    dnsServers: Type.Optional(
      Type.String({
        env: 'DNS_SERVERS',
        pattern: '^[0-9A-Fa-f.:\\[\\]]+(,\\s*[0-9A-Fa-f.:\\[\\]]+)*$',
        description:
          "The DNS servers that custom hostnames' TXT records are looked up on (`ip` or `ip:port`, comma-separated); the system's resolvers when unset.",
      }),
    ),
  }),
  hostnameCheck: Type.Object({
    pattern: Type.String({
      env: 'HOSTNAME_CHECK_SCHEDULE',
      cron: true,
      minLength: 1,
      maxLength: 100,
      default: '*/5 * * * *',
      description:
        "When custom hostnames' records are looked up again (a cron pattern): pending ones go live once proven, live ones whose record is gone stop.",
    }),
    batchSize: Type.Integer({
      env: 'HOSTNAME_CHECK_BATCH_SIZE',
      minimum: 1,
      maximum: 10_000,
      default: 100,
      description: 'Custom hostnames looked up per run, those checked longest ago first; instances share the work.',
    }),
  }),
  shutdownTimeoutMs: Type.Integer({
    env: 'SHUTDOWN_TIMEOUT_MS',
    minimum: 0,
    default: 10_000,
    description: 'How long a shutdown waits for in-flight requests before the process exits anyway, in ms.',
  }),
  spaceRetentionDays: Type.Number({
    env: 'SPACE_RETENTION_DAYS',
    exclusiveMinimum: 0,
    maximum: 3650,
    default: 7,
    description:
      'How long a deleted space can be restored, in days. Past it the space is gone for every operation, and the purge removes it for good.',
  }),
  auditRetentionDays: Type.Integer({
    env: 'AUDIT_RETENTION_DAYS',
    minimum: 1,
    maximum: 36_500,
    default: 365,
    description:
      'How long the audit log keeps an event, in days. The purge removes older events on its schedule (PURGE_SCHEDULE); no one can remove one through the API.',
  }),
  insights: Type.Object({
    retentionDays: Type.Integer({
      env: 'INSIGHTS_RETENTION_DAYS',
      minimum: 1,
      maximum: 3650,
      default: 400,
      description:
        'How long a site’s insights keep an event (a page view, a search, a feedback), in days. The purge removes older events on its schedule (PURGE_SCHEDULE).',
    }),
    countryHeader: Type.Optional(
      Type.String({
        env: 'INSIGHTS_COUNTRY_HEADER',
        pattern: '^[A-Za-z0-9-]{1,64}$',
        description:
          'A request header that the proxy in front of the service sets to the visitor’s two-letter country (such as `cf-ipcountry`): site insights count visitors by it. Unset: the country is unknown. Set it only when that proxy overwrites the header, or visitors choose their own.',
      }),
    ),
  }),
  purge: Type.Object({
    pattern: Type.String({
      env: 'PURGE_SCHEDULE',
      cron: true,
      minLength: 1,
      maxLength: 100,
      default: '0 * * * *',
      description:
        'When the purge of expired deleted spaces runs (a cron pattern; seconds optional). It also runs once at start; an advisory lock makes one instance do it at a time.',
    }),
    batchSize: Type.Integer({
      env: 'PURGE_BATCH_SIZE',
      minimum: 1,
      maximum: 10_000,
      default: 500,
      description: 'Spaces removed per purge transaction.',
    }),
  }),
  outbound: Type.Object({
    allowPrivate: Type.Boolean({
      env: 'OUTBOUND_ALLOW_PRIVATE',
      default: false,
      description:
        'Let the service fetch URLs that resolve to private, loopback or link-local addresses (file URLs in content changes, imports, OpenAPI spec sources and their `$ref`s). Leave `false` in production.',
    }),
    timeoutMs: Type.Integer({
      env: 'OUTBOUND_TIMEOUT_MS',
      minimum: 100,
      maximum: 300_000,
      default: 10_000,
      description: 'Time limit of one outbound fetch, redirects included, in ms.',
    }),
    maxBytes: Type.Integer({
      env: 'OUTBOUND_MAX_BYTES',
      minimum: KIB,
      maximum: GIB,
      default: 10 * MIB,
      description: 'Largest body an outbound fetch reads.',
    }),
  }),
  fileUrlTtlSeconds: Type.Integer({
    env: 'FILE_URL_TTL_SECONDS',
    minimum: 10,
    maximum: 7 * 86_400,
    default: 3_600,
    description: "Files' signed `downloadURL`s stay valid between one and two of these.",
  }),
  importLimits: Type.Object({
    maxPages: Type.Integer({
      env: 'IMPORT_MAX_PAGES',
      minimum: 1,
      maximum: 5_000,
      default: 200,
      description: 'Pages fetched per website import, failed ones included.',
    }),
    maxBytes: Type.Integer({
      env: 'IMPORT_MAX_BYTES',
      minimum: 64 * KIB,
      maximum: GIB,
      default: 50 * MIB,
      description: 'Bytes fetched per import, pages and images together.',
    }),
    timeoutMs: Type.Integer({
      env: 'IMPORT_TIMEOUT_MS',
      minimum: 1_000,
      maximum: 600_000,
      default: 60_000,
      description:
        'Crawl time after which a website import fetches no new page or image, in ms; what was fetched is imported.',
    }),
  }),
  conversion: Type.Object({
    threads: Type.Integer({
      env: 'CONVERSION_THREADS',
      minimum: 1,
      maximum: 64,
      default: Math.max(2, availableParallelism()),
      defaultText: 'cores, at least 2',
      description:
        'Worker threads of each pool that parses and converts user-written content off the event loop: markdown and JSON documents, imported pages, integration images.',
    }),
    timeoutMs: Type.Integer({
      env: 'CONVERSION_TIMEOUT_MS',
      minimum: 100,
      maximum: 120_000,
      default: 2_000,
      description:
        'How long one conversion may run, plus 8 ms for each KiB of its input; past it the conversion is stopped and the request answered 400.',
    }),
    queueWaitMs: Type.Integer({
      env: 'CONVERSION_QUEUE_WAIT_MS',
      minimum: 100,
      maximum: 600_000,
      default: 10_000,
      description:
        "How long a conversion may wait for a free thread, the thread's start included; past it the request is answered 503 with `Retry-After`.",
    }),
  }),
  loadShedding: Type.Object({
    maxEventLoopDelayMs: Type.Integer({
      env: 'MAX_EVENT_LOOP_DELAY_MS',
      minimum: 0,
      maximum: 60_000,
      default: 1_000,
      description:
        "When the event loop's mean delay over a one-second sample goes past this, every request but `/healthz` gets 503 with `Retry-After: 5`, and `/readyz` reports 503, until the instance catches up (`0` never refuses).",
    }),
  }),
  specs: Type.Object({
    maxBytes: Type.Integer({
      env: 'SPEC_MAX_BYTES',
      minimum: KIB,
      maximum: GIB,
      default: 20 * MIB,
      description:
        'Bytes one OpenAPI spec may fetch, its entry file and every file its `$ref`s reach together; also the largest spec given as text.',
    }),
    maxFiles: Type.Integer({
      env: 'SPEC_MAX_FILES',
      minimum: 1,
      maximum: 1_000,
      default: 50,
      description: 'Files one spec may reach through external `$ref`s, its entry file included.',
    }),
    maxRefDepth: Type.Integer({
      env: 'SPEC_MAX_REF_DEPTH',
      minimum: 0,
      maximum: 100,
      default: 10,
      description: "How many `$ref` hops from the entry file a spec's files may be.",
    }),
    fetchTimeoutMs: Type.Integer({
      env: 'SPEC_FETCH_TIMEOUT_MS',
      minimum: 100,
      maximum: 600_000,
      default: 30_000,
      description:
        'Time limit of fetching one file of a spec, at most `OUTBOUND_TIMEOUT_MS`; past it the processing fails with `FETCH_TIMEOUT` (retried).',
    }),
    processTimeoutMs: Type.Integer({
      env: 'SPEC_PROCESS_TIMEOUT_MS',
      minimum: 100,
      maximum: 600_000,
      default: 60_000,
      description: "Time limit of one parse or validation of a spec on the parser's thread; past it, `PARSE_ERROR`.",
    }),
    pollIntervalMs: Type.Integer({
      env: 'SPEC_POLL_INTERVAL_MS',
      minimum: 10,
      maximum: 600_000,
      default: 1_000,
      description: 'How often an idle instance looks for spec jobs, in ms.',
    }),
    maxAttempts: Type.Integer({
      env: 'SPEC_MAX_ATTEMPTS',
      minimum: 1,
      maximum: 100,
      default: 5,
      description:
        'Tries of a spec job that fails for a reason that may pass (a timeout, a 5xx, a worker that stopped) before the failure is recorded.',
    }),
  }),
  gitSync: Type.Object({
    maxBytes: Type.Integer({
      env: 'GIT_SYNC_MAX_BYTES',
      minimum: MIB,
      maximum: 4 * GIB,
      default: 512 * MIB,
      description:
        "Bytes one exchange with a Git remote may bring (the pack of a branch's tip), and the most a branch's files may hold together.",
    }),
    maxFiles: Type.Integer({
      env: 'GIT_SYNC_MAX_FILES',
      minimum: 1,
      maximum: 1_000_000,
      default: 50_000,
      description: "Files a branch's tree may hold to be read.",
    }),
    exchangeTimeoutMs: Type.Integer({
      env: 'GIT_SYNC_EXCHANGE_TIMEOUT_MS',
      minimum: 100,
      maximum: 3_600_000,
      default: 120_000,
      description:
        'Time limit of one exchange with a Git remote (listing its refs, fetching a pack, pushing one), in ms; `OUTBOUND_TIMEOUT_MS` does not apply to them.',
    }),
    operationTimeoutMs: Type.Integer({
      env: 'GIT_SYNC_OPERATION_TIMEOUT_MS',
      minimum: 1_000,
      maximum: 3_600_000,
      default: 600_000,
      description:
        'Time limit of one read or commit of a branch on the Git thread, its exchanges included; past it the operation is stopped and fails with `timeout`.',
    }),
    pollIntervalMs: Type.Integer({
      env: 'GIT_SYNC_POLL_INTERVAL_MS',
      minimum: 10,
      maximum: 600_000,
      default: 2_000,
      description: 'How often an idle instance looks for queued Git Sync imports and exports, in ms.',
    }),
    threads: Type.Integer({
      env: 'GIT_SYNC_THREADS',
      minimum: 1,
      maximum: 64,
      default: 1,
      description:
        'Threads reading and committing Git branches (isomorphic-git inflates and hashes in JavaScript, off the event loop); operations beyond them wait.',
    }),
    githubApiUrl: Type.String({
      env: 'GIT_SYNC_GITHUB_API_URL',
      pattern: '^https?://[^\\s/]+(/[^\\s]*)?$',
      default: 'https://api.github.com',
      description:
        "GitHub's REST API for Git Sync installations on GitHub that name no `customInstanceURL` (GitHub Enterprise Server: `https://<host>/api/v3`).",
    }),
    gitlabApiUrl: Type.String({
      env: 'GIT_SYNC_GITLAB_API_URL',
      pattern: '^https?://[^\\s/]+(/[^\\s]*)?$',
      default: 'https://gitlab.com/api/v4',
      description:
        "GitLab's REST API for Git Sync installations on GitLab that name no `customInstanceURL` (a self-hosted GitLab: `https://<host>/api/v4`).",
    }),
    webhookMaxBytes: Type.Integer({
      env: 'GIT_SYNC_WEBHOOK_MAX_BYTES',
      minimum: KIB,
      maximum: 32 * MIB,
      default: 2 * MIB,
      description: 'Largest body a Git Sync installation’s webhook takes (a push event); a larger one is a 413.',
    }),
    pollingMinSeconds: Type.Integer({
      env: 'GIT_SYNC_POLLING_MIN_SECONDS',
      minimum: 10,
      maximum: 86_400,
      default: 60,
      description: 'Shortest polling interval an admin may set on a Git Sync installation, in seconds.',
    }),
    pollingMaxSeconds: Type.Integer({
      env: 'GIT_SYNC_POLLING_MAX_SECONDS',
      minimum: 10,
      maximum: 30 * 86_400,
      default: 86_400,
      description: 'Longest polling interval an admin may set on a Git Sync installation, in seconds.',
    }),
  }),
  gitRemote: Type.Object({
    dir: Type.Optional(
      Type.String({
        env: 'GIT_REMOTE_DIR',
        minLength: 1,
        defaultText: '`quire-git-remote` in the system’s temporary folder',
        description:
          'Where each space’s Git repository (`/git/{spaceId}.git`) is kept: a cache, built again from the database when it is missing. Each instance may have its own.',
      }),
    ),
    maxPushBytes: Type.Integer({
      env: 'GIT_REMOTE_MAX_PUSH_BYTES',
      minimum: KIB,
      maximum: 4 * GIB,
      default: 100 * MIB,
      description:
        'Largest `git push` to a space (the body of its request, the pack with it); a larger one is refused, and `git push` says why.',
    }),
    timeoutMs: Type.Integer({
      env: 'GIT_REMOTE_TIMEOUT_MS',
      minimum: 1_000,
      maximum: 3_600_000,
      default: 300_000,
      description:
        'Time limit of each `git` process serving a clone, fetch or push of a space, and of building the commits a fetch needs; past it the process is stopped.',
    }),
    commitsPerFetch: Type.Integer({
      env: 'GIT_REMOTE_COMMITS_PER_FETCH',
      minimum: 1,
      maximum: 1_000,
      default: 20,
      description:
        'Revisions of a space made into commits by one fetch: the newest ones since the last commit; older ones in between are left out of the history (their changes are in the next commit).',
    }),
  }),
  encryption: Type.Object({
    key: Type.Optional(
      Type.String({
        env: 'ENCRYPTION_KEY',
        secret: true,
        pattern: ENCRYPTION_KEY_PATTERN,
        description:
          "32 bytes in base64 (`openssl rand -base64 32`): the key that encrypts secrets at rest (integration secrets, sites' visitor keys and share-link keys; AES-256-GCM, each value naming its key). **Required in production**, as `SECRET_KEY` is. Unset elsewhere: a key derived from the service secret.",
      }),
    ),
    previousKey: Type.Optional(
      Type.String({
        env: 'ENCRYPTION_KEY_PREVIOUS',
        secret: true,
        pattern: ENCRYPTION_KEY_PATTERN,
        description:
          'The key `ENCRYPTION_KEY` replaced, still accepted for reading while `npm run cli -- secrets rotate` re-encrypts.',
      }),
    ),
  }),
  integrations: Type.Object({
    maxImageBytes: Type.Integer({
      env: 'INTEGRATION_MAX_IMAGE_BYTES',
      minimum: KIB,
      maximum: 10 * MIB,
      default: MIB,
      description: 'Largest icon or preview image an integration may publish, decoded.',
    }),
  }),
  visitorTokenMaxAgeSeconds: Type.Integer({
    env: 'VISITOR_TOKEN_MAX_AGE_SECONDS',
    minimum: 60,
    maximum: 90 * 86_400,
    default: 7 * 86_400,
    description:
      "Longest a site's visitor token (`?jwt_token=`) may live: a token must say when it expires (`exp`), and one whose `exp` is further from now, or from its `iat`, is refused as an invalid token is. The reader's cookie ends when the token does.",
  }),
  mail: Type.Object({
    smtpUrl: Type.Optional(
      Type.String({
        env: 'SMTP_URL',
        pattern: '^smtps?://\\S+$',
        description:
          'The SMTP server invitations and password reset links go through: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://user:password@host:465`. Unset: no mail is sent; an admin inviting by e-mail is shown the accept links once, to hand over, and a forgotten password is set again by signing in with a token.',
      }),
    ),
    from: Type.Optional(
      Type.String({
        env: 'MAIL_FROM',
        minLength: 3,
        maxLength: 320,
        defaultText: '`Quire <no-reply@…>`',
        description: 'The sender of invitation e-mail; by default `no-reply@` at the host of `PUBLIC_URL`.',
      }),
    ),
  }),
  oidc: Type.Object({
    issuer: Type.Optional(
      Type.String({
        env: 'OIDC_ISSUER',
        pattern: '^https?://[^\\s/]+(/[^\\s]*)?$',
        maxLength: 2048,
        description:
          'The OpenID Connect provider people may sign in to the app through (its issuer URL, whose `/.well-known/openid-configuration` describes it): Keycloak, Authentik, Dex, Google, Entra ID. `https://` unless the provider is on this machine (a loopback address). Set with `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`, of a client registered there with the redirect URI `PUBLIC_URL/app/sign-in/oidc/callback`. Unset: no such sign-in.',
      }),
    ),
    clientId: Type.Optional(
      Type.String({
        env: 'OIDC_CLIENT_ID',
        minLength: 1,
        maxLength: 255,
        description: 'The client id this service has at `OIDC_ISSUER`.',
      }),
    ),
    clientSecret: Type.Optional(
      Type.String({
        env: 'OIDC_CLIENT_SECRET',
        secret: true,
        minLength: 1,
        maxLength: 1024,
        description: "The client's secret at `OIDC_ISSUER`.",
      }),
    ),
    name: Type.String({
      env: 'OIDC_NAME',
      minLength: 1,
      maxLength: 60,
      default: 'single sign-on',
      description: 'What the sign-in page calls the provider, on its button: `Sign in with …`.',
    }),
    createUsers: Type.Boolean({
      env: 'OIDC_CREATE_USERS',
      default: false,
      description:
        'Whether a person the provider signs in, with a proven address no account has, gets an account (in no organization until invited). `false`: only people who have an account (invited, or made by an admin) sign in this way, found by their proven address on their first sign-in.',
    }),
    endSession: Type.Boolean({
      env: 'OIDC_END_SESSION',
      default: false,
      description:
        "Whether signing out of the app, from a session opened through the provider, also ends the person's session at the provider (RP-initiated logout), which then sends them back to `PUBLIC_URL/app`: register that address as a post-logout redirect URI of the client. The session's ID token goes as `id_token_hint`, so the provider need not ask them to confirm. Only where the provider's metadata names an `end_session_endpoint` (Keycloak, Authentik, Entra ID do; Google does not). `false`: the person stays signed in at the provider.",
    }),
  }),
});

/** One setting of SettingsSchema: where it sits in the configuration, and its schema (which names its variable). */
export interface Setting {
  path: string[];
  env: string;
  schema: TSchema;
}

function isSetting(schema: TSchema): boolean {
  return typeof schema.env === 'string';
}

/** Every setting, in the schema's order. */
export function settingsOf(schema: TObject = SettingsSchema, path: string[] = []): Setting[] {
  return Object.entries(schema.properties).flatMap(([key, property]) =>
    isSetting(property)
      ? [{ path: [...path, key], env: property.env as string, schema: property }]
      : settingsOf(property as TObject, [...path, key]),
  );
}

/** The environment's view of the settings: one property per variable, each with its setting's schema. */
export const EnvSchema = Type.Object(Object.fromEntries(settingsOf().map((setting) => [setting.env, setting.schema])));
