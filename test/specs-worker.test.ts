import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSpecOutline } from '../src/specs/outline-queries.js';
import { claimSpecJob } from '../src/specs/jobs.js';
import { createSpecProcessor, startSpecWorker, type SpecProcessor } from '../src/specs/worker.js';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';
import { fixture, serveSpecs, type SpecServer } from './fixtures/specs/serve.js';

/** Small limits, so that the limits' cases are quick. */
const SPECS = {
  maxBytes: 256 * 1024,
  maxFiles: 5,
  maxRefDepth: 2,
  fetchTimeoutMs: 400,
  processTimeoutMs: 30_000,
  pollIntervalMs: 20,
  maxAttempts: 3,
};
const t = useTestApp({ config: { specs: SPECS } });
const RETRY_BASE_MS = 20;

let admin: Account;
let organizationId: string;
let server: SpecServer;
let processor: SpecProcessor;

beforeAll(async () => {
  const team = await t.factory.team();
  admin = team.admin;
  organizationId = team.organization.id;
  server = await serveSpecs({
    '/petstore.json': fixture('petstore.json'),
    '/petstore.yaml': fixture('petstore.yaml'),
    '/swagger.json': fixture('swagger.json'),
    '/invalid.json': fixture('invalid.json'),
    '/with-ref.yaml': fixture('with-ref.yaml'),
    '/schemas/pet.yaml': fixture('schemas/pet.yaml'),
    '/page.html': { body: '<!doctype html><html><body><h1>Our API</h1></body></html>', type: 'text/html' },
  });
  processor = createSpecProcessor(t.app.context, { retryBaseMs: RETRY_BASE_MS });
});

