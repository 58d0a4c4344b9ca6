import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { derivedKey, keyIdOf, Keyring, KeyringError, parseKey, sealedKeyId } from '../src/core/keyring.js';
import { randomString } from '../src/core/ids.js';
import { openSecret, rotateIntegrationSecrets } from '../src/integrations/secrets.js';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { CLI_ARGS } from './support/server-process.js';

const newKey = () => randomBytes(32);
const base64 = (key: Buffer) => key.toString('base64');

const KEY_A = newKey();
const t = useTestApp({ config: { encryption: { key: base64(KEY_A), previousKey: undefined } } });

describe('the keyring', () => {
  it('seals and opens, with a fresh IV each time, naming the key in the sealed value', () => {
    const keyring = new Keyring(KEY_A);
    const sealed = keyring.seal('a secret', 'context');
    expect(sealed).toMatch(/^k1\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
    expect(sealed).not.toContain('a secret');
    expect(sealedKeyId(sealed)).toBe(keyIdOf(KEY_A));
    expect(keyring.open(sealed, 'context')).toBe('a secret');
    expect(keyring.seal('a secret', 'context')).not.toBe(sealed);
    expect(keyring.open(keyring.seal('', 'context'), 'context')).toBe('');
    expect(keyring.open(keyring.seal('ünïcødé ✓', 'context'), 'context')).toBe('ünïcødé ✓');
  });

  it('gives each key a short id of its own, the same every time', () => {
    const other = newKey();
    expect(keyIdOf(KEY_A)).toBe(keyIdOf(Buffer.from(KEY_A)));
    expect(keyIdOf(KEY_A)).not.toBe(keyIdOf(other));
    expect(keyIdOf(KEY_A)).toHaveLength(12);
    expect(new Keyring(KEY_A).currentKeyId).toBe(keyIdOf(KEY_A));
    // From the configuration: ENCRYPTION_KEY, else the key derived from the service secret.
    expect(Keyring.fromConfig({ key: base64(KEY_A), previousKey: undefined }, 'secret').currentKeyId).toBe(
      keyIdOf(KEY_A),
    );
    expect(Keyring.fromConfig({ key: undefined, previousKey: undefined }, 'secret').currentKeyId).toBe(
      keyIdOf(derivedKey('secret')),
    );
    expect(keyIdOf(derivedKey('secret'))).not.toBe(keyIdOf(derivedKey('another secret')));
  });

  it('opens a value sealed under the previous key while it rotates, and says it needs re-sealing', () => {
    const keyB = newKey();
    const sealed = new Keyring(KEY_A).seal('rotate me', 'context');
    const rotating = Keyring.fromConfig({ key: base64(keyB), previousKey: base64(KEY_A) }, 'secret');
    expect(rotating.currentKeyId).toBe(keyIdOf(keyB));
    expect(rotating.open(sealed, 'context')).toBe('rotate me');
    expect(rotating.needsRotation(sealed)).toBe(true);
    expect(rotating.needsRotation(rotating.seal('x', 'context'))).toBe(false);
  });

  it('still opens what was sealed under the derived key once an ENCRYPTION_KEY is set', () => {
    const sealed = Keyring.fromConfig({ key: undefined, previousKey: undefined }, 'secret').seal('old', 'context');
    const configured = Keyring.fromConfig({ key: base64(newKey()), previousKey: undefined }, 'secret');
    expect(configured.open(sealed, 'context')).toBe('old');
    expect(configured.needsRotation(sealed)).toBe(true);
  });

  it('fails clearly on a value under a key it does not hold', () => {
    const unknown = newKey();
    const sealed = new Keyring(unknown).seal('lost', 'context');
    const keyring = Keyring.fromConfig({ key: base64(KEY_A), previousKey: base64(newKey()) }, 'secret');
    expect(() => keyring.open(sealed, 'context')).toThrow(KeyringError);
    expect(() => keyring.open(sealed, 'context')).toThrow(
      `The value is sealed under key ${keyIdOf(unknown)}, which is neither ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS nor the key derived from the service secret`,
    );
  });

  it('refuses a value altered in any part, or opened for another context', () => {
    const keyring = new Keyring(KEY_A);
    const sealed = keyring.seal('do not touch', 'context');
    const [format, keyId, iv, tag, body] = sealed.split('.') as [string, string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      return bytes.toString('base64url');
    };
    for (const altered of [
      [format, keyId, flip(iv), tag, body],
      [format, keyId, iv, flip(tag), body],
      [format, keyId, iv, tag, flip(body)],
    ]) {
      expect(() => keyring.open(altered.join('.'), 'context')).toThrow(/does not open: it was altered or moved/);
    }
    expect(() => keyring.open(sealed, 'another context')).toThrow(/altered or moved/);
    for (const malformed of [
      '',
      'v1.a.b.c',
      `k2.${keyId}.${iv}.${tag}.${body}`,
      `${sealed}.extra`,
      'k1.x.short.tag.body',
    ]) {
      expect(() => keyring.open(malformed, 'context')).toThrow(KeyringError);
    }
  });

  it('refuses a configured key that is not 32 bytes', () => {
    expect(() => parseKey(randomBytes(16).toString('base64'), 'ENCRYPTION_KEY')).toThrow(
      'ENCRYPTION_KEY must be 32 bytes in base64',
    );
    expect(parseKey(KEY_A.toString('base64url'), 'ENCRYPTION_KEY').equals(KEY_A)).toBe(true);
  });
});

// ---- Rotating the integration secrets ----

let admin: Account;
let organizationId: string;

async function publishWithSecrets(secrets: Record<string, string>): Promise<string> {
  const name = `keys-${randomString(8).toLowerCase()}`;
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/integrations/${name}`,
    headers: admin.headers,
    payload: { title: 'Keys', description: 'Holds secrets', script: 'x', organization: organizationId, secrets },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { id } = await t.db.selectFrom('integrations').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return id;
}

const secretRows = () =>
  t.db.selectFrom('integration_secrets').select(['integration_id', 'name', 'sealed', 'key_id']).execute();

beforeAll(async () => {
  const team = await t.factory.team();
  admin = team.admin;
  organizationId = team.organization.id;
});

describe('rotating integration secrets', () => {
  const keyB = newKey();
  const plaintexts = new Map<string, string>();

  it('re-seals every secret under the new key, in batches, keeping its value; a second run has nothing to do', async () => {
    for (let i = 0; i < 3; i++) {
      const secrets = { FIRST: `first-${i}-${randomString(8)}`, SECOND: `second-${i}-${randomString(8)}` };
      const id = await publishWithSecrets(secrets);
      for (const [name, value] of Object.entries(secrets)) plaintexts.set(`${id}/${name}`, value);
    }
    expect(new Set((await secretRows()).map((row) => row.key_id))).toEqual(new Set([keyIdOf(KEY_A)]));

    const rotating = Keyring.fromConfig({ key: base64(keyB), previousKey: base64(KEY_A) }, t.app.serviceSecret);
    expect(await rotateIntegrationSecrets(t.db, rotating, { batchSize: 4 })).toEqual({ rotated: 6, failed: [] });
    const rows = await secretRows();
    expect(rows).toHaveLength(6);
    const onlyB = new Keyring(keyB);
    for (const row of rows) {
      expect(row.key_id).toBe(keyIdOf(keyB));
      expect(sealedKeyId(row.sealed)).toBe(keyIdOf(keyB));
      expect(openSecret(onlyB, row.integration_id, row.name, row.sealed)).toBe(
        plaintexts.get(`${row.integration_id}/${row.name}`),
      );
    }
    expect(await rotateIntegrationSecrets(t.db, rotating, { batchSize: 4 })).toEqual({ rotated: 0, failed: [] });
  });

  it('reports, and leaves as they are, the secrets no key of the keyring opens', async () => {
    const lostKey = newKey();
    const id = await publishWithSecrets({ LOST: 'cannot be opened' });
    const sealed = new Keyring(lostKey).seal('cannot be opened', `integration-secret\u0000${id}\u0000LOST`);
    await t.db
      .updateTable('integration_secrets')
      .set({ sealed, key_id: keyIdOf(lostKey) })
      .where('integration_id', '=', id)
      .execute();
    const keyring = Keyring.fromConfig({ key: base64(keyB), previousKey: base64(KEY_A) }, t.app.serviceSecret);
    const result = await rotateIntegrationSecrets(t.db, keyring, { batchSize: 4 });
    expect(result).toEqual({
      rotated: 0,
      failed: [
        {
          integrationId: id,
          name: 'LOST',
          reason: `The value is sealed under key ${keyIdOf(lostKey)}, which is neither ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS nor the key derived from the service secret`,
        },
      ],
    });
    const row = await t.db
      .selectFrom('integration_secrets')
      .select('sealed')
      .where('integration_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.sealed).toBe(sealed);
    await t.db.deleteFrom('integration_secrets').where('integration_id', '=', id).execute();
  });

  it('runs as `npm run cli -- secrets rotate`, reporting how many it re-encrypted', async () => {
    const keyC = newKey();
    const env = {
      ...process.env,
      DATABASE_URL: t.database.url,
      SECRET_KEY: t.app.config.secretKey,
      ENCRYPTION_KEY: base64(keyC),
      ENCRYPTION_KEY_PREVIOUS: base64(keyB),
    };
    const root = fileURLToPath(new URL('..', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [...CLI_ARGS, 'secrets', 'rotate'], {
      cwd: root,
      env,
    });
    expect(stdout.trim().split('\n')).toEqual([
      `Re-encrypted 6 integration secret(s) under key ${keyIdOf(keyC)}.`,
      `Re-encrypted 0 site visitor and share-link key(s) under key ${keyIdOf(keyC)}.`,
      `Re-encrypted 0 event signing secret(s) under key ${keyIdOf(keyC)}.`,
      `Re-encrypted 0 kept ID token(s) of signed-in sessions under key ${keyIdOf(keyC)}.`,
    ]);
    const rows = await secretRows();
    expect(new Set(rows.map((row) => row.key_id))).toEqual(new Set([keyIdOf(keyC)]));
    const onlyC = new Keyring(keyC);
    for (const row of rows) {
      expect(openSecret(onlyC, row.integration_id, row.name, row.sealed)).toBe(
        plaintexts.get(`${row.integration_id}/${row.name}`),
      );
    }
    const help = await promisify(execFile)(process.execPath, [...CLI_ARGS, '--help'], {
      cwd: root,
      env,
    });
    expect(help.stdout).toContain('secrets rotate');
  });
});
