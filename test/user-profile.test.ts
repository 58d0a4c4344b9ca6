import { readFile } from 'node:fs/promises';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATIONS_AUDIENCE, verifyNotificationsToken } from '../src/users/notifications-token.js';
import { useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;

beforeAll(async () => {
  team = await t.factory.team(['read']);
});

const client = newestClientOf(() => t.app);

const patchUser = (account: Account | undefined, userId: string, payload: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/v1/users/${userId}`,
    headers: account?.headers ?? {},
    payload: payload as object,
  });

const userRow = (userId: string) =>
  t.db.selectFrom('users').select(['display_name', 'photo_url']).where('id', '=', userId).executeTakeFirstOrThrow();

describe('updateUserById', () => {
  it('changes the caller’s own name and photo, as the spec answers, through the newest client too', async () => {
    const me = await t.factory.account({ name: 'Ada Lovelace' });
    const getUser = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: '/v1/user', headers: { ...me.headers, ...headers } });
    // The profile as read before: kept for the token, with its ETag, which a client holding it revalidates.
    const before = await getUser();
    expect(before.json().displayName).toBe('Ada Lovelace');
    const held = { 'if-none-match': String(before.headers.etag) };
    expect((await getUser(held)).statusCode).toBe(304);
    const res = await patchUser(me, me.user.id, { displayName: '  Ada King  ', photoURL: 'https://example.com/a.png' });
    expect(res.statusCode, res.body).toBe(200);
    expectNewestSpecResponse('updateUserById', 200, res.json());
    expect(res.json()).toEqual({
      object: 'user',
      id: me.user.id,
      displayName: 'Ada King',
      email: me.user.email,
      photoURL: 'https://example.com/a.png',
      urls: { location: expect.stringMatching(new RegExp(`/v1/users/${me.user.id}$`)) },
    });
    expect(await userRow(me.user.id)).toEqual({ display_name: 'Ada King', photo_url: 'https://example.com/a.png' });
    // The calling token sees its new name at once, under a new ETag.
    const after = await getUser(held);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ displayName: 'Ada King', photoURL: 'https://example.com/a.png' });
    expect(after.headers.etag).not.toBe(before.headers.etag);

    const { data } = await (await client(me)).users.updateUserById(me.user.id, { displayName: 'Countess' });
    expectNewestSpecResponse('updateUserById', 200, data);
    expect(data).toMatchObject({ id: me.user.id, displayName: 'Countess', photoURL: 'https://example.com/a.png' });
    expect(await userRow(me.user.id)).toEqual({ display_name: 'Countess', photo_url: 'https://example.com/a.png' });
  });

  it('never changes another user: 403 for one who shares an organization, 404 for anyone else', async () => {
    const reader = team.member('read');
    const before = await userRow(reader.user.id);
    const byAdmin = await patchUser(team.admin, reader.user.id, { displayName: 'Renamed by the admin' });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json()).toEqual({
      error: { code: 403, message: 'A user’s profile can be changed only by that user' },
    });
    const stranger = await t.factory.account();
    const byStranger = await patchUser(stranger, reader.user.id, { displayName: 'Renamed by a stranger' });
    expect(byStranger.statusCode).toBe(404);
    expect(byStranger.json().error.message).toBe('No user with this id is visible to you');
    expect((await patchUser(stranger, 'NoSuchUser000000000', { displayName: 'X' })).statusCode).toBe(404);
    expect(await userRow(reader.user.id)).toEqual(before);
  });

  it('refuses bad bodies, a missing token, a token without user:write and a token an admin issued', async () => {
    const me = await t.factory.account({ name: 'Grace Hopper' });
    const before = await userRow(me.user.id);
    const bad: Array<[unknown, RegExp]> = [
      [{}, /body must NOT have fewer than 1 properties/],
      [{ displayName: '' }, /body\/displayName must NOT have fewer than 1 characters/],
      [{ displayName: '   ' }, /body\/displayName must match pattern/],
      [{ displayName: 'x'.repeat(65) }, /body\/displayName must NOT have more than 64 characters/],
      [{ photoURL: 'javascript:alert(1)' }, /body\/photoURL must match pattern/],
      [{ photoURL: 'not a url' }, /body\/photoURL/],
      [{ email: 'taken@example.com' }, /body must NOT have additional properties|body\/email/],
    ];
    for (const [payload, message] of bad) {
      const res = await patchUser(me, me.user.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await patchUser(undefined, me.user.id, { displayName: 'Anonymous' })).statusCode).toBe(401);
    const narrow = await t.factory.token(me.user.id, { scopes: ['user:read'] });
    expect((await patchUser(narrow, me.user.id, { displayName: 'Narrow' })).statusCode).toBe(403);
    expect(await userRow(me.user.id)).toEqual(before);
  });

  it('a token an admin issued to a member cannot change the member’s profile', async () => {
    const member = { user: await t.factory.user() };
    await t.factory.member(team.organization.id, member.user.id, 'read');
    const issued = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${team.organization.id}/members/${member.user.id}/tokens`,
      headers: team.admin.headers,
      payload: { label: 'Issued' },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const token = issued.json().token as string;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/users/${member.user.id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { displayName: 'Through the admin' },
    });
    expect(res.statusCode).toBe(403);
    expect((await userRow(member.user.id)).display_name).not.toBe('Through the admin');
  });
});

