import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, nestsDeeperThan } from '../src/core/json-depth.js';
import { DOCUMENT_LIMITS } from '../src/document/index.js';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { finishes } from './support/hang-guard.js';

const arrays = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deeper = (json: string, limit = JSON_MAX_DEPTH) => nestsDeeperThan(Buffer.from(json), limit);

describe('the nesting scan', () => {
  it('counts arrays and objects, and lets a body exactly at the limit through', () => {
    expect(deeper(arrays(JSON_MAX_DEPTH))).toBe(false);
    expect(deeper(arrays(JSON_MAX_DEPTH + 1))).toBe(true);
    expect(deeper(objects(JSON_MAX_DEPTH))).toBe(false);
    expect(deeper(objects(JSON_MAX_DEPTH + 1))).toBe(true);
    // Mixed, and siblings do not add up: depth is the deepest point, not a count.
    expect(deeper('{"a":[{"b":[1]}],"c":[[[]]]}', 4)).toBe(false);
    expect(deeper('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
    expect(deeper(`[${Array.from({ length: 1000 }, () => arrays(3)).join(',')}]`, 4)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(deeper(JSON.stringify({ text: '['.repeat(10_000) }))).toBe(false);
    expect(deeper(JSON.stringify({ text: `"${'{'.repeat(10_000)}` }))).toBe(false);
    expect(deeper(JSON.stringify({ text: `\\"${'['.repeat(10_000)}\\` }))).toBe(false);
    expect(deeper(JSON.stringify({ [`key ${'['.repeat(500)}`]: 1 }))).toBe(false);
    // An escaped backslash ends before the quote: what follows is outside the string again.
    expect(deeper(`["a\\\\",${arrays(JSON_MAX_DEPTH)}]`)).toBe(true);
    expect(deeper(`["a\\"",${arrays(JSON_MAX_DEPTH - 1)}]`)).toBe(false);
  });

  it('agrees with a byte-by-byte reading on any text, long strings and runs of escapes included', () => {
    /** The plain state machine: in a string or not, a backslash escaping the next byte. */
    const reference = (text: string, limit: number) => {
      let depth = 0;
      for (let at = 0; at < text.length; at++) {
        const char = text[at];
        if (char === '"') {
          for (at++; at < text.length && text[at] !== '"'; at++) if (text[at] === '\\') at++;
          if (at >= text.length) return false;
        } else if (char === '[' || char === '{') {
          if (++depth > limit) return true;
        } else if (char === ']' || char === '}') depth--;
      }
      return false;
    };
    const piece = fc.constantFrom('[', ']', '{', '}', '"', '\\', '\\\\\\"', 'a', ',', 'word '.repeat(30));
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 20, maxLength: 400, size: 'max' }),
        fc.integer({ min: 0, max: 8 }),
        (pieces, limit) => {
          const text = pieces.join('');
          expect(deeper(text, limit)).toBe(reference(text, limit));
        },
      ),
      { seed: 17, numRuns: 2000 },
    );
  });

  it('leaves malformed text to the parser', () => {
    expect(deeper(`"${'['.repeat(10_000)}`)).toBe(false);
    expect(deeper(`${']'.repeat(10)}${arrays(JSON_MAX_DEPTH)}`)).toBe(false);
  });

  // About 30 ms each on an idle core; a scan that went back over what it read would take minutes.
  it('reads 5 MiB in one linear pass, whatever the escapes', () => {
    const shapes = [
      JSON.stringify({ markdown: 'word '.repeat(1024 * 1024) }),
      `["${'\\"'.repeat(2 * 1024 * 1024)}"]`,
      `["${'\\\\'.repeat(2 * 1024 * 1024)}"]`,
      `[${'"",'.repeat(1024 * 1024)}""]`,
      arrays(2 * 1024 * 1024),
    ];
    for (const json of shapes) {
      const bytes = Buffer.from(json);
      finishes(() => nestsDeeperThan(bytes, JSON_MAX_DEPTH), json.slice(0, 20));
    }
  });

  it('leaves room for the deepest JSON document and its envelope', () => {
    expect(JSON_MAX_DEPTH).toBeGreaterThanOrEqual(DOCUMENT_LIMITS.depth + 8);
  });
});

describe('request bodies nested too deeply', () => {
  const t = useTestApp();
  let admin: Account;
  let organizationId: string;
  const tooDeep = {
    error: {
      code: 400,
      message: `The request body nests too deeply: more than ${JSON_MAX_DEPTH} levels of objects and arrays`,
    },
  };

  beforeAll(async () => {
    const team = await t.factory.team();
    admin = team.admin;
    organizationId = team.organization.id;
  });

  const createSpace = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organizationId}/spaces`,
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload,
    });
  const spaces = async () =>
    (await t.db.selectFrom('spaces').select('id').where('organization_id', '=', organizationId).execute()).length;

  it('are refused with a 400 naming the limit, before parsing, and change nothing', async () => {
    const before = await spaces();
    for (const payload of [
      `{"title":"Deep","extra":${arrays(JSON_MAX_DEPTH)}}`,
      `{"title":"Deep","extra":${objects(JSON_MAX_DEPTH)}}`,
      // Two MiB of `[`: what takes the parser over a second, refused in one scan.
      arrays(1024 * 1024),
    ]) {
      const res = await createSpace(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(tooDeep);
    }
    expect(await spaces()).toBe(before);
  });

  it('are read up to the limit, and answered by the schema', async () => {
    // The body's own object is one level: the field holds the other 255.
    const atLimit = await createSpace(`{"title":"Deep","extra":${arrays(JSON_MAX_DEPTH - 1)}}`);
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json().error.message).toBe('body/extra is not an accepted field');
    const text = await createSpace(JSON.stringify({ title: `Brackets ${'[{'.repeat(20)}` }));
    expect(text.statusCode, text.body).toBe(201);
    expect(text.json().title).toBe(`Brackets ${'[{'.repeat(20)}`);
  });
});
