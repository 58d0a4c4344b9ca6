import { type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { isCronPattern } from './core/cron.js';
import type { LoadSheddingOptions } from './core/load-shedding.js';
import { parseTrustProxy } from './core/proxy.js';
import { parseReservedHostnames } from './core/hostname-rules.js';
import { EnvSchema, settingsOf, SettingsSchema } from './core/config-schema.js';

export { EnvSchema, SettingsSchema } from './core/config-schema.js';

/** The settings as the environment gives them, before config.ts derives what the service uses from a few. */
export type Settings = Static<typeof SettingsSchema>;

/**
 * What a few settings become: the public URL without a trailing slash (by
 * default on PORT), the admin's e-mail in lower case, the trusted proxies,
 * the reserved hostnames and DNS servers as lists, the retention in ms, and
 * the mail sender (by default at PUBLIC_URL's host). Only called on settings
 * whose TRUST_PROXY and RESERVED_HOSTNAMES parse.
 */
function derived(settings: Settings) {
  const trustProxy = parseTrustProxy(settings.trustProxy);
  const reserved = parseReservedHostnames(settings.hostnames.reserved);
  return {
    publicUrl: (settings.publicUrl ?? `http://localhost:${settings.port}`).replace(/(?<!\/)\/+$/, ''),
    bootstrap: { ...settings.bootstrap, adminEmail: settings.bootstrap.adminEmail.toLowerCase() },
    trustProxy: typeof trustProxy === 'string' ? false : trustProxy,
    /**
     * Custom hostnames: those no site may claim besides PUBLIC_URL's host
     * (`*.example.com` for every name under it), and the DNS servers that prove
     * claims (`ip` or `ip:port`; the system's resolvers when undefined).
     */
    hostnames: {
      reserved: typeof reserved === 'string' ? [] : reserved,
      dnsServers: settings.hostnames.dnsServers?.split(',').map((server) => server.trim()),
    },
    /** How long a deleted space can be restored before it is gone for good. */
    spaceRetentionMs: Math.round(settings.spaceRetentionDays * 86_400_000),
    /**
     * Where invitation e-mail goes out: an SMTP server (smtp:// or smtps://, with
     * its user and password in the URL) and the sender. Without an SMTP server no
     * mail is sent, and an inviting admin gets the accept links to hand over.
     */
    mail: {
      smtpUrl: settings.mail.smtpUrl,
      from: settings.mail.from ?? defaultSender(settings.publicUrl ?? 'http://localhost'),
    },
  };
}
type Derived = ReturnType<typeof derived>;

/** The configuration: every setting of SettingsSchema, with the few above in the form the service uses. */
export type Config = Omit<Settings, keyof Derived | 'spaceRetentionDays'> & Derived;
export type MailConfig = Config['mail'];
export type HostnameConfig = Config['hostnames'];

/** Time a conversion is given for each KiB of its input, beyond CONVERSION_TIMEOUT_MS: about twice what prose needs. */
export const CONVERSION_MS_PER_KIB = 8;

export class ConfigError extends Error {}

const SETTINGS = settingsOf();

/** A bad value as the error may show it: secrets by their length, URLs without their password. */
function shown(name: string, value: unknown): string {
  if (EnvSchema.properties[name]?.secret === true) return `a value of ${String(value).length} characters`;
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
  for (const { env: name } of SETTINGS) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const converted = Value.Convert(EnvSchema, Value.Default(EnvSchema, raw)) as Record<string, unknown>;
  const problems = [...Value.Errors(EnvSchema, converted)].map(
    (error) =>
      `${error.path.slice(1) || 'environment'} ${error.message} (got ${shown(error.path.slice(1), raw[error.path.slice(1)])})`,
  );
  for (const { env: name, schema } of SETTINGS) {
    if (schema.cron === true && !isCronPattern(String(converted[name]))) {
      problems.push(`${name} is not a cron pattern (got ${JSON.stringify(raw[name])})`);
    }
  }
  const trustProxy = parseTrustProxy(String(converted.TRUST_PROXY));
  if (typeof trustProxy === 'string') problems.push(trustProxy);
  const reserved = parseReservedHostnames(converted.RESERVED_HOSTNAMES as string | undefined);
  if (typeof reserved === 'string') problems.push(reserved);
  const oidc = oidcProblem(converted);
  if (oidc) problems.push(oidc);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const settings = nested(converted);
  const { spaceRetentionDays: _days, ...rest } = settings;
  return { ...rest, ...derived(settings) };
}

/** The settings in the schema's shape, from the variables' values (checked against the same schemas). */
function nested(values: Record<string, unknown>): Settings {
  const settings: Record<string, unknown> = {};
  // Unset settings are there too, as undefined: a reader of the configuration sees every setting.
  for (const { path, env } of SETTINGS) {
    let group = settings;
    for (const key of path.slice(0, -1)) group = (group[key] ??= {}) as Record<string, unknown>;
    group[path.at(-1)!] = values[env];
  }
  if (!Value.Check(SettingsSchema, settings)) throw new Error('The settings do not match their own schema');
  return settings;
}

/**
 * What is wrong with the OpenID Connect settings: the issuer, client id and
 * secret come together or not at all, and the issuer is reached over https
 * unless it is on this machine (a test, or a provider beside the service).
 */
function oidcProblem(values: Record<string, unknown>): string | undefined {
  const names = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
  const set = names.filter((name) => values[name] !== undefined);
  if (set.length > 0 && set.length < names.length) {
    return `${names.filter((name) => !set.includes(name)).join(' and ')} must be set with ${set.join(' and ')}`;
  }
  const issuer = values.OIDC_ISSUER;
  if (typeof issuer === 'string' && URL.canParse(issuer)) {
    const { protocol, hostname } = new URL(issuer);
    if (protocol === 'http:' && !isLoopbackHost(hostname)) {
      return `OIDC_ISSUER must be https:// unless the provider is on this machine (got ${JSON.stringify(issuer)})`;
    }
  }
  return undefined;
}

/** Whether a URL's host names this machine: localhost, 127.0.0.0/8 or ::1. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
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

/** Settings only the process that starts the app reads: where it listens and keeps data, first start, schedules. */
type ProcessSettings = 'port' | 'host' | 'dataDir' | 'bootstrap' | 'shutdownTimeoutMs' | 'hostnameCheck' | 'purge';

/** What buildApp needs of the configuration: a database to use, and the load shedding's sampling open to tests. */
export type AppConfig = Omit<Config, ProcessSettings | 'databaseUrl' | 'loadShedding'> & {
  databaseUrl: string;
  loadShedding: LoadSheddingOptions;
};
