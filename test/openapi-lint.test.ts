import {
  Document,
  getDiagnosticSeverity,
  Spectral,
  type ISpectralDiagnostic,
  type RulesetDefinition,
} from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { isEmoji } from '../src/core/emoji.js';
import { postmanCollection, type PostmanCollection, type PostmanItem } from '../src/ops/postman.js';
import { PUBLIC_URL, useTestApp } from './support/app.js';

// Its CommonJS exports are not visible to an ES module's named imports.
const require = createRequire(import.meta.url);
const { Json } = require('@stoplight/spectral-parsers') as typeof import('@stoplight/spectral-parsers');
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const root = fileURLToPath(new URL('..', import.meta.url));

const t = useTestApp();

interface Media {
  schema?: object;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, Media> };
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}

let text: string;
let document: OpenApi;

beforeAll(async () => {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  text = res.body;
  document = res.json();
});

function operations(): Array<{ method: string; path: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

/** The examples of an operation's JSON request body: `example`, or each of `examples`. */
function bodyExamples(operation: Operation): unknown[] {
  const media = operation.requestBody?.content['application/json'];
  if (!media) return [];
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {}).map((example) => example.value);
}

const SEVERITY = ['error', 'warning', 'info', 'hint'];
const shown = (finding: ISpectralDiagnostic) =>
  `${SEVERITY[finding.severity]} ${finding.code} at ${finding.path.join('.')}: ${finding.message}`;

describe('the published OpenAPI document', () => {
  it('passes Spectral’s oas ruleset without an error or a warning', async () => {
    const spectral = new Spectral();
    // A ruleset definition, though its declared type does not say so.
    spectral.setRuleset({
      extends: [oas as RulesetDefinition],
      // GitBook's getApiInformation is the API's root, `/` under its `/v1` base: here `/v1/`, as its clients call it.
      rules: { 'path-keys-no-trailing-slash': 'off' },
    });
    const findings = await spectral.run(new Document(text, Json, 'openapi.json'));
    const serious = findings.filter((finding) => finding.severity <= getDiagnosticSeverity('warn')).map(shown);
    expect(serious, serious.join('\n')).toEqual([]);
  });

  it('gives every request body an example that the body’s own schema accepts', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('emoji', { type: 'string', validate: isEmoji });
    // The schemas' references point into the document, registered whole.
    ajv.addSchema(JSON.parse(text) as object, 'document');
    const problems: string[] = [];
    let checked = 0;
    for (const { method, path, operation } of operations()) {
      const media = operation.requestBody?.content['application/json'];
      if (!media) continue;
      const examples = bodyExamples(operation);
      if (examples.length === 0) problems.push(`${method} ${path} (${operation.operationId}): no example`);
      const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"document#/components/'));
      const validate = ajv.compile(schema as object);
      for (const example of examples) {
        checked++;
        if (!validate(example)) {
          problems.push(`${operation.operationId}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(example)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(60);
  });
});

/** Every request of the collection, folders flattened. */
function requests(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => (item.item ? requests(item.item) : [item]));
}

/** The document's path template of a collection request (`:spaceId` back to `{spaceId}`). */
function templateOf(item: PostmanItem): string {
  const segments = item.request!.url.path ?? [];
  return `/${segments.map((segment) => segment.replace(/^:(.+)$/, '{$1}')).join('/')}`;
}

describe('the Postman collection', () => {
  let collection: PostmanCollection;
  beforeAll(async () => {
    collection = await postmanCollection(document, PUBLIC_URL);
  });

  it('declares baseUrl and an empty bearerToken, and authenticates every request with it', () => {
    expect(collection.variable.map(({ key, value }) => ({ key, value }))).toEqual([
      { key: 'baseUrl', value: PUBLIC_URL },
      { key: 'bearerToken', value: '' },
    ]);
    expect(collection.auth).toEqual({
      type: 'bearer',
      bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }],
    });
    const all = requests(collection.item);
    expect(all.length).toBe(operations().length);
    // No request overrides the collection's authentication.
    expect(all.filter((item) => item.request!.auth)).toEqual([]);
    expect(new Set(all.map((item) => item.request!.url.host?.join('')))).toEqual(new Set(['{{baseUrl}}']));
    // A cursor is opaque: a made-up one would be refused, so optional parameters start off.
    const cursors = all.flatMap((item) => item.request!.url.query ?? []).filter((query) => query.key === 'page');
    expect(cursors.length).toBeGreaterThan(0);
    expect(cursors.filter((query) => !query.disabled)).toEqual([]);
  });

  it('sends each operation’s declared example as its body, not placeholders', () => {
    const byRoute = new Map(
      requests(collection.item).map((item) => [`${item.request!.method} ${templateOf(item)}`, item]),
    );
    const sent = new Map<string, unknown>();
    for (const { method, path, operation } of operations()) {
      const [example] = bodyExamples(operation);
      if (example === undefined) continue;
      const request = byRoute.get(`${method} ${path}`)?.request;
      expect(request?.body?.mode, `${operation.operationId} has no raw body`).toBe('raw');
      const body: unknown = JSON.parse(request!.body!.raw!);
      expect(body, operation.operationId).toEqual(example);
      sent.set(operation.operationId, body);
    }
    expect(sent.get('createSpace')).toMatchObject({ title: expect.any(String) });
    expect(sent.get('updateChangeRequestContent')).toMatchObject({ changes: expect.any(Array) });
    // No body is made up from a schema: every one sent is a declared example.
    expect(requests(collection.item).filter((item) => item.request!.body?.raw).length).toBe(sent.size);
  });
});

describe('npm run postman', () => {
  it('writes the collection without a database, for PUBLIC_URL', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'quire-postman-'));
    try {
      const out = path.join(dir, 'collection.json');
      const env: NodeJS.ProcessEnv = { ...process.env, PUBLIC_URL: 'https://docs.example.com', LOG_LEVEL: 'silent' };
      // Nothing to connect to: the command must not need one.
      env.DATABASE_URL = 'postgres://nobody@127.0.0.1:1/none';
      const { stdout } = await promisify(execFile)(process.execPath, ['dist/postman.js', '--out', out], {
        cwd: root,
        env,
      });
      expect(stdout).toContain(out);
      const written = JSON.parse(await readFile(out, 'utf8')) as PostmanCollection;
      expect(written.variable.find((variable) => variable.key === 'baseUrl')?.value).toBe('https://docs.example.com');
      expect(written.auth.bearer[0]?.value).toBe('{{bearerToken}}');
      expect(requests(written.item).length).toBe(operations().length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
