import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { SignJWT } from 'jose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/core/clock.js';
import { randomString } from '../src/core/ids.js';
import { loggerOptions, redactText, redactUrl } from '../src/core/logging.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { revokeApiToken } from '../src/users/api-token-queries.js';
import { buildOwnApp, PUBLIC_URL, testConfig } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Factory, type Account } from './support/factory.js';
import { insertSite } from './support/sites.js';

/** A self-signed certificate valid until 2125. */
const CERTIFICATE = readFileSync(new URL('./fixtures/idp-valid.pem', import.meta.url), 'utf8');
/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Every line the app logs, at trace level, through the service's own logger options. */
const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

/** Every secret a request below carries or receives: none may appear in any log line. */
const secrets = new Map<string, string>();
function secret<T extends string>(what: string, value: T): T {
  secrets.set(what, value);
  return value;
}

let database: TestDatabase;
let app: FastifyInstance;
let factory: Factory;
let admin: Account;
let stranger: Account;
let organizationId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildOwnApp(testConfig(database.url, { logLevel: 'trace' }), {
    logger: pino(loggerOptions('trace', false), sink),
  });
  await app.ready();
  factory = new Factory(app.context.db);
  const team = await factory.team();
  admin = team.admin;
  organizationId = team.organization.id;
  stranger = await factory.account();
  secret('admin token', admin.token);
  secret('stranger token', stranger.token);
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function call(options: InjectOptions & { url: string }, status: number) {
  const res = await app.inject(options);
  expect(res.statusCode, `${options.method} ${options.url}: ${res.body}`).toBe(status);
  return res;
}