afterAll(async () => {
  await processor?.close();
  await server?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: object, app = t.app) {
  return app.inject({
    method,
    url: `/v1/orgs/${organizationId}/openapi${path}`,
    headers: admin.headers,
    ...(payload ? { payload } : {}),
  });
}

async function publish(slug: string, source: { url: string } | { text: string }) {
  const res = await api('PUT', `/${slug}`, { source });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function getSpec(slug: string) {
  const res = await api('GET', `/${slug}`);
  expect(res.statusCode, res.body).toBe(200);
  expectSpecResponse('getOpenAPISpecBySlug', 200, res.json());
  return res.json();
}

/** Runs jobs (waiting out retries' delays) until the spec is processed, and returns it. */
async function processed(slug: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ran = await processor.runNext();
    const spec = await getSpec(slug);
    if (spec.processingState === 'complete') return spec;
    if (Date.now() > deadline) throw new Error(`${slug} is still ${spec.processingState}`);
    if (!ran) await sleep(RETRY_BASE_MS);
  }
}

async function versions(slug: string) {
  const res = await api('GET', `/${slug}/versions`);
  expect(res.statusCode, res.body).toBe(200);
  expectSpecResponse('listOpenAPISpecVersions', 200, res.json());
  return res.json() as { count: number; items: Array<{ id: string; url: string }> };
}

async function content(slug: string) {
  const res = await api('GET', `/${slug}/versions/latest/content`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expectSpecResponse('getLatestOpenAPISpecVersionContent', 200, res.json());
  return res.json();
}

const jobsOf = (specId: string) =>
  t.db.selectFrom('openapi_spec_jobs').selectAll().where('spec_id', '=', specId).orderBy('created_at').execute();

describe('processing a spec from a URL', () => {
  it('stores a valid OpenAPI 3 JSON spec as a version, with its files and outline', async () => {
    const created = await publish('petstore', { url: `${server.url}/petstore.json` });
    expect(created.processingState).toBe('pending');
    expect(await jobsOf(created.id)).toHaveLength(1);

    const spec = await processed('petstore');
    expect(spec).toMatchObject({ processingState: 'complete', sourceURL: `${server.url}/petstore.json` });
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(spec.lastProcessedAt).toEqual(expect.any(String));
    expect(spec).not.toHaveProperty('lastProcessErrorCode');
    expect(spec).not.toHaveProperty('lastProcessedErrors');
    expect(await jobsOf(spec.id)).toEqual([]);

    const list = await versions('petstore');
    expect(list.count).toBe(1);
    expect(list.items[0]).toMatchObject({ id: spec.lastVersion, url: `${server.url}/petstore.json` });
    const latest = (await api('GET', '/petstore/versions/latest')).json();
    expectSpecResponse('getLatestOpenAPISpecVersion', 200, latest);
    expect(latest.id).toBe(spec.lastVersion);

    expect(await content('petstore')).toEqual({
      filesystem: {
        entrypoint: `${server.url}/petstore.json`,
        files: [
          {
            path: `${server.url}/petstore.json`,
            isEntrypoint: true,
            specification: JSON.parse(fixture('petstore.json')),
          },
        ],
      },
      url: `${server.url}/petstore.json`,
    });
    const byId = await api('GET', `/petstore/versions/${spec.lastVersion}/content`);
    expectSpecResponse('getOpenAPISpecVersionContentById', 200, byId.json());
    expect(byId.json()).toEqual(await content('petstore'));

    const found = await findSpecOutline(t.db, organizationId, 'petstore');
    expect(found).toEqual({
      spec: { id: spec.id, slug: 'petstore', lastVersion: spec.lastVersion, visibility: 'private' },
      outline: {
        info: { title: 'Petstore', version: '1.0.0', description: 'A store of pets' },
        tags: [{ name: 'pets', description: 'Everything about pets' }],
        operations: [
          {
            path: '/pets',
            method: 'get',
            operationId: 'listPets',
            summary: 'List all pets',
            tags: ['pets'],
            deprecated: false,
          },
          {
            path: '/pets',
            method: 'post',
            operationId: 'createPet',
            summary: 'Create a pet',
            tags: ['pets'],
            deprecated: true,
          },
          {
            path: '/pets/{petId}',
            method: 'get',
            operationId: 'showPetById',
            summary: 'Info for a specific pet',
            tags: ['pets'],
            deprecated: false,
          },
        ],
        operationCount: 3,
        schemas: [{ name: 'Pet' }],
      },
    });
    // Another organization's slug finds nothing.
    const other = await t.factory.team();
    expect(await findSpecOutline(t.db, other.organization.id, 'petstore')).toBeUndefined();
  });

  it('reads a YAML OpenAPI 3.1 spec, and serves its entry file as it was fetched', async () => {
    const spec = await (async () => {
      await publish('yaml', { url: `${server.url}/petstore.yaml` });
      return processed('yaml');
    })();
    expect(spec.lastProcessErrorCode).toBeUndefined();
    const files = (await content('yaml')).filesystem.files;
    expect(files[0].specification.info).toEqual({ title: 'Petstore YAML', version: '2.0.0' });

    const raw = await api('GET', `/yaml/versions/${spec.lastVersion}/raw`);
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(raw.body).toBe(fixture('petstore.yaml'));
  });

  it('reads a Swagger 2.0 spec', async () => {
    await publish('swagger', { url: `${server.url}/swagger.json` });
    const spec = await processed('swagger');
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect((await findSpecOutline(t.db, organizationId, 'swagger'))?.outline.operations).toEqual([
      { path: '/pets/{petId}', method: 'get', operationId: 'showPetById', tags: [], deprecated: false },
    ]);
  });

  it('records a PARSE_ERROR with the validation errors of an invalid spec, and stores no version', async () => {
    await publish('invalid', { url: `${server.url}/invalid.json` });
    const spec = await processed('invalid');
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(spec.lastVersion).toBeUndefined();
    expect(spec.lastProcessedErrors.length).toBeGreaterThan(0);
    expect(spec.lastProcessedErrors.length).toBeLessThanOrEqual(20);
    expect(spec.lastProcessedErrors.map((error: { message: string }) => error.message).join('\n')).toMatch(
      /must have required property .description./,
    );
    expect((await versions('invalid')).count).toBe(0);
    const latest = await api('GET', '/invalid/versions/latest');
    expect(latest.statusCode).toBe(404);
    expect(latest.json().error.message).toMatch(/no version yet/);
    expect((await api('GET', '/invalid/versions/latest/content')).statusCode).toBe(404);
  });

  it('records a PARSE_ERROR for a page that is not a spec at all', async () => {
    await publish('html', { url: `${server.url}/page.html` });
    const spec = await processed('html');
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(spec.lastProcessedErrors).toEqual([
      { message: expect.stringMatching(/is not an OpenAPI or Swagger document/) },
    ]);
  });

  it('records a FETCH_TIMEOUT for a server slower than SPEC_FETCH_TIMEOUT_MS, after every attempt', async () => {
    server.files.set('/slow.json', { body: fixture('petstore.json'), delayMs: SPECS.fetchTimeoutMs * 3 });
    await publish('slow', { url: `${server.url}/slow.json` });
    const spec = await processed('slow');
    expect(spec.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    expect(spec.lastProcessedErrors[0].message).toMatch(/did not answer within 400 ms/);
    expect(server.hits.filter((path) => path === '/slow.json')).toHaveLength(SPECS.maxAttempts);
  });

  it('records a FETCH_ERROR, at once, for a file over SPEC_MAX_BYTES', async () => {
    server.files.set('/huge.json', JSON.stringify({ openapi: '3.0.3', padding: 'x'.repeat(SPECS.maxBytes) }));
    await publish('huge', { url: `${server.url}/huge.json` });
    const spec = await processed('huge');
    expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(spec.lastProcessedErrors[0].message).toMatch(/over the 262144-byte limit/);
    // Too large is too large: no retry.
    expect(server.hits.filter((path) => path === '/huge.json')).toHaveLength(1);
  });

  it('records a FETCH_ERROR for a URL that answers 404', async () => {
    await publish('missing', { url: `${server.url}/nowhere.json` });
    const spec = await processed('missing');
    expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(spec.lastProcessedErrors[0].message).toMatch(/answered with HTTP status 404/);
  });
});

describe('external $refs', () => {
  it('are fetched from the same server and kept as files of the version', async () => {
    await publish('split', { url: `${server.url}/with-ref.yaml` });
    const spec = await processed('split');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    const { filesystem } = await content('split');
    expect(filesystem.entrypoint).toBe(`${server.url}/with-ref.yaml`);
    expect(
      filesystem.files.map((file: { path: string; isEntrypoint: boolean }) => [file.path, file.isEntrypoint]),
    ).toEqual([
      [`${server.url}/with-ref.yaml`, true],
      [`${server.url}/schemas/pet.yaml`, false],
    ]);
    expect(filesystem.files[1].specification.Owner).toEqual({
      type: 'object',
      properties: { name: { type: 'string' } },
    });
  });

  it('that point to nothing are a PARSE_ERROR naming them', async () => {
    server.files.set(
      '/dangling.yaml',
      fixture('with-ref.yaml').replace('schemas/pet.yaml#/Pet', 'schemas/pet.yaml#/Cat'),
    );
    await publish('dangling', { url: `${server.url}/dangling.yaml` });
    const spec = await processed('dangling');
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(spec.lastProcessedErrors).toEqual([
      { message: expect.stringContaining('"schemas/pet.yaml#/Cat"'), code: 'REF_MISSING' },
    ]);
  });

  it('to a file: URL are refused without reading anything', async () => {
    server.files.set('/local.yaml', fixture('with-ref.yaml').replace('schemas/pet.yaml#/Pet', 'file:///etc/passwd'));
    await publish('local', { url: `${server.url}/local.yaml` });
    const spec = await processed('local');
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(spec.lastProcessedErrors).toEqual([
      { message: expect.stringMatching(/names a file: URL; only http and https files are read/), code: 'REF_SCHEME' },
    ]);
  });

  it('past SPEC_MAX_REF_DEPTH or SPEC_MAX_FILES are refused', async () => {
    // A chain: entry → a1 → a2 → a3, three $refs deep where two are allowed.
    const chained = (next: string) =>
      `Thing:\n  type: object\n  properties:\n    next:\n      $ref: '${next}#/Thing'\n`;
    server.files.set('/chain/a1.yaml', chained('a2.yaml'));
    server.files.set('/chain/a2.yaml', chained('a3.yaml'));
    server.files.set('/chain/a3.yaml', 'Thing:\n  type: object\n');
    server.files.set('/chain/entry.yaml', fixture('with-ref.yaml').replace('schemas/pet.yaml#/Pet', 'a1.yaml#/Thing'));
    await publish('deep', { url: `${server.url}/chain/entry.yaml` });
    const deep = await processed('deep');
    expect(deep.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(deep.lastProcessedErrors[0]).toEqual({
      message: expect.stringMatching(/a3\.yaml is more than 2 \$refs away from the entry file/),
      code: 'REF_TOO_DEEP',
    });

    // Six files side by side, where five are allowed.
    const refs = [1, 2, 3, 4, 5].map((n) => `        r${n}:\n          $ref: 'wide/f${n}.yaml#/Thing'\n`).join('');
    for (const n of [1, 2, 3, 4, 5]) server.files.set(`/wide/f${n}.yaml`, 'Thing:\n  type: object\n');
    server.files.set(
      '/wide.yaml',
      `openapi: 3.0.3\ninfo:\n  title: Wide\n  version: '1'\npaths: {}\ncomponents:\n  schemas:\n    All:\n      type: object\n      properties:\n${refs}`,
    );
    await publish('wide', { url: `${server.url}/wide.yaml` });
    const wide = await processed('wide');
    expect(wide.lastProcessedErrors[0]).toEqual({
      message: "The spec's $refs reach more than 5 files",
      code: 'TOO_MANY_FILES',
    });
  });

  it('to a private address are refused where private addresses are not allowed', async () => {
    const guarded = await buildOwnApp(
      testConfig(t.database.url, {
        specs: SPECS,
        outbound: { allowPrivate: false, timeoutMs: 5_000, maxBytes: 10 * 1024 * 1024 },
      }),
    );
    await guarded.ready();
    const guardedProcessor = createSpecProcessor(guarded.context, { retryBaseMs: RETRY_BASE_MS });
    try {
      const text = fixture('with-ref.yaml').replace('schemas/pet.yaml', `${server.url}/schemas/pet.yaml`);
      const fetchedBefore = server.hits.filter((path) => path === '/schemas/pet.yaml').length;
      await publish('private-ref', { text });
      // Only the guarded worker runs here: the file's own worker is idle.
      for (let i = 0; i < 10 && (await getSpec('private-ref')).processingState !== 'complete'; i++) {
        if (!(await guardedProcessor.runNext())) await sleep(RETRY_BASE_MS);
      }
      const spec = await getSpec('private-ref');
      expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
      expect(spec.lastProcessedErrors[0].message).toMatch(/resolves to a private address/);
      expect(server.hits.filter((path) => path === '/schemas/pet.yaml')).toHaveLength(fetchedBefore);

      // The same spec where private addresses are allowed (tests, here) goes through.
      await publish('private-ref', { text });
      expect((await processed('private-ref')).lastProcessErrorCode).toBeUndefined();
    } finally {
      await guardedProcessor.close();
      await guarded.close();
    }
  });
});

describe('a spec given as text', () => {
  it('is processed without fetching, its version served from this service', async () => {
    const spec = await (async () => {
      await publish('text', { text: fixture('petstore.yaml') });
      return processed('text');
    })();
    expect(spec.sourceURL).toBeUndefined();
    const version = (await versions('text')).items[0]!;
    expect(version.url).toBe(
      `http://docs.test/v1/orgs/${organizationId}/openapi/text/versions/${spec.lastVersion}/raw`,
    );
    const { filesystem, url } = await content('text');
    expect(url).toBe(version.url);
    expect(filesystem.entrypoint).toBe('openapi.yaml');
    expect(filesystem.files[0].path).toBe('openapi.yaml');
  });

  it('that expands without bound (YAML aliases) or nests past any parser is a PARSE_ERROR, not a crash', async () => {
    const laughs = [
      'openapi: 3.0.3',
      'info: {title: Laughs, version: "1"}',
      'paths: {}',
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...Array.from({ length: 8 }, (_, i) => {
        const [name, previous] = [String.fromCharCode(98 + i), String.fromCharCode(97 + i)];
        return `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`;
      }),
    ].join('\n');
    await publish('laughs', { text: laughs });
    const bomb = await processed('laughs');
    expect(bomb.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(bomb.lastProcessedErrors[0].message).toMatch(/The spec is not valid YAML: .*alias/i);

    const depth = 100_000;
    const nested = `{"openapi":"3.0.3","info":{"title":"Deep","version":"1"},"paths":{},"x-deep":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    await publish('deep-text', { text: nested });
    const deep = await processed('deep-text');
    expect(deep.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(deep.lastProcessedErrors[0]).toEqual({
      message: expect.stringMatching(/nests too deeply to be read/),
      code: 'TOO_COMPLEX',
    });
  });

  it('cannot have relative $refs: it has no address to resolve them from', async () => {
    await publish('text-relative', { text: fixture('with-ref.yaml') });
    const spec = await processed('text-relative');
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(spec.lastProcessedErrors[0].code).toBe('REF_RELATIVE');
  });
});

describe('versions', () => {
  it('are stored when the content changes, once per change, and not when it does not', async () => {
    server.files.set('/evolving.json', fixture('petstore.json'));
    await publish('evolving', { url: `${server.url}/evolving.json` });
    const first = await processed('evolving');

    // Published again, unchanged (a build that changed nothing): processed again, no version.
    await publish('evolving', { url: `${server.url}/evolving.json` });
    const again = await processed('evolving');
    expect(again.lastVersion).toBe(first.lastVersion);
    expect(again.lastProcessedAt >= first.lastProcessedAt).toBe(true);
    expect((await versions('evolving')).count).toBe(1);

    // The same content in another key order and layout is the same content.
    const reordered = JSON.parse(fixture('petstore.json'));
    server.files.set('/evolving.json', JSON.stringify({ paths: reordered.paths, ...reordered }, null, 4));
    await publish('evolving', { url: `${server.url}/evolving.json` });
    expect((await processed('evolving')).lastVersion).toBe(first.lastVersion);

    // Changed: one new version, newest first.
    server.files.set('/evolving.json', fixture('petstore.json').replace('"1.0.0"', '"1.1.0"'));
    await publish('evolving', { url: `${server.url}/evolving.json` });
    await publish('evolving', { url: `${server.url}/evolving.json` });
    const changed = await processed('evolving');
    expect(changed.lastVersion).not.toBe(first.lastVersion);
    const list = await versions('evolving');
    expect(list.items.map((item) => item.id)).toEqual([changed.lastVersion, first.lastVersion]);

    // A failure keeps the last version.
    server.files.set('/evolving.json', fixture('invalid.json'));
    await publish('evolving', { url: `${server.url}/evolving.json` });
    const failed = await processed('evolving');
    expect(failed).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastVersion: changed.lastVersion });
    // And the next success clears the error.
    server.files.set('/evolving.json', fixture('petstore.json'));
    await publish('evolving', { url: `${server.url}/evolving.json` });
    const recovered = await processed('evolving');
    expect(recovered.lastProcessErrorCode).toBeUndefined();
    expect(recovered.lastProcessedErrors).toBeUndefined();
    expect((await versions('evolving')).count).toBe(3);
  });
});

describe('the job queue', () => {
  it('keeps one waiting job per spec: requests while it waits join it, a request while it runs queues one more', async () => {
    server.files.set('/queued.json', fixture('petstore.json'));
    const spec = await publish('queued', { url: `${server.url}/queued.json` });
    await publish('queued', { url: `${server.url}/queued.json` });
    await publish('queued', { url: `${server.url}/queued.json` });
    expect((await jobsOf(spec.id)).map((job) => job.state)).toEqual(['pending']);

    // A worker claims it (and, here, stops there), so it runs; a request now queues exactly one more.
    const claimed = await claimSpecJob(t.db, 60_000);
    expect(claimed?.spec_id).toBe(spec.id);
    await publish('queued', { url: `${server.url}/queued.json` });
    await publish('queued', { url: `${server.url}/queued.json` });
    expect((await jobsOf(spec.id)).map((job) => job.state).sort()).toEqual(['pending', 'running']);
    // While one runs for the spec, the waiting one is not handed out.
    expect(await processor.runNext()).toBe(false);

    await t.db.deleteFrom('openapi_spec_jobs').where('id', '=', claimed!.id).execute();
    expect((await processed('queued')).lastVersion).toEqual(expect.any(String));
    expect(await jobsOf(spec.id)).toEqual([]);
  });

  it('hands a job whose lease ran out (its worker died) to another worker', async () => {
    server.files.set('/orphan.json', fixture('petstore.json'));
    const spec = await publish('orphan', { url: `${server.url}/orphan.json` });
    // A worker claims the job with a short lease, then dies without a word.
    const dead = await claimSpecJob(t.db, 200);
    expect(dead?.spec_id).toBe(spec.id);
    expect(await processor.runNext()).toBe(false);
    await sleep(300);

    expect((await processed('orphan')).lastVersion).toEqual(expect.any(String));
    expect(await jobsOf(spec.id)).toEqual([]);
  });

  it('tries a failing job again after growing delays, then records the failure', async () => {
    let answers = 0;
    server.files.set('/flaky.json', (response) => {
      answers += 1;
      if (answers <= 2) response.writeHead(503).end('busy');
      else response.writeHead(200, { 'content-type': 'application/json' }).end(fixture('petstore.json'));
    });
    const spec = await publish('flaky', { url: `${server.url}/flaky.json` });

    expect(await processor.runNext()).toBe(true);
    const [first] = await jobsOf(spec.id);
    expect(first).toMatchObject({ state: 'pending', attempts: 1, locked_until: null });
    expect(first!.last_error).toMatch(/HTTP status 503/);
    expect((await getSpec('flaky')).processingState).toBe('pending');
    // Not due yet: the first delay is RETRY_BASE_MS, the next twice that.
    const firstDelay = first!.run_after.getTime() - first!.updated_at.getTime();
    await sleep(RETRY_BASE_MS * 2);
    expect(await processor.runNext()).toBe(true);
    const [second] = await jobsOf(spec.id);
    expect(second?.attempts).toBe(2);
    expect(second!.run_after.getTime() - second!.updated_at.getTime()).toBeGreaterThan(firstDelay);

    const done = await processed('flaky');
    expect(done.lastVersion).toEqual(expect.any(String));
    expect(answers).toBe(3);

    // Failing every time: the spec records the failure after SPEC_MAX_ATTEMPTS tries.
    let tries = 0;
    server.files.set('/down.json', (response) => {
      tries += 1;
      response.writeHead(502).end('down');
    });
    await publish('down', { url: `${server.url}/down.json` });
    const down = await processed('down');
    expect(down.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(down.lastProcessedErrors[0].message).toMatch(/HTTP status 502/);
    expect(tries).toBe(SPECS.maxAttempts);
  });

  it('gives up on a job whose workers kept stopping, and records it', async () => {
    server.files.set('/poison.json', fixture('petstore.json'));
    const spec = await publish('poison', { url: `${server.url}/poison.json` });
    // Claimed SPEC_MAX_ATTEMPTS times already, each worker gone before the end.
    await t.db
      .updateTable('openapi_spec_jobs')
      .set({ attempts: SPECS.maxAttempts })
      .where('spec_id', '=', spec.id)
      .execute();
    const before = server.hits.length;
    const failed = await processed('poison');
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(failed.lastProcessedErrors).toEqual([
      { message: `Processing the spec stopped ${SPECS.maxAttempts} times before it could finish`, code: 'ABANDONED' },
    ]);
    expect(server.hits.length).toBe(before);
  });

  it('is put back, its attempt not counted, when its worker stops mid-way', async () => {
    // The spec's answer is held until the worker has begun to stop, and this worker's fetch would wait for it far
    // longer: the stop comes while the job runs, however slow the machine, and stops its next step, the parse.
    const held: ServerResponse[] = [];
    server.files.set('/interrupted.json', (response) => void held.push(response));
    const spec = await publish('interrupted', { url: `${server.url}/interrupted.json` });
    const { context } = t.app;
    const patient = { ...context, config: { ...context.config, specs: { ...SPECS, fetchTimeoutMs: 60_000 } } };
    const worker = startSpecWorker(patient, { retryBaseMs: RETRY_BASE_MS });
    while (held.length === 0) await sleep(10);
    const stopping = worker.stop();
    for (const response of held)
      response.writeHead(200, { 'content-type': 'application/json' }).end(fixture('petstore.json'));
    await stopping;
    expect(await jobsOf(spec.id)).toMatchObject([{ state: 'pending', attempts: 0, lease_token: null }]);
    expect((await getSpec('interrupted')).processingState).toBe('pending');
    server.files.set('/interrupted.json', fixture('petstore.json'));
    expect((await processed('interrupted')).lastVersion).toEqual(expect.any(String));
  });

  it('goes with its spec when the spec is deleted', async () => {
    server.files.set('/doomed.json', fixture('petstore.json'));
    const spec = await publish('doomed', { url: `${server.url}/doomed.json` });
    expect(await jobsOf(spec.id)).toHaveLength(1);
    expect((await api('DELETE', '/doomed')).statusCode).toBe(205);
    expect(await jobsOf(spec.id)).toEqual([]);
  });
});

describe('several workers on one database', () => {
  let apps: FastifyInstance[] = [];

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it('process each job once, and store one version per change', async () => {
    apps = await Promise.all(
      [1, 2].map(async () => {
        const app = await buildOwnApp(testConfig(t.database.url, { specs: SPECS }));
        await app.ready();
        return app;
      }),
    );
    const slugs = Array.from({ length: 8 }, (_, i) => `shared-${i}`);
    for (const slug of slugs) server.files.set(`/${slug}.json`, fixture('petstore.json'));
    const workers = apps.map((app) => startSpecWorker(app.context, { retryBaseMs: RETRY_BASE_MS }));
    try {
      const waitAll = async () => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const specs = await Promise.all(slugs.map((slug) => getSpec(slug)));
          if (specs.every((spec) => spec.processingState === 'complete')) return specs;
          if (Date.now() > deadline) throw new Error('the workers did not finish');
          await sleep(50);
        }
      };
      const before = server.hits.length;
      await Promise.all(slugs.map((slug) => publish(slug, { url: `${server.url}/${slug}.json` })));
      const first = await waitAll();
      // Each spec was fetched once: no job ran twice.
      const fetched = server.hits.slice(before);
      for (const slug of slugs) expect(fetched.filter((path) => path === `/${slug}.json`)).toHaveLength(1);

      // A change, published twice at once to both instances: one new version each.
      for (const slug of slugs) server.files.set(`/${slug}.json`, fixture('petstore.json').replace('1.0.0', '2.0.0'));
      await Promise.all(
        slugs.flatMap((slug) =>
          apps.map((app) => api('PUT', `/${slug}`, { source: { url: `${server.url}/${slug}.json` } }, app)),
        ),
      );
      await sleep(100);
      const second = await waitAll();
      for (const [i, slug] of slugs.entries()) {
        expect(second[i].lastVersion).not.toBe(first[i].lastVersion);
        expect((await versions(slug)).count).toBe(2);
      }
      const left = await t.db.selectFrom('openapi_spec_jobs').select('id').execute();
      expect(left).toEqual([]);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });
});
