import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { DeferredCompilations } from '../src/core/deferred-compilation.js';
import { listSerializerFactory } from '../src/core/list-serializer.js';
import { ListEnvelope } from '../src/core/schemas.js';
import { useTestApp } from './support/app.js';
import { expectSpecResponse } from './support/spec.js';

const Note = Type.Object(
  {
    id: Type.String(),
    text: Type.String(),
    when: Type.String({ format: 'date-time' }),
    tags: Type.Array(Type.String()),
  },
  { $id: 'Note' },
);
const externals = { Note };
const route = { method: 'GET', url: '/notes', httpStatus: '200' };
const schema = ListEnvelope(Type.Ref(Note));

const plain = SerializerSelector()(externals, {})({ ...route, schema });
const byItems = listSerializerFactory(new DeferredCompilations())(externals, {})({ ...route, schema });

/** What a serialiser answered, as the bytes Fastify sends. */
const bytesOf = (answer: unknown) => (Buffer.isBuffer(answer) ? answer : Buffer.from(answer as string));

const note = (i: number, text: string) => ({
  id: `n${i}`,
  text,
  when: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  tags: ['a', 'b'],
  // Not in the schema: the serialiser leaves it out.
  secret: 'x',
});

describe('list serialiser', () => {
  const pages = {
    'no items': { count: 0, items: [] },
    'a small page': { count: 3, items: [note(1, 'one'), note(2, 'two "quoted"'), note(3, 'three')] },
    'a large page of Latin-1 text': {
      count: 90,
      next: { page: 'abc.def' },
      items: Array.from({ length: 40 }, (_, i) => note(i, 'é'.repeat(3000))),
    },
    'a large page of two-byte text': {
      count: 40,
      next: { page: 'abc.def' },
      items: Array.from({ length: 40 }, (_, i) => note(i, `${'ж'.repeat(2000)} 👍`)),
    },
    'items whose text holds what marks the items key': {
      count: 2,
      items: [note(1, '"items":[] and {"items":[]}'), note(2, `${'😀'.repeat(40000)}"items":[]`)],
    },
  };

  for (const [name, page] of Object.entries(pages)) {
    it(`writes the same bytes as the whole serialiser: ${name}`, () => {
      const expected = Buffer.from(plain(page));
      const answer = byItems(page);
      expect(bytesOf(answer).equals(expected)).toBe(true);
      expect(JSON.parse(expected.toString('utf8'))).not.toHaveProperty('items.0.secret');
    });
  }

  it('answers a large page as bytes and a small one as text', () => {
    expect(Buffer.isBuffer(byItems(pages['a large page of two-byte text']))).toBe(true);
    expect(typeof byItems(pages['a small page'])).toBe('string');
  });

  it('answers as bytes a page a little short of 64K characters, which as text would be at the edge', () => {
    const page = { count: 30, items: Array.from({ length: 30 }, (_, i) => note(i, 'ж'.repeat(2000))) };
    const text = plain(page);
    expect(text.length).toBeGreaterThan(58 * 1024);
    expect(text.length).toBeLessThan(64 * 1024);
    const answer = byItems(page);
    expect(Buffer.isBuffer(answer)).toBe(true);
    expect(bytesOf(answer).equals(Buffer.from(text))).toBe(true);
  });

  it('leaves any other schema to the whole serialiser', () => {
    const other = Type.Object({ items: Type.Array(Type.String()), title: Type.String() });
    const serialize = listSerializerFactory(new DeferredCompilations())(externals, {})({ ...route, schema: other });
    const value = { items: ['ж'.repeat(70000)], title: 't' };
    expect(typeof serialize(value)).toBe('string');
    expect(serialize(value)).toBe(JSON.stringify(value));
  });
});

describe('a large page over HTTP', () => {
  const t = useTestApp();

  it('comes whole, with its length, and as the spec describes it', async () => {
    const team = await t.factory.team([]);
    const space = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${team.organization.id}/spaces`,
      headers: team.admin.headers,
      payload: { title: 'Большой' },
    });
    const comments = `/v1/spaces/${space.json<{ id: string }>().id}/comments`;
    // Four comments of 20,000 two-byte characters: a page of more than 64K.
    const bodies = Array.from({ length: 4 }, (_, i) => `${'ж'.repeat(20_000)} ${i} 👍`);
    for (const markdown of bodies) {
      const posted = await t.app.inject({
        method: 'POST',
        url: comments,
        headers: team.admin.headers,
        payload: { body: { markdown } },
      });
      expect(posted.statusCode).toBe(200);
    }

    const listed = await t.app.inject({ method: 'GET', url: comments, headers: team.admin.headers });
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(listed.headers['content-length'])).toBe(listed.rawPayload.length);
    const page = listed.json<{ count: number; items: Array<{ body: { markdown: string } }> }>();
    expect(page.count).toBe(4);
    expect(page.items.map((item) => item.body.markdown.trim()).sort()).toEqual(bodies.sort());
    expectSpecResponse('listCommentsInSpace', 200, page);
  });
});
