import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProduction, missingKeysProblem } from '../src/config.js';
import { newId, randomString } from '../src/core/ids.js';
import { keyIdOf, Keyring } from '../src/core/keyring.js';
import { seal, unseal } from '../src/core/sealed.js';
import { openSecret } from '../src/integrations/secrets.js';
import { openShareKey, openVisitorKey } from '../src/sites/secrets.js';
import { buildOwnApp, testConfig } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Factory, type Account } from './support/factory.js';
import { CLI_ARGS, runServerToExit, startServerProcess } from './support/server-process.js';
import { integrationSigningSecret, webhookSigningSecret } from '../src/integrations/events/signing-secrets.js';
import { openIdTokenHint, sealIdTokenHint } from '../src/accounts/id-token-hints.js';

const KEY_1 = randomBytes(32);
const KEY_2 = randomBytes(32);
const base64 = (key: Buffer) => key.toString('base64');
const SECRET_KEY = testConfig('').secretKey!;

let database: TestDatabase;
const apps: FastifyInstance[] = [];

/** An instance of the service on the file's database, with these encryption keys. */
async function instance(key: Buffer, previousKey?: Buffer): Promise<FastifyInstance> {
  const app = await buildOwnApp(
    testConfig(database.url, {
      encryption: { key: base64(key), previousKey: previousKey ? base64(previousKey) : undefined },
    }),
  );
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.drop();
});

/** Every sealed value the database holds, as a dump of it would show them. */
async function dump(app: FastifyInstance) {
  const sites = await app.context.db
    .selectFrom('sites')
    .select(['id', 'auth_private_key_encrypted as sealed'])
    .execute();
  const links = await app.context.db.selectFrom('site_share_links').select(['id', 'key_encrypted as sealed']).execute();
  const secrets = await app.context.db
    .selectFrom('integration_secrets')
    .select(['integration_id', 'name', 'sealed'])
    .execute();
  const settings = await app.context.db.selectFrom('service_settings').selectAll().execute();
  return { sites, links, secrets, settings };
}

/** The sealed secrets events are signed with: integrations' and webhooks'. */
async function eventSigningSecrets(app: FastifyInstance): Promise<string[]> {
  const integrations = await app.context.db
    .selectFrom('integrations')
    .select('signing_secret_sealed as sealed')
    .where('signing_secret_sealed', 'is not', null)
    .execute();
  const webhooks = await app.context.db.selectFrom('webhooks').select('secret_sealed as sealed').execute();
  return [...integrations, ...webhooks].map((row) => row.sealed!);
}

/** A session opened through the OpenID Connect provider, with its hidden token, keeping the ID token `seal` seals; its id. */
async function oidcSession(
  app: FastifyInstance,
  userId: string,
  seal: (sessionId: string) => string | undefined,
): Promise<string> {
  const tokenId = newId();
  const sessionId = newId();
  const now = new Date();
  const until = new Date(now.getTime() + 3_600_000);
  await app.context.db
    .insertInto('api_tokens')
    .values({
      id: tokenId,
      user_id: userId,
      token_hash: randomBytes(32),
      label: 'OpenID Connect sign-in',
      kind: 'session',
      created_at: now,
      expires_at: until,
    })
    .execute();
  await app.context.db
    .insertInto('app_sessions')
    .values({
      id_hash: randomBytes(32),
      id: sessionId,
      user_id: userId,
      token_id: tokenId,
      created_at: now,
      expires_at: until,
      signed_in_with: 'oidc',
      provider_id_token_sealed: seal(sessionId) ?? null,
    })
    .execute();
  return sessionId;
}

