import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpecProcessor, type SpecProcessor } from '../src/specs/worker.js';
import { useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let spaceId: string;
let processor: SpecProcessor;

const SPEC = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pets API', version: '1.2.0', description: 'All about pets.' },
  tags: [{ name: 'pets', description: 'Pets and their owners.' }],
  paths: {
    '/pets': {
      get: { tags: ['pets'], summary: 'List pets', responses: { 200: { description: 'OK' } } },
      post: { tags: ['pets'], summary: 'Add a pet', responses: { 201: { description: 'Created' } } },
    },
    '/health': { get: { summary: 'Health check', responses: { 200: { description: 'OK' } } } },
  },
  components: { schemas: { Pet: { type: 'object', description: 'A pet.' } } },
});

beforeAll(async () => {
  team = await t.factory.team(['read', null]);
  spaceId = (await api.createSpace(team.admin, team.organization.id, { title: 'API', visibility: 'public' })).id;
  processor = createSpecProcessor(t.app.context, { retryBaseMs: 20 });
  const put = await t.app.inject({
    method: 'PUT',
    url: `/v1/orgs/${team.organization.id}/openapi/pets`,
    headers: team.admin.headers,
    payload: { source: { text: SPEC } },
  });
  expect(put.statusCode, put.body).toBe(200);
  while (await processor.runNext());
});

afterAll(async () => {
  await processor?.close();
});

const client = newestClientOf(() => t.app);