describe('the log', () => {
  it('keeps no token, cookie or malformed credential, accepted or refused', async () => {
    const cookie = secret('cookie', `session=${randomString(32)}`);
    await call({ method: 'GET', url: '/v1/user', headers: { ...admin.headers, cookie } }, 200);
    const madeUp = secret('made-up token', `quire_${randomString(40)}`);
    await call({ method: 'GET', url: '/v1/user', headers: { authorization: `Bearer ${madeUp}` } }, 401);
    const basic = secret('basic credentials', Buffer.from(`admin:${randomString(24)}`).toString('base64'));
    await call({ method: 'GET', url: '/v1/user', headers: { authorization: `Basic ${basic}`, cookie } }, 401);

    const revoked = await factory.token(admin.user.id);
    secret('revoked token', revoked.token);
    await call({ method: 'GET', url: '/v1/user', headers: revoked.headers }, 200);
    await revokeApiToken(app.context.db, systemClock, revoked.token);
    app.forgetToken(revoked.tokenId);
    await call({ method: 'GET', url: '/v1/user', headers: revoked.headers }, 401);

    const expired = await factory.token(admin.user.id, { expiresAt: new Date(Date.now() - 1000) });
    secret('expired token', expired.token);
    await call({ method: 'GET', url: '/v1/user', headers: expired.headers }, 401);

    const narrow = await factory.token(admin.user.id, { scopes: ['user:read'] });
    secret('narrow token', narrow.token);
    await call({ method: 'GET', url: `/v1/orgs/${organizationId}`, headers: narrow.headers }, 403);
  });

  it('keeps no share key of a space or a site, right or wrong', async () => {
    const space = await call(
      {
        method: 'POST',
        url: `/v1/orgs/${organizationId}/spaces`,
        headers: admin.headers,
        payload: { title: 'Shared', visibility: 'share-link' },
      },
      201,
    );
    const spaceId = space.json<{ id: string }>().id;
    const row = await app.context.db
      .selectFrom('spaces')
      .select('share_key')
      .where('id', '=', spaceId)
      .executeTakeFirstOrThrow();
    const key = secret('space share key', row.share_key);
    await call({ method: 'GET', url: `/v1/spaces/${spaceId}?shareKey=${key}`, headers: stranger.headers }, 200);
    // The name percent-encoded is the same parameter to the service, and to the log.
    await call({ method: 'GET', url: `/v1/spaces/${spaceId}?share%4Bey=${key}`, headers: stranger.headers }, 200);
    const wrong = secret('wrong space share key', randomString(32));
    await call({ method: 'GET', url: `/v1/spaces/${spaceId}?shareKey=${wrong}`, headers: stranger.headers }, 404);

    const site = await insertSite(app.context.db, organizationId, { visibility: 'share-link', published: true });
    const sitePath = `/v1/orgs/${organizationId}/sites/${site.id}`;
    const link = await call(
      { method: 'POST', url: `${sitePath}/share-links`, headers: admin.headers, payload: { name: 'Partners' } },
      201,
    );
    const siteKey = secret(
      'site share key',
      new URL(link.json<{ urls: { published: string } }>().urls.published).searchParams.get('share')!,
    );
    await call({ method: 'GET', url: `${sitePath}/published?shareKey=${siteKey}`, headers: stranger.headers }, 200);
    await call({ method: 'GET', url: `${sitePath}/share-links`, headers: admin.headers }, 200);

    const auth = await call({ method: 'GET', url: `${sitePath}/publishing/auth`, headers: admin.headers }, 200);
    secret('site visitor signing key', auth.json<{ privateKey: string }>().privateKey);
  });

  it('keeps no visitor token of a site, accepted, refused or in a message of its own', async () => {
    const site = await insertSite(app.context.db, organizationId, { visibility: 'visitor-auth', published: true });
    const auth = await call(
      { method: 'GET', url: `/v1/orgs/${organizationId}/sites/${site.id}/publishing/auth`, headers: admin.headers },
      200,
    );
    const key = new TextEncoder().encode(auth.json<{ privateKey: string }>().privateKey);
    const issuedAt = Math.floor(Date.now() / 1000);
    const token = secret(
      'visitor token',
      await new SignJWT({ plan: 'pro' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + 3_600)
        .sign(key),
    );
    await call({ method: 'GET', url: `/s/${site.id}?jwt_token=${token}` }, 303);
    const forever = secret(
      'visitor token without expiry',
      await new SignJWT({ plan: 'pro' }).setProtectedHeader({ alg: 'HS256' }).sign(key),
    );
    await call({ method: 'GET', url: `/s/${site.id}?lang=en&jwt_token=${forever}` }, 401);
    await call({ method: 'GET', url: `/s/${site.id}/nowhere?jwt_token=${forever}` }, 401);
    // A line whose message quotes a request's address, as Fastify's own warnings do.
    const quoted = secret('visitor token quoted in a message', randomString(60));
    app.log.warn(`Reply was already sent in the "/s/${site.id}?jwt_token=${quoted}" (GET) route`);
    app.log.error(new Error(`failed on /s/${site.id}?share=${quoted}x&page=2`), 'request failed');
  });

  it('keeps no signature of a file URL, valid or tampered with', async () => {
    const space = await call(
      { method: 'POST', url: `/v1/orgs/${organizationId}/spaces`, headers: admin.headers, payload: { title: 'Files' } },
      201,
    );
    const spaceId = space.json<{ id: string }>().id;
    const changeRequest = await call(
      {
        method: 'POST',
        url: `/v1/spaces/${spaceId}/change-requests`,
        headers: admin.headers,
        payload: { subject: 'A file' },
      },
      201,
    );
    const changeRequestId = changeRequest.json<{ id: string }>().id;
    const written = await call(
      {
        method: 'POST',
        url: `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content?compat=false`,
        headers: admin.headers,
        payload: {
          changes: [
            { operation: 'insert_files', files: [{ name: 'logo.png', contentType: 'image/png', base64: PNG }] },
          ],
        },
      },
      200,
    );
    const fileId = written.json<{ insertedFiles: Array<{ id: string }> }>().insertedFiles[0]!.id;
    const file = await call(
      {
        method: 'GET',
        url: `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/files/${fileId}`,
        headers: admin.headers,
      },
      200,
    );
    const download = new URL(file.json<{ downloadURL: string }>().downloadURL);
    secret('file URL signature', download.searchParams.get('signature')!);
    await call({ method: 'GET', url: download.href.replace(PUBLIC_URL, '') }, 200);
    const forged = secret('forged signature', randomString(43));
    download.searchParams.set('signature', forged);
    await call({ method: 'GET', url: download.href.replace(PUBLIC_URL, '') }, 404);
  });

  it('keeps no invite link id, read or joined with', async () => {
    const invite = await call(
      {
        method: 'POST',
        url: `/v1/orgs/${organizationId}/link-invites`,
        headers: admin.headers,
        payload: { role: 'read' },
      },
      201,
    );
    const inviteId = secret('invite link id', invite.json<{ id: string }>().id);
    await call(
      { method: 'GET', url: `/v1/orgs/${organizationId}/link-invites/${inviteId}`, headers: stranger.headers },
      200,
    );
    await call(
      { method: 'POST', url: `/v1/orgs/${organizationId}/invites/${inviteId}`, headers: stranger.headers },
      200,
    );
    const guessed = secret('guessed invite id', randomString(20));
    await call(
      { method: 'POST', url: `/v1/orgs/${organizationId}/invites/${guessed}`, headers: stranger.headers },
      404,
    );
  });

  it('keeps no secret sent in a body, refused or not: integration secrets, certificates, broken JSON', async () => {
    const name = `log-${randomString(8).toLowerCase()}`;
    const integrationSecret = secret('integration secret', randomString(40));
    const definition = {
      title: 'Logged',
      description: 'Keeps a secret',
      script: 'export default {}',
      organization: organizationId,
      secrets: { API_KEY: integrationSecret },
    };
    await call({ method: 'POST', url: `/v1/integrations/${name}`, headers: admin.headers, payload: definition }, 200);
    const refusedSecret = secret('refused integration secret', randomString(40));
    await call(
      {
        method: 'POST',
        url: `/v1/integrations/${name}`,
        headers: admin.headers,
        payload: { ...definition, secrets: { API_KEY: refusedSecret }, unknownField: true },
      },
      400,
    );

    // The certificate body, which no line of a PEM header would show.
    const certificateBody = secret('certificate', CERTIFICATE.split('\n')[3]!);
    const saml = `/v1/orgs/${organizationId}/saml`;
    await call(
      { method: 'POST', url: saml, headers: admin.headers, payload: { label: 'IdP', certificate: CERTIFICATE } },
      201,
    );
    const broken = secret('broken certificate', `MII${randomString(60)}`);
    await call(
      { method: 'POST', url: saml, headers: admin.headers, payload: { label: 'IdP', certificate: broken } },
      400,
    );
    expect(certificateBody.length).toBeGreaterThan(40);

    const inBrokenJson = secret('secret in malformed JSON', randomString(40));
    await call(
      {
        method: 'POST',
        url: `/v1/integrations/${name}`,
        headers: { ...admin.headers, 'content-type': 'application/json' },
        payload: `{"secrets":{"API_KEY":"${inBrokenJson}"`,
      },
      400,
    );
    const inWrongType = secret('secret in a body of another type', randomString(40));
    await call(
      {
        method: 'POST',
        url: `/v1/integrations/${name}`,
        headers: { ...admin.headers, 'content-type': 'text/plain' },
        payload: inWrongType,
      },
      415,
    );
  });

  it('held every request, with the secrets of its URL replaced, and none of the secrets above', () => {
    const entries = lines.map((line) => JSON.parse(line) as { msg?: string; req?: { url: string } });
    const urls = entries.flatMap((entry) => (entry.req ? [entry.req.url] : []));
    // The requests were logged, so the absence below means something.
    expect(entries.filter((entry) => entry.msg === 'request completed').length).toBeGreaterThan(25);
    expect(secrets.size).toBeGreaterThan(15);
    const leaks = [...secrets].filter(([, value]) => lines.some((line) => line.includes(value)));
    expect(leaks.map(([what]) => what)).toEqual([]);
    expect(urls).toContainEqual(expect.stringMatching(/\?shareKey=\[redacted\]$/));
    expect(urls).toContainEqual(expect.stringMatching(/\?share%4Bey=\[redacted\]$|\?shareKey=\[redacted\]$/));
    expect(urls).toContainEqual(expect.stringMatching(/^\/files\/\w+\/logo\.png\?expires=\d+&signature=\[redacted\]$/));
    expect(urls).toContainEqual(expect.stringMatching(/\/link-invites\/\[redacted\]$/));
    expect(urls).toContainEqual(expect.stringMatching(/^\/s\/\w+\?jwt_token=\[redacted\]$/));
    expect(urls).toContainEqual(expect.stringMatching(/^\/s\/\w+\?lang=en&jwt_token=\[redacted\]$/));
    expect(lines.some((line) => line.includes('jwt_token=[redacted]\\" (GET) route'))).toBe(true);
    expect(urls).toContainEqual(expect.stringMatching(/\/invites\/\[redacted\]$/));
    expect(entries.some((entry) => entry.msg === 'request refused')).toBe(true);
  });
});

describe('redacting a URL', () => {
  it('replaces secret parameters, invite ids and password reset secrets, and leaves everything else as sent', () => {
    expect(redactUrl('/v1/spaces/abc/content?shareKey=k1&limit=5&shareKey=k2')).toBe(
      '/v1/spaces/abc/content?shareKey=[redacted]&limit=5&shareKey=[redacted]',
    );
    expect(redactUrl('/files/v/a.png?expires=10&signature=s')).toBe('/files/v/a.png?expires=10&signature=[redacted]');
    expect(redactUrl('/v1/orgs/o/invites/secret?x=1')).toBe('/v1/orgs/o/invites/[redacted]?x=1');
    expect(redactUrl('/v1/orgs/o/invites')).toBe('/v1/orgs/o/invites');
    expect(redactUrl('/app/password-reset/s3cret')).toBe('/app/password-reset/[redacted]');
    expect(redactUrl('/app/password-reset')).toBe('/app/password-reset');
    expect(redactUrl('/app/email-proof/s3cret')).toBe('/app/email-proof/[redacted]');
    expect(redactUrl('/v1/orgs/o/link-invites/')).toBe('/v1/orgs/o/link-invites/');
    expect(redactUrl('/v1/spaces/s?%73hare%4Bey=k&bad=%E0')).toBe('/v1/spaces/s?shareKey=[redacted]&bad=%E0');
    expect(redactUrl('/v1/spaces/s?%E0=1&signature')).toBe('/v1/spaces/s?%E0=1&signature=[redacted]');
    expect(redactUrl('/v1/orgs?limit=10')).toBe('/v1/orgs?limit=10');
    expect(redactUrl('/s/site/guide?jwt_token=eyJ.eyJ.sig&lang=en')).toBe('/s/site/guide?jwt_token=[redacted]&lang=en');
  });

  it('in free text, replaces the values of secret parameters wherever a URL is quoted', () => {
    expect(redactText('GET "/s/a?jwt_token=eyJ.x.y" failed')).toBe('GET "/s/a?jwt_token=[redacted]" failed');
    expect(redactText('https://h/s/a?x=1&share=k&y=2 and /f?signature=s')).toBe(
      'https://h/s/a?x=1&share=[redacted]&y=2 and /f?signature=[redacted]',
    );
    expect(redactText('nothing=here, no url')).toBe('nothing=here, no url');
  });
});

describe('configuration errors', () => {
  it('name a bad secret without showing it, and hide the password of a bad URL', () => {
    const values = {
      SECRET_KEY: 'short-but-secret',
      BOOTSTRAP_ADMIN_TOKEN: 'secret token with spaces',
      ENCRYPTION_KEY: 'not-base64-but-secret',
      ENCRYPTION_KEY_PREVIOUS: 'another-secret',
      DATABASE_URL: 'mysql://quire:hunter2-password@db/quire',
      RATE_LIMIT_REDIS_URL: 'http://user:redis-password@cache:6379',
    };
    let message = '';
    try {
      loadConfig(values);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of Object.keys(values)) expect(message).toContain(name);
    for (const value of Object.values(values).slice(0, 4)) expect(message).not.toContain(value);
    expect(message).not.toContain('hunter2-password');
    expect(message).not.toContain('redis-password');
    expect(message).toContain('mysql://quire:***@db/quire');
  });
});
