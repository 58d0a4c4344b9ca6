import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/core/clock.js';
import { SCOPES } from '../src/access/scopes.js';
import { revokeApiToken } from '../src/users/api-token-queries.js';
import { buildOwnApp, listen, PUBLIC_URL, testConfig, useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';

const t = useTestApp();

const DAY_MS = 86_400_000;
const UNAUTHORIZED = {
  error: { code: 401, message: 'Authentication required: send a valid API token as "Authorization: Bearer <token>"' },
};
const NOT_YOURS = { error: { code: 404, message: 'No token with this id is yours' } };

type Method = 'GET' | 'POST' | 'DELETE';
/** Whoever sends a request: an account, or a token a response just showed. */
type Sender = Pick<Account, 'headers'>;

function call(account: Sender | null, method: Method, url: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    ...(account ? { headers: account.headers } : {}),
    ...(payload ? { payload } : {}),
  });
}

const create = (account: Sender, payload: object) => call(account, 'POST', '/v1/user/tokens', payload);

const bearer = (token: string): Sender => ({ headers: { authorization: `Bearer ${token}` } });

/** Spreads the tokens' creation times a second apart, in this order, so that their order is known. */
async function createdInOrder(tokenIds: string[]): Promise<void> {
  const start = Date.now() - tokenIds.length * 1_000;
  for (const [index, id] of tokenIds.entries()) {
    await t.db
      .updateTable('api_tokens')
      .set({ created_at: new Date(start + index * 1_000) })
      .where('id', '=', id)
      .execute();
  }
}