const post = (account: Account | undefined, kind: 'document' | 'revision', payload: unknown, space = spaceId) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${space}/content/computed/${kind}`,
    headers: account?.headers ?? {},
    payload: payload as object,
  });

const dependencies = { spec: { ref: { kind: 'openapi', spec: 'pets' } } };
const openapi = (props: object) => ({ type: 'builtin:openapi', props, dependencies });
const textsOf = (value: unknown): string =>
  (JSON.stringify(value).match(/"text":"[^"]*"/g) ?? []).map((text) => text.slice(8, -1)).join(' ');

describe('getComputedDocument', () => {
  it('computes one page of the organization’s spec, as the spec answers, through the newest client too', async () => {
    const cases: Array<[object, string[]]> = [
      [{ doc: 'info', page: 'Pets API' }, ['Pets API', '1.2.0', 'All about pets.', 'pets']],
      [{ doc: 'operations', page: 'pets' }, ['Pets and their owners.', 'List pets', 'GET /pets', 'Add a pet']],
      [{ doc: 'tag', page: 'Other operations' }, ['Health check', 'GET /health']],
      [{ doc: 'operation', page: '/pets', method: 'post' }, ['Add a pet', 'POST /pets']],
      [{ doc: 'models' }, ['Pet', 'A pet.']],
    ];
    for (const [props, expected] of cases) {
      const res = await post(team.member('read'), 'document', { source: openapi(props), seed: 'seed-1' });
      expect(res.statusCode, res.body).toBe(200);
      expectNewestSpecResponse('getComputedDocument', 200, res.json());
      expect(res.json().object).toBe('document');
      for (const text of expected) expect(textsOf(res.json().nodes)).toContain(text);
    }
    const { data } = await (
      await client(team.admin)
    ).spaces.getComputedDocument(spaceId, {
      source: {
        type: 'builtin:openapi',
        props: { doc: 'models' },
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } },
      },
      seed: 'seed-1',
    });
    expectNewestSpecResponse('getComputedDocument', 200, data);
    expect(textsOf(data.nodes)).toContain('A pet.');
  });

  it('answers 400 for sources that cannot run here or are malformed, 404 for an unknown spec, tag or operation', async () => {
    const refused: Array<[object, RegExp]> = [
      [
        {
          type: 'builtin:translation',
          props: { space: 's', document: 'd' },
          dependencies: { translation: { ref: { kind: 'translation', translation: 't' } } },
        },
        /hosted translation service/,
      ],
      [{ type: 'integration:acme:pages', props: {} }, /integration computes in its own code/],
      [{ type: 'builtin:other', props: {} }, /body\/source\/type must be/],
      [openapi({ doc: 'operation', page: '/pets' }), /body\/source\/props/],
      [{ type: 'builtin:openapi', props: { doc: 'models' } }, /body\/source/],
    ];
    for (const [source, message] of refused) {
      const res = await post(team.admin, 'document', { source, seed: 's' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await post(team.admin, 'document', { source: openapi({ doc: 'models' }) })).statusCode).toBe(400);
    const missing = {
      source: { ...openapi({ doc: 'models' }), dependencies: { spec: { ref: { kind: 'openapi', spec: 'nope' } } } },
      seed: 's',
    };
    expect((await post(team.admin, 'document', missing)).statusCode).toBe(404);
    expect(
      (await post(team.admin, 'document', { source: openapi({ doc: 'tag', page: 'cats' }), seed: 's' })).statusCode,
    ).toBe(404);
    const operation = openapi({ doc: 'operation', page: '/pets', method: 'delete' });
    expect((await post(team.admin, 'document', { source: operation, seed: 's' })).statusCode).toBe(404);
  });

  it('is refused to visitors, guests, strangers and tokens without space:read', async () => {
    const body = { source: openapi({ doc: 'models' }), seed: 's' };
    const stranger = await t.factory.account();
    // A visitor of the public space reads its pages, not every spec of the organization.
    const visitor = await post(stranger, 'document', body);
    expect(visitor.statusCode).toBe(404);
    expect(visitor.body).not.toContain('Pet');
    const guest = await post(team.member(null), 'document', body);
    expect(guest.statusCode).toBe(404);
    expect((await post(undefined, 'document', body)).statusCode).toBe(401);
    const narrow = await t.factory.token(team.admin.user.id, { scopes: ['user:read'] });
    expect((await post(narrow, 'document', body)).statusCode).toBe(403);
    const other = await t.factory.team();
    const theirs = (await api.createSpace(other.admin, other.organization.id, { title: 'Theirs' })).id;
    // Their organization has no spec `pets`, and ours is not theirs to compute from.
    expect((await post(other.admin, 'document', body, theirs)).statusCode).toBe(404);
  });
});

describe('getComputedRevision', () => {
  it('computes the pages the spec makes, with ids from the seed, as the spec answers', async () => {
    const body = { source: openapi({ models: true }), seed: 'revision-seed' };
    const res = await post(team.member('read'), 'revision', body);
    expect(res.statusCode, res.body).toBe(200);
    expectNewestSpecResponse('getComputedRevision', 200, res.json());
    const { pages, files, reusableContents } = res.json() as {
      pages: Array<{ id: string; title: string; document: unknown }>;
      files: unknown[];
      reusableContents: unknown[];
    };
    expect(files).toEqual([]);
    expect(reusableContents).toEqual([]);
    expect(pages.map((page) => page.title)).toEqual(['pets', 'Other operations', 'Models']);
    expect(textsOf(pages[0]!.document)).toContain('List pets');
    // The same seed makes the same ids; another seed others.
    expect((await post(team.admin, 'revision', body)).json().pages.map((page: { id: string }) => page.id)).toEqual(
      pages.map((page) => page.id),
    );
    const reseeded = await post(team.admin, 'revision', { ...body, seed: 'another' });
    expect(reseeded.json().pages[0].id).not.toBe(pages[0]!.id);
    const withoutModels = await post(team.admin, 'revision', { source: openapi({ models: false }), seed: 's' });
    expect(withoutModels.json().pages.map((page: { title: string }) => page.title)).toEqual([
      'pets',
      'Other operations',
    ]);

    const { data } = await (
      await client(team.admin)
    ).spaces.getComputedRevision(spaceId, {
      source: {
        type: 'builtin:openapi',
        props: { models: true },
        dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } },
      },
      seed: 'revision-seed',
    });
    const withoutDates = (pages: Array<Record<string, unknown>>) =>
      pages.map(({ createdAt: _created, updatedAt: _updated, ...page }) => page);
    expect(withoutDates(data.pages as never)).toEqual(withoutDates(res.json().pages));
  });

  it('answers 400 for a malformed source or one that cannot run here, 404 to strangers', async () => {
    expect((await post(team.admin, 'revision', { source: openapi({}), seed: 's' })).statusCode).toBe(400);
    const translation = {
      type: 'builtin:translation',
      props: {},
      dependencies: { translation: { ref: { kind: 'translation', translation: 't' } } },
    };
    expect((await post(team.admin, 'revision', { source: translation, seed: 's' })).statusCode).toBe(400);
    expect((await post(team.admin, 'revision', { source: openapi({ models: true }), seed: '' })).statusCode).toBe(400);
    const stranger = await t.factory.account();
    expect((await post(stranger, 'revision', { source: openapi({ models: true }), seed: 's' })).statusCode).toBe(404);
  });
});