describe('createUserNotificationsToken', () => {
  it('answers a short-lived JWT for the caller alone, signed by the service, as the spec answers', async () => {
    const me = await t.factory.account();
    const res = await t.app.inject({ method: 'POST', url: '/v1/user/notifications/token', headers: me.headers });
    expect(res.statusCode, res.body).toBe(200);
    expectNewestSpecResponse('createUserNotificationsToken', 200, res.json());
    const { token } = res.json() as { token: string };
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: me.user.id, aud: NOTIFICATIONS_AUDIENCE, scope: 'notifications:read' });
    expect(claims.exp! - claims.iat!).toBe(3600);
    const issuer = { serviceSecret: t.app.context.serviceSecret, issuer: t.app.context.config.publicUrl };
    expect(await verifyNotificationsToken(token, { ...issuer, now: new Date(claims.iat! * 1000) })).toBe(me.user.id);
    // Expired, tampered with, or signed under another secret: not the caller's.
    expect(await verifyNotificationsToken(token, { ...issuer, now: new Date((claims.exp! + 1) * 1000) })).toBe(
      undefined,
    );
    const [head, body, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'SomeoneElse000000000' })).toString('base64url');
    const now = new Date(claims.iat! * 1000);
    expect(await verifyNotificationsToken(`${head}.${forged}.${signature}`, { ...issuer, now })).toBe(undefined);
    expect(
      await verifyNotificationsToken(`${head}.${body}.${signature}`, { ...issuer, serviceSecret: 'other', now }),
    ).toBe(undefined);

    // It opens nothing of the API.
    const asBearer = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(asBearer.statusCode).toBe(401);

    const { data } = await (await client(me)).user.createUserNotificationsToken();
    expectNewestSpecResponse('createUserNotificationsToken', 200, data);
    expect(decodeJwt(data.token).sub).toBe(me.user.id);
  });

  it('needs a token with user:write of the user’s own', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/v1/user/notifications/token' })).statusCode).toBe(401);
    const me = await t.factory.account();
    const narrow = await t.factory.token(me.user.id, { scopes: ['user:read'] });
    const res = await t.app.inject({ method: 'POST', url: '/v1/user/notifications/token', headers: narrow.headers });
    expect(res.statusCode).toBe(403);
  });
});

describe('getApiInformation', () => {
  it('answers the release and the build date at /v1/, through the newest client too', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const res = await t.app.inject({ method: 'GET', url: '/v1/', headers: team.admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expectNewestSpecResponse('getApiInformation', 200, res.json());
    expect(res.json()).toEqual({ version, build: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    const { data } = await (await client(team.admin)).getApiInformation();
    expect(data).toEqual(res.json());
    expect((await t.app.inject({ method: 'GET', url: '/v1/' })).statusCode).toBe(401);
  });
});
