import { describe, expect, it } from 'vitest';
import { declaresUtf8, escapesAreUtf8, queryIsUtf8 } from '../src/core/input.js';
import { useTestApp } from './support/app.js';
import { finishes } from './support/hang-guard.js';

const t = useTestApp();

/** A JSON body with one raw byte that is not UTF-8 inside a string. */
function bodyWithByte(before: string, byte: number, after: string): Buffer {
  return Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from([byte]), Buffer.from(after, 'utf8')]);
}

async function organizationTitles(userId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('organizations as o')
    .innerJoin('organization_members as m', 'm.organization_id', 'o.id')
    .select('o.title')
    .where('m.user_id', '=', userId)
    .execute();
  return rows.map((row) => row.title);
}

describe('request bodies are UTF-8 JSON', () => {
  it('refuses a JSON body in another charset with 415 and creates nothing', async () => {
    const me = await t.factory.account();
    for (const contentType of [
      'application/json; charset=utf-16',
      'application/json; charset=UTF-16LE',
      'application/json; charset=latin1',
      'application/json; charset=ISO-8859-1',
      'application/json;charset="windows-1252"',
      'application/json; charset=utf-8; charset=utf-16',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/orgs',
        headers: { ...me.headers, 'content-type': contentType },
        payload: JSON.stringify({ title: 'Charset' }),
      });
      expect(res.statusCode, contentType).toBe(415);
      expect(res.json()).toEqual({
        error: {
          code: 415,
          message: 'The request body must be JSON in UTF-8 (Content-Type: application/json; charset=utf-8)',
        },
      });
    }
    expect(await organizationTitles(me.user.id)).toEqual([]);
  });

  it('takes a JSON body that names UTF-8, in any case and quoted or not, or no charset', async () => {
    const me = await t.factory.account();
    const contentTypes = [
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset="UTF-8"',
      'Application/JSON;Charset=Utf-8',
      'application/json; charset=utf8',
    ];
    for (const [i, contentType] of contentTypes.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/orgs',
        headers: { ...me.headers, 'content-type': contentType },
        payload: Buffer.from(JSON.stringify({ title: `Crème ${i} €` }), 'utf8'),
      });
      expect(res.statusCode, contentType).toBe(201);
      expect(res.json().title).toBe(`Crème ${i} €`);
    }
    expect((await organizationTitles(me.user.id)).sort()).toEqual(contentTypes.map((_, i) => `Crème ${i} €`));
  });

  it('refuses invalid UTF-8 in a body with 400 rather than storing U+FFFD', async () => {
    const me = await t.factory.account();
    // A lone continuation byte, a truncated sequence, an overlong '/', an encoded surrogate, and bytes no UTF-8 has.
    const bodies = [
      bodyWithByte('{"title": "Bad ', 0x80, ' byte"}'),
      bodyWithByte('{"title": "Bad ', 0xc3, '"}'),
      Buffer.concat([Buffer.from('{"title": "Bad '), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"title": "Bad '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
      bodyWithByte('{"title": "Bad ', 0xff, '"}'),
    ];
    for (const payload of bodies) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/orgs',
        headers: { ...me.headers, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload.toString('hex')).toBe(400);
      expect(res.json()).toEqual({ error: { code: 400, message: 'The request body is not valid UTF-8' } });
    }
    expect(await organizationTitles(me.user.id)).toEqual([]);
  });

  it('leaves a space title unchanged when the update has an invalid byte', async () => {
    const me = await t.factory.account();
    const org = await t.factory.organization(me.user.id);
    const space = (
      await t.app.inject({
        method: 'POST',
        url: `/v1/orgs/${org.id}/spaces`,
        headers: me.headers,
        payload: { title: 'Before' },
      })
    ).json();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: { ...me.headers, 'content-type': 'application/json; charset=utf-8' },
      payload: bodyWithByte('{"title": "After ', 0xfe, '"}'),
    });
    expect(res.statusCode).toBe(400);
    const stored = await t.db.selectFrom('spaces').select('title').where('id', '=', space.id).executeTakeFirstOrThrow();
    expect(stored.title).toBe('Before');
  });

  it('keeps Fastify’s protections: empty body, malformed JSON, prototype poisoning, body limit', async () => {
    const me = await t.factory.account();
    const headers = { ...me.headers, 'content-type': 'application/json' };
    const empty = await t.app.inject({ method: 'POST', url: '/v1/orgs', headers, payload: '' });
    expect(empty.json()).toEqual({
      error: { code: 400, message: 'The request body is empty: this operation takes a JSON body' },
    });
    const malformed = await t.app.inject({ method: 'POST', url: '/v1/orgs', headers, payload: '{"title": ' });
    expect(malformed.json()).toEqual({ error: { code: 400, message: 'The request body is not valid JSON' } });
    // A leading byte order mark is skipped, as before (by the JSON parser, once).
    const bom = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers,
      payload: Buffer.from('\uFEFF{"title": "Bom"}', 'utf8'),
    });
    expect(bom.statusCode).toBe(201);
    const twoBoms = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers,
      payload: Buffer.from('\uFEFF\uFEFF{"title": "Bom"}', 'utf8'),
    });
    expect(twoBoms.statusCode).toBe(400);
    for (const payload of [
      '{"title": "Proto", "__proto__": {"admin": true}}',
      '{"title": "Ctor", "constructor": {"prototype": {"admin": true}}}',
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/orgs', headers, payload });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error.code).toBe(400);
    }
    expect(await organizationTitles(me.user.id)).toEqual(['Bom']);
    const tooLarge = await t.app.inject({
      method: 'POST',
      url: '/v1/orgs',
      headers,
      payload: JSON.stringify({ title: 'x'.repeat(6 * 1024 * 1024) }),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      error: { code: 413, message: 'The request body is larger than this service accepts' },
    });
  });
});

