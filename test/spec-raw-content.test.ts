import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpecProcessor, type SpecProcessor } from '../src/specs/worker.js';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let processor: SpecProcessor;

beforeAll(async () => {
  team = await t.factory.team(['read']);
  processor = createSpecProcessor(t.app.context, { retryBaseMs: 20 });
});

afterAll(async () => {
  await processor?.close();
});

const JSON_SPEC = '{\n  "openapi": "3.0.3",\n  "info": { "title": "Raw", "version": "1" },\n  "paths": {}\n}\n';
const YAML_SPEC = 'openapi: 3.1.0\ninfo:\n  title: Raw YAML   # kept as written\n  version: "2"\npaths: {}\n';

const call = (account: Account | undefined, method: 'GET' | 'PUT', path: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/v1/orgs/${team.organization.id}/openapi${path}`,
    headers: account?.headers ?? {},
    ...(payload ? { payload } : {}),
  });

async function publishText(slug: string, text: string) {
  const res = await call(team.admin, 'PUT', `/${slug}`, { source: { text } });
  expect(res.statusCode, res.body).toBe(200);
  while (await processor.runNext());
  const spec = await call(team.admin, 'GET', `/${slug}`);
  expect(spec.json().processingState).toBe('complete');
}

describe('getLatestOpenAPISpecVersionContentRaw', () => {
  it('answers the entry file of the newest version exactly as given, with its format, as the spec answers', async () => {
    await publishText('raw-json', JSON_SPEC);
    const res = await call(team.member('read'), 'GET', '/raw-json/versions/latest/content/raw');
    expect(res.statusCode, res.body).toBe(200);
    expectNewestSpecResponse('getLatestOpenAPISpecVersionContentRaw', 200, res.json());
    expect(res.json()).toEqual({ text: JSON_SPEC, format: 'json' });

    await publishText('raw-yaml', YAML_SPEC);
    const yaml = await call(team.admin, 'GET', '/raw-yaml/versions/latest/content/raw');
    expectNewestSpecResponse('getLatestOpenAPISpecVersionContentRaw', 200, yaml.json());
    expect(yaml.json()).toEqual({ text: YAML_SPEC, format: 'yaml' });

    // A new version is the newest one.
    const changed = YAML_SPEC.replace('"2"', '"3"');
    await publishText('raw-yaml', changed);
    expect((await call(team.admin, 'GET', '/raw-yaml/versions/latest/content/raw')).json()).toEqual({
      text: changed,
      format: 'yaml',
    });
  });

  it('answers 404 while a spec has no version, for an unknown slug and to strangers; 401 and 403 by token', async () => {
    const pending = await call(team.admin, 'PUT', '/pending', { source: { text: JSON_SPEC } });
    expect(pending.statusCode).toBe(200);
    const early = await call(team.admin, 'GET', '/pending/versions/latest/content/raw');
    expect(early.statusCode).toBe(404);
    expect((await call(team.admin, 'GET', '/no-such-spec/versions/latest/content/raw')).statusCode).toBe(404);
    await publishText('private-raw', JSON_SPEC);
    const stranger = await t.factory.account();
    const res = await call(stranger, 'GET', '/private-raw/versions/latest/content/raw');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Raw');
    expect((await call(undefined, 'GET', '/private-raw/versions/latest/content/raw')).statusCode).toBe(401);
    const narrow = await t.factory.token(team.admin.user.id, { scopes: ['space:read'] });
    expect((await call(narrow, 'GET', '/private-raw/versions/latest/content/raw')).statusCode).toBe(403);
  });
});