const tokensOf = (userId: string) =>
  t.db
    .selectFrom('api_tokens')
    .select(['id', 'label', 'scopes', 'expires_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

const eventsOf = (organizationId: string) =>
  t.db
    .selectFrom('organization_events')
    .select(['type', 'actor_id', 'user_id', 'details', 'created_at'])
    .where('organization_id', '=', organizationId)
    .execute();

describe('GET /v1/user/tokens', () => {
  it('lists the caller’s tokens newest first, with their state, and never a secret or hash', async () => {
    const me = await t.factory.account();
    const expired = await t.factory.token(me.user.id, { expiresAt: new Date(Date.now() - 1_000) });
    const scoped = await t.factory.token(me.user.id, { scopes: ['space:read'] });
    const revoked = await t.factory.token(me.user.id);
    await revokeApiToken(t.db, systemClock, revoked.tokenId);
    const someoneElse = await t.factory.account();
    await createdInOrder([me, expired, scoped, revoked].map((account) => account.tokenId));

    const res = await call(me, 'GET', '/v1/user/tokens');

    expect(res.statusCode).toBe(200);
    const rows = await t.db
      .selectFrom('api_tokens')
      .select(['id', 'token_hash', 'created_at', 'expires_at', 'revoked_at'])
      .where('user_id', '=', me.user.id)
      .execute();
    const at = (id: string) => rows.find((row) => row.id === id)!;
    const item = (account: Account, fields: object) => ({
      object: 'api-token',
      id: account.tokenId,
      label: '',
      scopes: null,
      state: 'active',
      current: false,
      createdAt: at(account.tokenId).created_at.toISOString(),
      expiresAt: at(account.tokenId).expires_at?.toISOString() ?? null,
      revokedAt: at(account.tokenId).revoked_at?.toISOString() ?? null,
      ...fields,
    });
    expect(res.json()).toEqual({
      count: 4,
      items: [
        item(revoked, { state: 'revoked' }),
        item(scoped, { scopes: ['space:read'] }),
        item(expired, { state: 'expired' }),
        item(me, { current: true }),
      ],
    });
    for (const account of [me, expired, scoped, revoked, someoneElse]) expect(res.body).not.toContain(account.token);
    for (const { token_hash: hash } of rows) {
      expect(res.body).not.toContain(hash.toString('hex'));
      expect(res.body).not.toContain(hash.toString('base64'));
    }
    expect(res.body).not.toContain(someoneElse.tokenId);
    expect(res.body).not.toMatch(/hash|"token"/i);
  });

  it('pages with a cursor that only this user’s list accepts', async () => {
    const me = await t.factory.account();
    const more = [];
    for (let n = 0; n < 4; n++) more.push(await t.factory.token(me.user.id));
    await createdInOrder([me, ...more].map((account) => account.tokenId));
    const other = await t.factory.account();
    await t.factory.token(other.user.id);
    await t.factory.token(other.user.id);

    const first = await call(me, 'GET', '/v1/user/tokens?limit=2&order=asc');
    expect(first.statusCode).toBe(200);
    expect(first.json().count).toBe(5);
    expect(first.json().items.map((token: { id: string }) => token.id)[0]).toBe(me.tokenId);
    const next = first.json().next.page as string;
    const second = await call(me, 'GET', `/v1/user/tokens?limit=2&order=asc&page=${next}`);
    const third = await call(me, 'GET', `/v1/user/tokens?limit=2&order=asc&page=${second.json().next.page}`);
    const ids = [...first.json().items, ...second.json().items, ...third.json().items].map(
      (token: { id: string }) => token.id,
    );
    expect(new Set(ids).size).toBe(5);
    expect(third.json().next).toBeUndefined();
    expect((await tokensOf(me.user.id)).map((row) => row.id).sort()).toEqual([...ids].sort());

    // Another user's list refuses it, as a tampered cursor.
    const foreign = await call(other, 'GET', `/v1/user/tokens?limit=2&order=asc&page=${next}`);
    expect(foreign.statusCode).toBe(400);
    const counted = await call(me, 'GET', '/v1/user/tokens?limit=0');
    expect(counted.json()).toEqual({ count: 5, items: [] });
  });

  it('refuses a missing, revoked or expired token with the same 401', async () => {
    const revoked = await t.factory.account();
    await revokeApiToken(t.db, systemClock, revoked.tokenId);
    const expired = await t.factory.account({ expiresAt: new Date(Date.now() - 1_000) });
    for (const account of [null, revoked, expired]) {
      const res = await call(account, 'GET', '/v1/user/tokens');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
  });

  it('needs the user:read scope, which user:write includes', async () => {
    const me = await t.factory.account({ scopes: ['space:read'] });
    const res = await call(me, 'GET', '/v1/user/tokens');
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('This token lacks the "user:read" scope this operation needs');
    const writer = await t.factory.token(me.user.id, { scopes: ['user:write'] });
    expect((await call(writer, 'GET', '/v1/user/tokens')).statusCode).toBe(200);
  });
});

describe('GET /v1/user/tokens/{tokenId}', () => {
  it('shows one of the caller’s tokens, and another user’s as an unknown id', async () => {
    const me = await t.factory.account();
    const other = await t.factory.account();
    const own = await call(me, 'GET', `/v1/user/tokens/${me.tokenId}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: me.tokenId, current: true, state: 'active' });
    expect(own.json()).not.toHaveProperty('token');

    const theirs = await call(me, 'GET', `/v1/user/tokens/${other.tokenId}`);
    const unknown = await call(me, 'GET', '/v1/user/tokens/AAAAAAAAAAAAAAAAAAAA');
    expect([theirs.statusCode, theirs.json()]).toEqual([404, NOT_YOURS]);
    expect([unknown.statusCode, unknown.json()]).toEqual([404, NOT_YOURS]);
  });
});

describe('POST /v1/user/tokens', () => {
  it('makes a token, shows its secret once, stores only its hash, and the token works', async () => {
    const me = await t.factory.account();
    const before = Date.now();
    const res = await create(me, { label: 'CI publishing', scopes: ['space:read', 'user:read'], expiresInDays: 90 });

    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(res.headers.location).toBe(`${PUBLIC_URL}/v1/user/tokens/${body.id}`);
    expect(body).toEqual({
      object: 'api-token',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      label: 'CI publishing',
      scopes: ['space:read', 'user:read'],
      state: 'active',
      current: false,
      createdAt: expect.any(String),
      expiresAt: new Date(Date.parse(body.createdAt) + 90 * DAY_MS).toISOString(),
      revokedAt: null,
      token: expect.stringMatching(/^quire_[A-Za-z0-9]{40}$/),
    });
    expect(Date.parse(body.createdAt)).toBeGreaterThanOrEqual(before - 1);

    // Stored: the SHA-256 of the secret, nowhere the secret itself.
    const row = await t.db.selectFrom('api_tokens').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row.token_hash.equals(createHash('sha256').update(body.token).digest())).toBe(true);
    const { rows } = await sql<{
      text: string;
    }>`select t::text as text from api_tokens t where id = ${body.id}`.execute(t.db);
    expect(rows[0]!.text).not.toContain(body.token);

    // The secret authenticates as its user, within its scopes.
    const created = bearer(body.token);
    const user = await call(created, 'GET', '/v1/user');
    expect([user.statusCode, user.json().id]).toEqual([200, me.user.id]);
    expect((await call(created, 'POST', '/v1/orgs', { title: 'Not allowed' })).statusCode).toBe(403);

    // Shown once: reading it again never gives the secret.
    const again = await call(me, 'GET', `/v1/user/tokens/${body.id}`);
    const { token: _secret, ...shown } = body;
    expect(again.json()).toEqual(shown);
    expect((await call(me, 'GET', '/v1/user/tokens')).body).not.toContain(body.token);
    expect((await call(created, 'GET', `/v1/user/tokens/${body.id}`)).json().current).toBe(true);
  });

  it('gives the calling token’s scopes when none are named, and never expires without an expiry', async () => {
    const me = await t.factory.account({ scopes: ['user:write', 'space:read'] });
    const res = await create(me, { label: 'Inherits' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ scopes: ['user:write', 'space:read'], expiresAt: null });

    const full = await t.factory.token(me.user.id);
    const unlimited = await create(full, { label: 'Everything', scopes: null });
    expect([unlimited.statusCode, unlimited.json().scopes]).toEqual([201, null]);
    const anything = await create(full, { label: 'Anything', scopes: [...SCOPES] });
    expect(anything.statusCode).toBe(201);
  });

  it('accepts an expiry date within ten years', async () => {
    const me = await t.factory.account();
    const expiresAt = new Date(Date.now() + 30 * DAY_MS).toISOString();
    const res = await create(me, { label: 'Dated', expiresAt });
    expect([res.statusCode, res.json().expiresAt]).toEqual([201, expiresAt]);
  });

  it.each([
    ['no label', {}, 'body/label'],
    ['an empty label', { label: '' }, 'body/label'],
    ['a label over 50 characters', { label: 'x'.repeat(51) }, 'body/label'],
    ['an unknown scope', { label: 'x', scopes: ['space:admin'] }, 'body/scopes/0'],
    ['no scopes in a list', { label: 'x', scopes: [] }, 'body/scopes'],
    ['a scope twice', { label: 'x', scopes: ['space:read', 'space:read'] }, 'body/scopes'],
    ['zero days', { label: 'x', expiresInDays: 0 }, 'body/expiresInDays'],
    ['over ten years', { label: 'x', expiresInDays: 3651 }, 'body/expiresInDays'],
    ['part of a day', { label: 'x', expiresInDays: 1.5 }, 'body/expiresInDays'],
    ['an expiry in the past', { label: 'x', expiresAt: '2020-01-01T00:00:00.000Z' }, 'body/expiresAt'],
    [
      'an expiry too far ahead',
      { label: 'x', expiresAt: new Date(Date.now() + 3651 * DAY_MS).toISOString() },
      'body/expiresAt',
    ],
    ['an expiry that is no date', { label: 'x', expiresAt: 'tomorrow' }, 'body/expiresAt'],
    ['both kinds of expiry', { label: 'x', expiresInDays: 1, expiresAt: '2099-01-01T00:00:00.000Z' }, 'body/expiresAt'],
    ['a field it does not know', { label: 'x', owner: 'someone' }, 'body/owner'],
  ])('refuses %s with a 400 naming the field, making nothing', async (_case, payload, field) => {
    const me = await t.factory.account();
    const res = await create(me, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(field);
    expect(await tokensOf(me.user.id)).toHaveLength(1);
  });

  it('never gives more than the calling token has: other scopes and full rights are a 403', async () => {
    const me = await t.factory.account({ scopes: ['user:write', 'space:write'] });
    const cases: Array<[object, number, string?]> = [
      [{ scopes: ['space:write', 'site:write'] }, 403, 'This token lacks the scope(s) site:write'],
      [{ scopes: ['organization:members:write'] }, 403, 'This token lacks the scope(s) organization:members:write'],
      [{ scopes: null }, 403, 'This token has scopes, so it cannot give full rights'],
      // A :write scope gives its :read.
      [{ scopes: ['space:read'] }, 201],
      [{ scopes: ['user:write', 'space:write'] }, 201],
    ];
    for (const [fields, status, message] of cases) {
      const res = await create(me, { label: 'Narrow', ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(status);
      if (message) expect(res.json().error.message).toContain(message);
    }
    expect((await tokensOf(me.user.id)).map((row) => row.scopes)).toEqual(
      expect.arrayContaining([['space:read'], ['user:write', 'space:write']]),
    );
    expect(await tokensOf(me.user.id)).toHaveLength(3);

    // Without user:write a token makes no token at all, not even a narrower one.
    const reader = await t.factory.token(me.user.id, { scopes: ['user:read', 'space:read'] });
    const refused = await create(reader, { label: 'Nope', scopes: ['space:read'] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('This token lacks the "user:write" scope this operation needs');
  });

  it('bounds the live tokens of a user at 100; revoked and expired ones do not count', async () => {
    const me = await t.factory.account();
    await t.factory.token(me.user.id, { expiresAt: new Date(Date.now() - 1_000) });
    for (let n = 0; n < 99; n++) await t.factory.token(me.user.id);
    const full = await create(me, { label: 'One too many' });
    expect(full.statusCode).toBe(409);
    expect(full.json().error.message).toBe(
      'You have 100 live tokens, the most one user may have; revoke one before making another',
    );
    expect(await tokensOf(me.user.id)).toHaveLength(101);

    const [spare] = (await tokensOf(me.user.id)).filter((row) => row.id !== me.tokenId && !row.expires_at);
    expect((await call(me, 'DELETE', `/v1/user/tokens/${spare!.id}`)).statusCode).toBe(204);
    expect((await create(me, { label: 'Room again' })).statusCode).toBe(201);
  });

  it('is refused to a token revoked on another instance, even while this one still caches it', async () => {
    const app = await buildOwnApp(testConfig(t.database.url, { authCacheTtlMs: 60_000 }));
    try {
      const me = await t.factory.account();
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);
      await revokeApiToken(t.db, systemClock, me.tokenId);
      // Still cached for reads here; making a token checks the database.
      expect((await app.inject({ method: 'GET', url: '/v1/user', headers: me.headers })).statusCode).toBe(200);
      const res = await app.inject({
        method: 'POST',
        url: '/v1/user/tokens',
        headers: me.headers,
        payload: { label: 'Persistence' },
      });
      expect([res.statusCode, res.json()]).toEqual([401, UNAUTHORIZED]);
      expect(await tokensOf(me.user.id)).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});

describe('DELETE /v1/user/tokens/{tokenId}', () => {
  it('revokes the caller’s token, which stops working; revoking it again changes nothing', async () => {
    const me = await t.factory.account();
    const spare = await t.factory.token(me.user.id);
    const res = await call(me, 'DELETE', `/v1/user/tokens/${spare.tokenId}`);
    expect([res.statusCode, res.body]).toEqual([204, '']);
    expect((await call(spare, 'GET', '/v1/user')).json()).toEqual(UNAUTHORIZED);

    const shown = (await call(me, 'GET', `/v1/user/tokens/${spare.tokenId}`)).json();
    expect(shown).toMatchObject({ state: 'revoked', revokedAt: expect.any(String) });
    const again = await call(me, 'DELETE', `/v1/user/tokens/${spare.tokenId}`);
    expect(again.statusCode).toBe(204);
    expect((await call(me, 'GET', `/v1/user/tokens/${spare.tokenId}`)).json().revokedAt).toBe(shown.revokedAt);

    // A token may revoke itself.
    expect((await call(me, 'DELETE', `/v1/user/tokens/${me.tokenId}`)).statusCode).toBe(204);
    expect((await call(me, 'GET', '/v1/user')).statusCode).toBe(401);
  });

  it('answers another user’s token as an unknown id, and leaves it working', async () => {
    const me = await t.factory.account();
    const other = await t.factory.account();
    const res = await call(me, 'DELETE', `/v1/user/tokens/${other.tokenId}`);
    expect([res.statusCode, res.json()]).toEqual([404, NOT_YOURS]);
    const unknown = await call(me, 'DELETE', '/v1/user/tokens/AAAAAAAAAAAAAAAAAAAA');
    expect([unknown.statusCode, unknown.json()]).toEqual([404, NOT_YOURS]);
    expect((await tokensOf(other.user.id))[0]!.revoked_at).toBeNull();
    expect((await call(other, 'GET', '/v1/user')).statusCode).toBe(200);
  });

  it('lets a scoped token revoke only tokens within its scopes', async () => {
    const me = await t.factory.account();
    const scoped = await t.factory.token(me.user.id, { scopes: ['user:write', 'space:write'] });
    const narrower = await t.factory.token(me.user.id, { scopes: ['space:read'] });
    const wider = await t.factory.token(me.user.id, { scopes: ['user:write', 'site:write'] });

    const refused = await call(scoped, 'DELETE', `/v1/user/tokens/${me.tokenId}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('This token cannot revoke a token with rights it does not have itself');
    expect((await call(scoped, 'DELETE', `/v1/user/tokens/${wider.tokenId}`)).statusCode).toBe(403);
    expect((await call(scoped, 'DELETE', `/v1/user/tokens/${narrower.tokenId}`)).statusCode).toBe(204);
    const states = Object.fromEntries((await tokensOf(me.user.id)).map((row) => [row.id, row.revoked_at !== null]));
    expect(states).toEqual({
      [me.tokenId]: false,
      [scoped.tokenId]: false,
      [narrower.tokenId]: true,
      [wider.tokenId]: false,
    });
  });
});

describe('tokens over a real server', () => {
  it('makes a token, uses it, and revokes it with immediate effect despite the token cache', async () => {
    const app = await buildOwnApp(testConfig(t.database.url, { authCacheTtlMs: 60_000 }));
    try {
      const base = await listen(app);
      const me = await t.factory.account();
      const send = (token: string, method: string, path: string, body?: object) =>
        fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });

      const made = await send(me.token, 'POST', '/v1/user/tokens', { label: 'Over HTTP', expiresInDays: 1 });
      expect(made.status).toBe(201);
      const { id, token } = (await made.json()) as { id: string; token: string };
      expect(made.headers.get('location')).toBe(`${PUBLIC_URL}/v1/user/tokens/${id}`);

      // Used, so this instance caches it.
      const user = await send(token, 'GET', '/v1/user');
      expect(user.status).toBe(200);
      expect(((await user.json()) as { id: string }).id).toBe(me.user.id);

      const listed = (await (await send(token, 'GET', '/v1/user/tokens')).text()) as string;
      expect(listed).toContain(id);
      expect(listed).not.toContain(token);

      const revoked = await send(me.token, 'DELETE', `/v1/user/tokens/${id}`);
      expect(revoked.status).toBe(204);
      const after = await send(token, 'GET', '/v1/user');
      expect(after.status).toBe(401);
      expect(await after.json()).toEqual(UNAUTHORIZED);
    } finally {
      await app.close();
    }
  });
});

describe('POST /v1/orgs/{organizationId}/members/{userId}/tokens', () => {
  /** An organization with a member the operator added (the CLI), who has no token yet. */
  async function withNewcomer(adminScopes?: string[]) {
    const team = await t.factory.team(['edit']);
    const admin = adminScopes ? await t.factory.token(team.admin.user.id, { scopes: adminScopes }) : team.admin;
    const email = `newcomer-${team.organization.id.toLowerCase()}@example.com`;
    const newcomer = (await t.factory.user({ email })).id;
    await t.factory.member(team.organization.id, newcomer, 'edit');
    const url = `/v1/orgs/${team.organization.id}/members/${newcomer}/tokens`;
    return { ...team, admin, newcomer, email, url };
  }

  it('issues a member a first token for a day, bound to the organization, shown once and recorded as an event', async () => {
    const { admin, organization, newcomer, email, url } = await withNewcomer();
    const res = await call(admin, 'POST', url, {});

    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      object: 'api-token',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      label: 'Issued by an admin',
      scopes: null,
      state: 'active',
      current: false,
      createdAt: expect.any(String),
      expiresAt: new Date(Date.parse(body.createdAt) + DAY_MS).toISOString(),
      revokedAt: null,
      token: expect.stringMatching(/^quire_/),
    });
    const [stored] = await t.db.selectFrom('api_tokens').selectAll().where('user_id', '=', newcomer).execute();
    expect(stored!.id).toBe(body.id);
    expect(stored!.organization_id).toBe(organization.id);
    expect(stored!.token_hash.equals(createHash('sha256').update(body.token).digest())).toBe(true);

    const events = await eventsOf(organization.id);
    expect(events).toEqual([
      {
        type: 'member_token_issued',
        actor_id: admin.user.id,
        user_id: newcomer,
        details: { tokenId: body.id, label: 'Issued by an admin', scopes: null, expiresAt: body.expiresAt },
        created_at: new Date(body.createdAt),
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(body.token);

    // The newcomer is in: they read who they are and their organization, make no token, and drop the issued one.
    const issued = bearer(body.token);
    expect((await call(issued, 'GET', '/v1/user')).json()).toMatchObject({ id: newcomer, email });
    expect((await call(issued, 'GET', `/v1/orgs/${organization.id}`)).statusCode).toBe(200);
    const own = await create(issued, { label: 'My laptop' });
    expect(own.statusCode).toBe(403);
    expect(await tokensOf(newcomer)).toHaveLength(1);
    expect((await call(issued, 'DELETE', `/v1/user/tokens/${body.id}`)).statusCode).toBe(204);
    expect((await call(issued, 'GET', '/v1/user')).statusCode).toBe(401);
  });

  it('issues within the calling token’s scopes: named ones it has, or its own by default', async () => {
    const scopes = ['organization:members:write', 'space:write'];
    const narrowed = await withNewcomer(scopes);
    const refused: Array<[object, string]> = [
      [{ scopes: null }, 'This token has scopes, so it cannot give full rights'],
      [{ scopes: ['site:write'] }, 'This token lacks the scope(s) site:write'],
    ];
    for (const [payload, message] of refused) {
      const res = await call(narrowed.admin, 'POST', narrowed.url, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toContain(message);
    }
    expect(await tokensOf(narrowed.newcomer)).toEqual([]);
    const res = await call(narrowed.admin, 'POST', narrowed.url, { label: 'Read only', scopes: ['space:read'] });
    expect([res.statusCode, res.json().scopes, res.json().label]).toEqual([201, ['space:read'], 'Read only']);

    const inherited = await withNewcomer(scopes);
    const byDefault = await call(inherited.admin, 'POST', inherited.url, { expiresInHours: 12 });
    expect(byDefault.json()).toMatchObject({ scopes });
  });

  it('refuses a member who has a live token with a 409, and issues again once theirs have expired', async () => {
    const { admin, organization, newcomer, url } = await withNewcomer();
    expect((await call(admin, 'POST', url, {})).statusCode).toBe(201);
    const again = await call(admin, 'POST', url, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      'This member already has a live token: an admin may only issue a first one; they make more themselves with POST /v1/user/tokens',
    );
    // Not even to the admin, who has one.
    const self = await call(admin, 'POST', `/v1/orgs/${organization.id}/members/${admin.user.id}/tokens`, {});
    expect(self.statusCode).toBe(409);
    expect(await tokensOf(newcomer)).toHaveLength(1);
    expect(await eventsOf(organization.id)).toHaveLength(1);

    await t.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1_000) })
      .where('user_id', '=', newcomer)
      .execute();
    expect((await call(admin, 'POST', url, {})).statusCode).toBe(201);
  });

  it('is for the organization’s admins: 403 to its other members, 404 to everyone else', async () => {
    const { member, newcomer, url, organization } = await withNewcomer();
    const notAdmin = await call(member('edit'), 'POST', url, {});
    expect(notAdmin.statusCode).toBe(403);
    expect(notAdmin.json().error.message).toBe('Issuing a token to a member needs the admin role in the organization');

    const elsewhere = await t.factory.team();
    const outsider = await call(elsewhere.admin, 'POST', url, {});
    const nowhere = await call(elsewhere.admin, 'POST', `/v1/orgs/AAAAAAAAAAAAAAAAAAAA/members/${newcomer}/tokens`, {});
    expect([outsider.statusCode, outsider.json()]).toEqual([nowhere.statusCode, nowhere.json()]);
    expect(outsider.statusCode).toBe(404);

    // The outsider's own organization does not have the newcomer.
    const notTheirs = await call(
      elsewhere.admin,
      'POST',
      `/v1/orgs/${elsewhere.organization.id}/members/${newcomer}/tokens`,
      {},
    );
    expect([notTheirs.statusCode, notTheirs.json().error.message]).toEqual([
      404,
      'No member with this id in the organization',
    ]);

    const narrow = await t.factory.token(elsewhere.admin.user.id, { scopes: ['organization:members:read'] });
    expect((await call(narrow, 'POST', url, {})).statusCode).toBe(403);
    expect(await tokensOf(newcomer)).toEqual([]);
    expect(await eventsOf(organization.id)).toEqual([]);
    expect(await eventsOf(elsewhere.organization.id)).toEqual([]);
  });

  it('refuses a member of another organization too, whose token would reach it', async () => {
    const { admin, newcomer, url, organization } = await withNewcomer();
    const other = await t.factory.team();
    await t.factory.member(other.organization.id, newcomer, 'read');
    const res = await call(admin, 'POST', url, {});
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toContain('also belongs to another organization');
    expect(await tokensOf(newcomer)).toEqual([]);
    expect(await eventsOf(organization.id)).toEqual([]);
  });

  it('refuses a disabled member, and expiries beyond 24 hours', async () => {
    const { admin, newcomer, url, organization } = await withNewcomer();
    const cases: Array<[object, number, string]> = [
      [{ expiresInHours: 25 }, 400, 'body/expiresInHours'],
      [{ expiresInDays: 1 }, 400, 'body/expiresInDays'],
      [{ expiresAt: new Date(Date.now() + DAY_MS + 60_000).toISOString() }, 400, 'body/expiresAt'],
      [{ label: 'x'.repeat(51) }, 400, 'body/label'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call(admin, 'POST', url, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.message).toContain(message);
    }
    await t.db
      .updateTable('organization_members')
      .set({ disabled: true })
      .where('organization_id', '=', organization.id)
      .where('user_id', '=', newcomer)
      .execute();
    const disabled = await call(admin, 'POST', url, {});
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().error.message).toContain('disabled');
    expect(await tokensOf(newcomer)).toEqual([]);
    expect(await eventsOf(organization.id)).toEqual([]);
  });
});
