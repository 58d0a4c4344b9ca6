import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { ConfigError, EnvSchema, loadConfig } from '../src/config.js';
import { configurationReference } from '../src/ops/config-reference.js';

describe('configuration', () => {
  it('has working defaults with no environment at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: undefined,
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      dataDir: './.data',
      rateLimit: { max: 600, windowMs: 60_000 },
      bodyLimit: 5 * 1024 * 1024,
      bootstrap: { adminToken: undefined, adminEmail: 'admin@example.com', organizationTitle: 'My organization' },
      conversion: { timeoutMs: 2_000, queueWaitMs: 10_000 },
    });
  });

  it('reads and converts every variable', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/quire',
      PORT: '8080',
      PUBLIC_URL: 'https://docs.example.com/',
      LOG_LEVEL: 'debug',
      RATE_LIMIT_MAX: '10',
      TRUST_PROXY: '1',
      RESERVED_HOSTNAMES: 'status.example.com, *.internal.example.com',
      DNS_SERVERS: '10.0.0.53, 127.0.0.1:5353',
      BOOTSTRAP_ADMIN_EMAIL: 'Root@Example.com',
      CONVERSION_THREADS: '3',
      CONVERSION_QUEUE_WAIT_MS: '30000',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://u:p@db:5432/quire',
      port: 8080,
      publicUrl: 'https://docs.example.com',
      logLevel: 'debug',
      rateLimit: { max: 10 },
      trustProxy: 1,
      hostnames: {
        reserved: ['status.example.com', '*.internal.example.com'],
        dnsServers: ['10.0.0.53', '127.0.0.1:5353'],
      },
      bootstrap: { adminEmail: 'root@example.com' },
      conversion: { threads: 3, queueWaitMs: 30_000 },
    });
  });

  it('names every bad variable and its value', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', BOOTSTRAP_ADMIN_TOKEN: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT .*"eighty"/);
    expect(message).toMatch(/LOG_LEVEL .*"loud"/);
    expect(message).toMatch(/DATABASE_URL .*"mysql:\/\/x"/);
    expect(message).toMatch(/BOOTSTRAP_ADMIN_TOKEN/);
  });

  it('takes TRUST_PROXY as false, a hop count or proxies’ addresses, and refuses trusting every hop', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    for (const value of ['true', 'TRUE', '10.0.0.0/33', 'proxy.internal']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY=true .* use `false`, a number of proxy hops/,
    );
    expect(() => loadConfig({ RESERVED_HOSTNAMES: 'ok.example.com, bad host' })).toThrow(
      /RESERVED_HOSTNAMES has "bad host"/,
    );
    expect(() => loadConfig({ DNS_SERVERS: 'dns.example.com' })).toThrow(/DNS_SERVERS/);
  });

  it('sends no mail without SMTP_URL, and takes the SMTP server and sender when given', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: undefined, from: 'Quire <no-reply@localhost>' });
    expect(loadConfig({ PUBLIC_URL: 'https://docs.example.com' }).mail.from).toBe('Quire <no-reply@docs.example.com>');
    expect(
      loadConfig({ SMTP_URL: 'smtps://quire:pw@smtp.example.com:465', MAIL_FROM: 'Docs <docs@example.com>' }).mail,
    ).toEqual({ smtpUrl: 'smtps://quire:pw@smtp.example.com:465', from: 'Docs <docs@example.com>' });
    expect(() => loadConfig({ SMTP_URL: 'http://smtp.example.com' })).toThrow(/SMTP_URL/);
  });

  it('documents every variable in the configuration reference and in .env.example', () => {
    const reference = new URL('../docs/configuration.md', import.meta.url);
    const readme = readFileSync(existsSync(reference) ? reference : new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
    for (const name of Object.keys(EnvSchema.properties)) {
      expect(readme, name).toContain(`| \`${name}\` |`);
      expect(example, name).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
  });

  it('keeps docs/configuration.md as the schema writes it (npm run docs:config)', () => {
    const written = readFileSync(new URL('../docs/configuration.md', import.meta.url), 'utf8');
    expect(written).toBe(configurationReference());
  });

  it('keeps each setting in one place: its variable, its place in the configuration, its default', () => {
    const config = loadConfig({});
    expect(config.rateLimit.organizationMax).toBe(3000);
    expect(config.specs).toEqual({
      maxBytes: 20 * 1024 * 1024,
      maxFiles: 50,
      maxRefDepth: 10,
      fetchTimeoutMs: 30_000,
      processTimeoutMs: 60_000,
      pollIntervalMs: 1_000,
      maxAttempts: 5,
    });
    expect(config.spaceRetentionMs).toBe(7 * 86_400_000);
    expect(loadConfig({ SPACE_RETENTION_DAYS: '0.5' }).spaceRetentionMs).toBe(43_200_000);
    expect(config).not.toHaveProperty('spaceRetentionDays');
    expect(() => loadConfig({ PURGE_SCHEDULE: 'hourly' })).toThrow(/PURGE_SCHEDULE is not a cron pattern/);
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(/SECRET_KEY .*a value of 5 characters/);
  });
});