describe('secrets at rest', () => {
  it('rotate end to end: sealed under key 1, key 2 added, re-sealed, key 1 removed; a dump opens nothing', async () => {
    // ---- Key 1 alone. A site admin makes a visitor-auth site, a share link and an integration secret.
    const first = await instance(KEY_1);
    const factory = new Factory(first.context.db);
    const team = await factory.team();
    const admin: Account = team.admin;
    const org = `/v1/orgs/${team.organization.id}`;
    const call = (app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });

    const site = (await call(first, 'POST', `${org}/sites`, { title: 'Members', visibility: 'visitor-auth' })).json<{
      id: string;
    }>();
    const visitorKeyOf = async (app: FastifyInstance, siteId: string) => {
      const res = await call(app, 'GET', `${org}/sites/${siteId}/publishing/auth`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ privateKey: string }>().privateKey;
    };
    const shareKeysOf = async (app: FastifyInstance) => {
      const res = await call(app, 'GET', `${org}/sites/${site.id}/share-links`);
      expect(res.statusCode, res.body).toBe(200);
      return res
        .json<{ items: Array<{ urls: { published: string } }> }>()
        .items.map((link) => new URL(link.urls.published).searchParams.get('share'))
        .sort();
    };
    const visitorKey = await visitorKeyOf(first, site.id);
    const link = await call(first, 'POST', `${org}/sites/${site.id}/share-links`, { name: 'Partners' });
    expect(link.statusCode, link.body).toBe(201);
    const shareKey = new URL(link.json<{ urls: { published: string } }>().urls.published).searchParams.get('share')!;
    const integrationSecret = randomString(40);
    const name = `rotate-${randomString(8).toLowerCase()}`;
    const published = await call(first, 'POST', `/v1/integrations/${name}`, {
      title: 'Rotated',
      description: 'Holds a secret',
      script: 'export default {}',
      organization: team.organization.id,
      secrets: { API_KEY: integrationSecret },
    });
    expect(published.statusCode, published.body).toBe(200);
    // The integration's signing secret and a webhook's: the secrets events are signed with.
    const signing = await call(first, 'POST', `/v1/integrations/${name}/signing-secret`);
    expect(signing.statusCode, signing.body).toBe(200);
    const signingSecret = signing.json<{ secret: string }>().secret;
    const webhook = await call(first, 'POST', `${org}/webhooks`, { url: 'https://hooks.example.com/docs' });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const webhookSecret = webhook.json<{ secret: string }>().secret;
    // A site from before the keyring: its key sealed in the first format, under the service secret.
    const legacySiteId = newId();
    const legacyKey = randomString(43);
    await first.context.db
      .insertInto('sites')
      .values({
        id: legacySiteId,
        organization_id: team.organization.id,
        title: 'Older',
        auth_private_key_encrypted: seal(SECRET_KEY, 'site-visitor-signing-key', legacyKey),
      })
      .execute();
    expect(await visitorKeyOf(first, legacySiteId)).toBe(legacyKey);

    // Two sessions opened through the OpenID Connect provider, each keeping its ID token for signing out:
    // one sealed under key 1, one under a key the service no longer has.
    const idToken = `eyJhbGciOiJSUzI1NiJ9.${randomString(60)}.${randomString(40)}`;
    const keptHint = await oidcSession(first, admin.user.id, (sessionId) =>
      sealIdTokenHint(first.context.keyring, sessionId, idToken),
    );
    const lostHint = await oidcSession(first, admin.user.id, (sessionId) =>
      sealIdTokenHint(new Keyring(randomBytes(32)), sessionId, idToken),
    );

    const sealedUnderKey1 = await dump(first);
    const keyOf = (sealed: string) => sealed.split('.').slice(0, 2).join('.');
    for (const value of [...sealedUnderKey1.sites, ...sealedUnderKey1.links, ...sealedUnderKey1.secrets]) {
      expect(value.sealed).not.toContain(visitorKey);
      expect(value.sealed).not.toContain(shareKey);
      expect(value.sealed).not.toContain(integrationSecret);
    }
    expect(sealedUnderKey1.links.map((row) => keyOf(row.sealed))).toEqual([`k1.${keyIdOf(KEY_1)}`]);

    // ---- Key 2 added, key 1 kept as the previous one: old values open, new ones are sealed under key 2.
    const second = await instance(KEY_2, KEY_1);
    expect(await visitorKeyOf(second, site.id)).toBe(visitorKey);
    expect(await visitorKeyOf(second, legacySiteId)).toBe(legacyKey);
    expect(await shareKeysOf(second)).toEqual([shareKey]);
    const newer = await call(second, 'POST', `${org}/sites/${site.id}/share-links`, { name: 'Newer' });
    expect(newer.statusCode, newer.body).toBe(201);
    const newerKey = new URL(newer.json<{ urls: { published: string } }>().urls.published).searchParams.get('share')!;
    const newerRow = await second.context.db
      .selectFrom('site_share_links')
      .select('key_encrypted')
      .where('id', '=', newer.json<{ id: string }>().id)
      .executeTakeFirstOrThrow();
    expect(keyOf(newerRow.key_encrypted)).toBe(`k1.${keyIdOf(KEY_2)}`);

    // ---- The re-seal, as an operator runs it.
    const { stdout } = await promisify(execFile)(process.execPath, [...CLI_ARGS, 'secrets', 'rotate'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        SECRET_KEY,
        ENCRYPTION_KEY: base64(KEY_2),
        ENCRYPTION_KEY_PREVIOUS: base64(KEY_1),
      },
    });
    expect(stdout.trim().split('\n')).toEqual([
      `Re-encrypted 1 integration secret(s) under key ${keyIdOf(KEY_2)}.`,
      // The two sites' visitor keys and the first share link: the newer one was sealed under key 2 already.
      `Re-encrypted 3 site visitor and share-link key(s) under key ${keyIdOf(KEY_2)}.`,
      `Re-encrypted 2 event signing secret(s) under key ${keyIdOf(KEY_2)}.`,
      `Re-encrypted 1 kept ID token(s) of signed-in sessions under key ${keyIdOf(KEY_2)}; dropped 1 no key opens (their sign-out goes on without).`,
    ]);

    // ---- Key 1 removed: every value still opens, under key 2 alone.
    const third = await instance(KEY_2);
    expect(await visitorKeyOf(third, site.id)).toBe(visitorKey);
    expect(await visitorKeyOf(third, legacySiteId)).toBe(legacyKey);
    expect(await shareKeysOf(third)).toEqual([shareKey, newerKey].sort());
    const rows = await dump(third);
    const all = [...rows.sites, ...rows.links, ...rows.secrets];
    expect(all).toHaveLength(5);
    expect(new Set(all.map((row) => keyOf(row.sealed)))).toEqual(new Set([`k1.${keyIdOf(KEY_2)}`]));
    const onlyKey2 = new Keyring(KEY_2);
    expect(openSecret(onlyKey2, rows.secrets[0]!.integration_id, 'API_KEY', rows.secrets[0]!.sealed)).toBe(
      integrationSecret,
    );

    // ---- A dump of the database, with every key but the current one (even SECRET_KEY and the retired key 1).
    const thief = {
      keyring: Keyring.fromConfig({ key: base64(KEY_1), previousKey: undefined }, SECRET_KEY),
      serviceSecret: SECRET_KEY,
    };
    for (const row of rows.sites) {
      expect(() => openVisitorKey(thief, row.id, row.sealed)).toThrow();
      expect(() => unseal(SECRET_KEY, 'site-visitor-signing-key', row.sealed)).toThrow();
    }
    for (const row of rows.links) expect(() => openShareKey(thief, row.id, row.sealed)).toThrow();
    for (const row of rows.secrets)
      expect(() => openSecret(thief.keyring, row.integration_id, row.name, row.sealed)).toThrow();
    const integrationId = rows.secrets[0]!.integration_id;
    expect(await integrationSigningSecret(third.context.db, third.context.keyring, integrationId)).toBe(signingSecret);
    const webhookId = webhook.json<{ id: string }>().id;
    expect(await webhookSigningSecret(third.context.db, third.context.keyring, webhookId)).toBe(webhookSecret);
    const signingRows = await eventSigningSecrets(third);
    expect(new Set(signingRows.map((sealed) => keyOf(sealed)))).toEqual(new Set([`k1.${keyIdOf(KEY_2)}`]));
    const hints = await third.context.db
      .selectFrom('app_sessions')
      .select(['id', 'provider_id_token_sealed as sealed'])
      .where('id', 'in', [keptHint, lostHint])
      .execute();
    const hintOf = (id: string) => hints.find((row) => row.id === id)!.sealed;
    expect(keyOf(hintOf(keptHint)!)).toBe(`k1.${keyIdOf(KEY_2)}`);
    expect(openIdTokenHint(onlyKey2, keptHint, hintOf(keptHint))).toBe(idToken);
    expect(openIdTokenHint(thief.keyring, keptHint, hintOf(keptHint))).toBeUndefined();
    expect(hintOf(lostHint)).toBeNull();
    const dumped = JSON.stringify({ rows, signingRows, hints });
    for (const plaintext of [
      visitorKey,
      legacyKey,
      shareKey,
      newerKey,
      integrationSecret,
      signingSecret,
      webhookSecret,
      idToken.split('.')[1]!,
    ]) {
      expect(dumped).not.toContain(plaintext);
    }
  });

  it('bind each value to its row: a sealed key copied onto another site does not open there', async () => {
    const app = await instance(KEY_2);
    const team = await new Factory(app.context.db).team();
    const org = `/v1/orgs/${team.organization.id}`;
    const create = (title: string) =>
      app.inject({ method: 'POST', url: `${org}/sites`, headers: team.admin.headers, payload: { title } });
    const victim = (await create('Victim')).json<{ id: string }>();
    const other = (await create('Other')).json<{ id: string }>();
    const sealed = await app.context.db
      .selectFrom('sites')
      .select('auth_private_key_encrypted')
      .where('id', '=', victim.id)
      .executeTakeFirstOrThrow();
    const keys = { keyring: new Keyring(KEY_2), serviceSecret: SECRET_KEY };
    expect(openVisitorKey(keys, victim.id, sealed.auth_private_key_encrypted)).toMatch(/^[\w-]{43}$/);
    expect(() => openVisitorKey(keys, other.id, sealed.auth_private_key_encrypted)).toThrow();
  });
});