describe('paths and query strings are UTF-8', () => {
  it('refuses a path whose escapes are not UTF-8 with 400 in the error body', async () => {
    const me = await t.factory.account();
    for (const url of [
      '/v1/spaces/%FF%FE',
      '/v1/spaces/abc%C3',
      '/v1/spaces/%C0%AF',
      '/v1/spaces/a%ED%A0%80',
      '/v1/orgs/%E2%82/spaces',
      '/v2/%FF',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: me.headers });
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({
        error: { code: 400, message: 'The request path is not valid percent-encoded UTF-8' },
      });
    }
  });

  it('refuses a query string whose escapes are not UTF-8 with 400, and reads one that is', async () => {
    const team = await t.factory.team();
    const base = `/v1/orgs/${team.organization.id}/members/${team.admin.user.id}/teams`;
    for (const query of [
      'title=%FF',
      'title=ab%C3',
      'title=%C3%28',
      '%FF=1',
      'limit=10&title=%E2%82',
      'title=%F0%9F%98',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `${base}?${query}`, headers: team.admin.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({
        error: { code: 400, message: 'The query string is not valid UTF-8 once percent-decoded' },
      });
    }
    for (const query of [
      'title=%E2%82%AC',
      'title=%F0%9F%98%80',
      'title=%25FF',
      'title=100%',
      'title=%zz',
      'title=caf%C3%A9+x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `${base}?${query}`, headers: team.admin.headers });
      expect(res.statusCode, query).toBe(200);
    }
  });
});

describe('input checks', () => {
  it('read a charset parameter as HTTP writes it', () => {
    expect(declaresUtf8('application/json')).toBe(true);
    expect(declaresUtf8('application/json; charset=UTF-8')).toBe(true);
    expect(declaresUtf8('application/json; foo=bar; charset="utf-8"')).toBe(true);
    expect(declaresUtf8('application/json; charset')).toBe(true);
    expect(declaresUtf8('application/json; CHARSET = utf-16')).toBe(false);
    expect(declaresUtf8('application/json; charset=""')).toBe(false);
  });

  it('check escapes as bytes, leaving a % that starts no escape alone', () => {
    expect(escapesAreUtf8('a=%41%42&b=%E2%82%AC')).toBe(true);
    expect(escapesAreUtf8('a=%e2%82%ac')).toBe(true);
    expect(escapesAreUtf8('a=%E2%82x%AC')).toBe(false);
    expect(escapesAreUtf8('a=%E2%8')).toBe(false);
    expect(escapesAreUtf8('a=%')).toBe(true);
    expect(queryIsUtf8('/v1/x/%FF')).toBe(true);
    expect(queryIsUtf8('/v1/x?a=%FF')).toBe(false);
  });

  it('cost little on a long query string', () => {
    const url = `/v1/x?q=${'%E2%82%AC'.repeat(40_000)}&r=${'%41'.repeat(40_000)}`;
    // One pass over it: a check that went back over the escapes it read would hang on this.
    expect(finishes(() => queryIsUtf8(url))).toBe(true);
  });
});
