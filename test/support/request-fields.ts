/**
 * `npx tsx test/support/request-fields.ts`: lists what @gitbook/api 0.202.0
 * lets a request carry that this service's /openapi.json does not take, for
 * every operation both serve: query parameters, body properties (nested ones
 * by their path) and enum values. No database is needed: the app is built to
 * describe itself and closed before its first query.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema?: Schema;
  $ref?: string;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }>; $ref?: string };
}
export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
}

const require = createRequire(import.meta.url);
const newestSpec = require('@gitbook/api-next/spec/openapi.json') as OpenApi;

function resolver(document: OpenApi) {
  return function resolve<T>(value: T): T {
    let current = value as { $ref?: string };
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops += 1) {
      const [, group, name] = current.$ref.replace(/^#\/components\//, '#/').split('/');
      current = (document.components?.[group ?? '']?.[name ?? ''] ?? {}) as { $ref?: string };
    }
    return current as T;
  };
}

/** Property paths and enum values a schema accepts, flattened: `a.b`, `a.b[]`, `a.b=value`. */
function acceptedNames(document: OpenApi, schema: Schema | undefined): Set<string> {
  const resolve = resolver(document);
  const names = new Set<string>();
  const seen = new Set<unknown>();
  function walk(node: Schema | undefined, at: string, depth: number): void {
    const resolved = resolve(node);
    if (!resolved || depth > 8 || seen.has(resolved)) return;
    seen.add(resolved);
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      for (const part of (resolved[key] as Schema[] | undefined) ?? []) walk(part, at, depth + 1);
    for (const value of (resolved.enum as unknown[] | undefined) ?? []) names.add(`${at}=${String(value)}`);
    if ('const' in resolved) names.add(`${at}=${String(resolved.const)}`);
    for (const [key, child] of Object.entries((resolved.properties as Record<string, Schema>) ?? {})) {
      const path = at ? `${at}.${key}` : key;
      names.add(path);
      walk(child, path, depth + 1);
    }
    if (resolved.items) walk(resolved.items as Schema, `${at}[]`, depth + 1);
    seen.delete(resolved);
  }
  walk(schema, '', 0);
  return names;
}

function operationsById(document: OpenApi): Map<string, Operation> {
  const byId = new Map<string, Operation>();
  for (const methods of Object.values(document.paths))
    for (const operation of Object.values(methods))
      if (operation.operationId) byId.set(operation.operationId, operation);
  return byId;
}

function requestNames(document: OpenApi, operation: Operation): Set<string> {
  const resolve = resolver(document);
  const names = new Set<string>();
  for (const raw of operation.parameters ?? []) {
    const parameter = resolve(raw);
    if (parameter.in !== 'query') continue;
    names.add(`?${parameter.name}`);
    for (const value of acceptedNames(document, parameter.schema)) names.add(`?${parameter.name}${value}`);
  }
  const body = resolve(operation.requestBody);
  const schema = body?.content?.['application/json']?.schema;
  for (const name of acceptedNames(document, schema)) names.add(name);
  return names;
}

/** For each operation both documents have, what the newest spec takes in a request and `ours` does not. */
export function missingRequestFields(ours: OpenApi): Map<string, string[]> {
  const newest = operationsById(newestSpec);
  const missing = new Map<string, string[]>();
  for (const [operationId, operation] of operationsById(ours)) {
    const theirs = newest.get(operationId);
    if (!theirs) continue;
    const accepted = requestNames(ours, operation);
    const absent = [...requestNames(newestSpec, theirs)].filter((name) => !accepted.has(name)).sort();
    if (absent.length > 0) missing.set(operationId, absent);
  }
  return missing;
}

async function main(): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const { redisUrl: _counters, ...rateLimit } = config.rateLimit;
  const app = await buildApp({
    ...config,
    // The pool connects at its first query, which never comes.
    databaseUrl: 'postgres://unused.invalid/quire',
    secretKey: randomBytes(32).toString('base64url'),
    rateLimit,
    conversion: { ...config.conversion, threads: 1 },
  });
  try {
    await app.ready();
    const missing = missingRequestFields(app.swagger() as unknown as OpenApi);
    for (const [operationId, names] of [...missing].sort(([a], [b]) => a.localeCompare(b)))
      process.stdout.write(`${operationId}: ${names.join(', ')}\n`);
  } finally {
    await app.close();
  }
}

if (process.argv[1]?.endsWith('request-fields.ts')) await main();