describe('starting without keys', () => {
  it('is refused in production, saying what to set and how to make it', async () => {
    const refused = await runServerToExit({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      SECRET_KEY: '',
      ENCRYPTION_KEY: '',
    });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('Refusing to start in production');
    expect(refused.output).toContain('SECRET_KEY (generate one with `openssl rand -base64 48`)');
    expect(refused.output).toContain('ENCRYPTION_KEY (generate one with `openssl rand -base64 32`)');

    const halfway = await runServerToExit({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      SECRET_KEY: randomString(48),
      ENCRYPTION_KEY: '',
    });
    expect(halfway.code).toBe(1);
    expect(halfway.output).toContain('Set ENCRYPTION_KEY (generate one with `openssl rand -base64 32`).');
    expect(halfway.output).not.toContain('Set SECRET_KEY');
  });

  it('goes on elsewhere, with a loud warning in the log', async () => {
    const fresh = await createTestDatabase();
    try {
      const server = await startServerProcess({ DATABASE_URL: fresh.url, SECRET_KEY: '', ENCRYPTION_KEY: '' });
      try {
        const warning = server.logs.find((entry) => String(entry.msg).startsWith('NOT FOR PRODUCTION'));
        expect(warning?.level).toBe(40);
        expect(String(warning?.msg)).toContain('SECRET_KEY');
        expect(String(warning?.msg)).toContain('ENCRYPTION_KEY');
      } finally {
        server.child.kill('SIGTERM');
        await new Promise((resolve) => server.child.once('exit', resolve));
      }
    } finally {
      await fresh.drop();
    }
  });

  it('tells production by NODE_ENV, which the container image sets, and asks for nothing once both keys are set', () => {
    expect(isProduction({ NODE_ENV: 'production' })).toBe(true);
    expect(isProduction({ NODE_ENV: 'development' })).toBe(false);
    expect(isProduction({})).toBe(false);
    expect(
      missingKeysProblem({ secretKey: randomString(48), encryption: { key: base64(KEY_1), previousKey: undefined } }),
    ).toBe(undefined);
  });
});
