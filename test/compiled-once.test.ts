import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { CompiledOnce, schemaText } from '../src/core/compiled-once.js';
import { DeferredCompilations } from '../src/core/deferred-compilation.js';
import { listSerializerFactory } from '../src/core/list-serializer.js';
import { createValidatorCompiler } from '../src/core/validation.js';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';

describe('compiled once', () => {
  it('compiles equal sources once and different ones apart, whatever objects they are', () => {
    const once = new CompiledOnce<string>();
    let compiled = 0;
    const compile = (name: string) => () => `${name} ${++compiled}`;
    expect(once.get({ type: 'string', maxLength: 3 }, compile('short'))).toBe('short 1');
    expect(once.get({ type: 'string', maxLength: 3 }, compile('again'))).toBe('short 1');
    expect(once.get({ type: 'string', maxLength: 4 }, compile('longer'))).toBe('longer 2');
    expect(once.get([true, { type: 'string' }], compile('body'))).toBe('body 3');
    expect(once.get([false, { type: 'string' }], compile('query'))).toBe('query 4');
    expect(compiled).toBe(4);
  });

  it('writes a schema’s text once per object, and equal schemas alike', () => {
    const schema = { type: 'object', properties: { id: { type: 'string' } } };
    expect(schemaText(schema)).toBe(JSON.stringify(schema));
    expect(schemaText(structuredClone(schema))).toBe(schemaText(schema));
    // Kept for the object: a schema is not changed once added, and its text stays the one first written.
    schema.type = 'string';
    expect(schemaText(schema)).toBe('{"type":"object","properties":{"id":{"type":"string"}}}');
  });

  it('gives two apps’ validators of the same schema one compiled function, which tells each call’s errors apart', () => {
    const schema = () => Type.Object({ title: Type.String({ maxLength: 5 }) }, { additionalProperties: false });
    const first = createValidatorCompiler([], new DeferredCompilations());
    const second = createValidatorCompiler([], new DeferredCompilations());
    const body = first({ schema: schema(), httpPart: 'body', method: 'POST', url: '/a' });
    const sameBody = second({ schema: schema(), httpPart: 'body', method: 'POST', url: '/b' });
    const query = second({ schema: schema(), httpPart: 'querystring', method: 'GET', url: '/b' });

    expect(body({ title: 'too long' })).toBe(false);
    expect(sameBody({ title: 'ok' })).toBe(true);
    // Each wrapper reads the errors of its own last call.
    expect((body as unknown as { errors: unknown[] }).errors).toHaveLength(1);
    expect((sameBody as unknown as { errors: unknown }).errors).toBeNull();
    // A body is taken as sent; a query string is coerced, with its own compiled validator.
    expect(sameBody({ title: 12 })).toBe(false);
    expect(query({ title: 12 })).toBe(true);
  });

  it('gives two apps’ serialisers of the same schema the same answers', () => {
    const schema = Type.Object({ id: Type.String(), count: Type.Integer() });
    const route = { method: 'GET', url: '/x', httpStatus: '200' };
    const one = listSerializerFactory(new DeferredCompilations())({}, {})({ ...route, schema });
    const two = listSerializerFactory(new DeferredCompilations())({}, {})({
      ...route,
      schema: structuredClone(schema),
    });
    const other = listSerializerFactory(new DeferredCompilations())({}, {})({
      ...route,
      schema: Type.Object({ id: Type.String() }),
    });
    const value = { id: 'a', count: 2, secret: 'x' };
    expect(one(value)).toBe('{"id":"a","count":2}');
    expect(two(value)).toBe('{"id":"a","count":2}');
    expect(other(value)).toBe('{"id":"a"}');
  });
});

describe('apps built one after another in one process', () => {
  const t = useTestApp();

  it('each validate and answer as one app alone does', async () => {
    const second = await buildOwnApp(testConfig(t.database.url));
    try {
      const o = await t.factory.team();
      for (const app of [t.app, second]) {
        const bad = await app.inject({
          method: 'POST',
          url: `/v1/orgs/${o.organization.id}/spaces`,
          headers: o.admin.headers,
          payload: { title: 'x'.repeat(1000) },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error.message).toMatch(/title/);
        const listed = await app.inject({
          method: 'GET',
          url: `/v1/orgs/${o.organization.id}/spaces?limit=1`,
          headers: o.admin.headers,
        });
        expect(listed.statusCode).toBe(200);
        expect(listed.json()).toEqual({ items: [], count: 0 });
      }
    } finally {
      await second.close();
    }
  });
});
