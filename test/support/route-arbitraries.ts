import fc from 'fast-check';
import { createValidatorCompiler } from '../../src/core/validation.js';
import { DeferredCompilations } from '../../src/core/deferred-compilation.js';

/**
 * Requests generated from the service's own OpenAPI document: for each
 * operation, requests its schemas accept (`valid`), and valid requests with
 * one thing broken (`invalid`). What is valid is decided by the service's own
 * validator compiler, so a generated request can be checked before it is sent.
 */

export type JsonSchema = Record<string, unknown>;
type Json = unknown;
type QueryValue = string | string[];

interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface OpenApiOperation {
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface RouteOperation {
  /** Upper case. */
  method: string;
  /** The OpenAPI template, such as `/v1/spaces/{spaceId}`; `{pagePath}` is the rest of the path. */
  path: string;
  operationId: string | undefined;
  pathParams: Array<{ name: string; schema: JsonSchema }>;
  /** The query parameters as one object schema, as the service validates them. */
  querySchema: JsonSchema;
  bodySchema: JsonSchema | undefined;
  bodyRequired: boolean;
}

export interface GeneratedRequest {
  operation: RouteOperation;
  params: Record<string, string>;
  /** As sent: text, repeated keys for arrays. */
  query: Record<string, QueryValue>;
  /** The JSON value sent, or undefined for no body. */
  body: Json;
  /** The bytes sent when they are not `body` as JSON (a broken body). */
  rawPayload?: string | Buffer;
  contentType?: string;
  /** What was broken, for an invalid request. */
  mutation?: string;
}

export interface ArbitraryOptions {
  /** The value of a path parameter, by name; otherwise one from its schema. */
  pathParam?: (name: string, schema: JsonSchema) => fc.Arbitrary<string> | undefined;
  /**
   * Values that string properties of these names (and items of arrays so
   * named) take most of the time, such as real ids, so that bodies reach
   * past "not found".
   */
  knownValues?: Record<string, readonly string[]>;
  /**
   * Optional query parameters sent in one valid request in ten only: those no
   * generated value can satisfy, such as an opaque cursor, which would
   * otherwise have most requests refused before they reach anything else.
   */
  rareQueryParams?: readonly string[];
}

const DOCUMENT_ID = 'openapi-document';
type MutationGroup = 'path' | 'query' | 'encoding' | 'body';
/**
 * How often each kind of break is chosen, where the request has it. Path
 * values past 100 characters stop at the router (414) before any handler, so
 * they are tried least.
 */
const MUTATION_WEIGHTS: Record<MutationGroup, number> = { path: 1, query: 3, encoding: 2, body: 5 };
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
/** Generated strings and arrays stay this much over their minimum, so that bodies stay small. */
const SMALL = 8;
/** A limit above this is not tried as "one too many": the body would be large. */
const LARGEST_BOUNDARY = 4096;

/** The operations of the document, in its order. */
export function routeOperations(document: unknown): RouteOperation[] {
  const doc = document as OpenApiDocument;
  const operations: RouteOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = methods[method];
      if (!operation) continue;
      const parameters = operation.parameters ?? [];
      const query = parameters.filter((p) => p.in === 'query');
      const querySchema: JsonSchema = {
        type: 'object',
        properties: Object.fromEntries(query.map((p) => [p.name, p.schema ?? {}])),
        required: query.filter((p) => p.required).map((p) => p.name),
      };
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        querySchema,
        bodySchema: operation.requestBody?.content?.['application/json']?.schema,
        bodyRequired: operation.requestBody?.required === true,
      });
    }
  }
  return operations;
}

/** Generators and the validity check for one document. */
export class RouteArbitraries {
  private readonly components: Record<string, JsonSchema>;
  private readonly compile: (schema: JsonSchema, part: 'body' | 'querystring' | 'params') => (data: unknown) => boolean;
  private readonly validators = new WeakMap<JsonSchema, Map<string, (data: unknown) => boolean>>();

  constructor(
    document: unknown,
    private readonly options: ArbitraryOptions = {},
  ) {
    const doc = document as OpenApiDocument;
    this.components = doc.components?.schemas ?? {};
    const compiler = createValidatorCompiler(
      [{ $id: DOCUMENT_ID, components: doc.components ?? {} }],
      new DeferredCompilations(),
    );
    this.compile = (schema, httpPart) => {
      // References into the document's components resolve against the copy registered above.
      const located = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`));
      const validate = compiler({ schema: located, httpPart, method: 'POST', url: '/' }) as (data: unknown) => boolean;
      // The service's validator fills in defaults and coerces in place: check a copy.
      return (data) => validate(structuredClone(data));
    };
  }

  /** Whether the service's schemas accept the request (path, query and body). */
  accepts(request: GeneratedRequest): boolean {
    const { operation } = request;
    if (!this.validator(this.paramsSchema(operation), 'params')(request.params)) return false;
    if (!this.validator(operation.querySchema, 'querystring')(request.query)) return false;
    if (request.rawPayload !== undefined) return false;
    if (operation.bodySchema === undefined) return true;
    if (request.body === undefined) return !operation.bodyRequired;
    return this.validator(operation.bodySchema, 'body')(request.body);
  }

  /** Requests the operation's schemas accept. */
  valid(operation: RouteOperation): fc.Arbitrary<GeneratedRequest> {
    const params = fc.record(
      Object.fromEntries(
        operation.pathParams.map(({ name, schema }) => [
          name,
          this.options.pathParam?.(name, schema) ??
            (this.value(schema, { key: name, depth: 0 }) as fc.Arbitrary<string>),
        ]),
      ),
    );
    const rare = (this.options.rareQueryParams ?? []).filter(
      (name) => !(operation.querySchema.required as string[]).includes(name),
    );
    const query = fc
      .tuple(this.value(operation.querySchema, { key: undefined, depth: 0 }), fc.nat(9))
      .map(([value, dice]) => {
        const sent = { ...(value as Record<string, unknown>) };
        if (dice > 0) for (const name of rare) delete sent[name];
        return queryText(sent);
      });
    const body: fc.Arbitrary<Json> =
      operation.bodySchema === undefined
        ? fc.constant(undefined)
        : operation.bodyRequired
          ? this.value(operation.bodySchema, { key: undefined, depth: 0 })
          : fc.option(this.value(operation.bodySchema, { key: undefined, depth: 0 }), {
              nil: undefined,
              freq: 4,
            });
    return fc
      .record({ params, query, body })
      .map(({ params, query, body }) => ({ operation, params, query, body }) satisfies GeneratedRequest);
  }

  /**
   * Valid requests with one thing broken: a value of the wrong type, out of
   * its range or length, an unknown enum value, a missing required or an
   * unexpected property, a body that is not JSON, not UTF-8 or not declared
   * as JSON. Each is checked against the schemas, so none is valid by accident.
   */
  invalid(operation: RouteOperation): fc.Arbitrary<GeneratedRequest> | undefined {
    if (!this.canBreak(operation)) return undefined;
    return this.valid(operation)
      .chain((request) => {
        const groups = this.mutationsOf(request);
        const choices = (Object.keys(MUTATION_WEIGHTS) as MutationGroup[])
          .filter((group) => groups[group].length > 0)
          .map((group) => ({
            weight: MUTATION_WEIGHTS[group],
            arbitrary: fc.constantFrom(...groups[group]).map((mutate) => mutate()),
          }));
        return choices.length === 0 ? fc.constant(undefined) : fc.oneof(...choices);
      })
      .filter((request): request is GeneratedRequest => request !== undefined && !this.accepts(request));
  }

  /** Whether the operation has anything to break (a body, a query or a path parameter with a rule). */
  private canBreak(operation: RouteOperation): boolean {
    return (
      operation.method !== 'GET' ||
      Object.keys(operation.querySchema.properties as object).length > 0 ||
      operation.pathParams.length > 0
    );
  }

  // ---- valid values ----

  private value(input: JsonSchema | boolean, at: { key: string | undefined; depth: number }): fc.Arbitrary<Json> {
    if (input === true) return smallJson();
    if (input === false) throw new Error('No value satisfies the schema `false`');
    const schema = this.resolve(input);
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) {
      return fc.constantFrom(...(schema.enum as Json[])).filter((v) => this.acceptsValue(schema, v));
    }
    const branches = this.branches(schema);
    if (branches) {
      const any = fc.oneof(...branches.map((b) => this.value(b, at)));
      // A value of one anyOf branch satisfies the union; oneOf and if/then/else need the whole check.
      return schema.anyOf ? any : any.filter((v) => this.acceptsValue(schema, v));
    }
    if (Array.isArray(schema.type)) {
      return fc.oneof(...(schema.type as string[]).map((type) => this.value({ ...schema, type }, at)));
    }
    if (schema.nullable === true) {
      const { nullable: _, ...rest } = schema;
      return fc.option(this.value(rest, at), { nil: null, freq: 5 });
    }
    switch (schema.type ?? inferType(schema)) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerValue(schema);
      case 'number':
        return numberValue(schema);
      case 'string':
        return this.stringValue(schema, at.key);
      case 'array':
        return this.arrayValue(schema, at);
      case 'object':
        return this.objectValue(schema, at);
      default:
        return smallJson();
    }
  }

  private stringValue(schema: JsonSchema, key: string | undefined): fc.Arbitrary<string> {
    const minLength = (schema.minLength as number | undefined) ?? 0;
    const maxLength = (schema.maxLength as number | undefined) ?? minLength + 64;
    const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
    const fits = (s: string) =>
      codePoints(s) >= minLength && codePoints(s) <= maxLength && (!pattern || pattern.test(s));
    const format = schema.format as string | undefined;

    let generic: fc.Arbitrary<string>;
    if (format && FORMATS[format]) generic = FORMATS[format];
    else if (pattern) {
      generic = matching(schema.pattern as string);
    } else {
      const upTo = Math.min(maxLength, minLength + SMALL);
      const usual = text(minLength, upTo);
      // Now and then exactly the longest accepted: what a column narrower than its schema cannot hold.
      generic =
        maxLength <= LARGEST_BOUNDARY && maxLength > upTo
          ? fc.oneof(
              { arbitrary: usual, weight: 9 },
              { arbitrary: fc.string({ minLength: maxLength, maxLength, unit: 'grapheme-ascii' }), weight: 1 },
            )
          : usual;
    }
    const known = key ? (this.options.knownValues?.[key] ?? []).filter(fits) : [];
    const any = known.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, generic) : generic;
    return any.filter(fits);
  }

  private arrayValue(schema: JsonSchema, at: { key: string | undefined; depth: number }): fc.Arbitrary<Json[]> {
    const minLength = (schema.minItems as number | undefined) ?? 0;
    const extra = at.depth <= 1 ? 3 : 1;
    const maxLength = Math.min((schema.maxItems as number | undefined) ?? minLength + extra, minLength + extra);
    const items = this.value((schema.items as JsonSchema | undefined) ?? true, { key: at.key, depth: at.depth + 1 });
    return schema.uniqueItems === true
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
      : fc.array(items, { minLength, maxLength });
  }

  private objectValue(schema: JsonSchema, at: { key: string | undefined; depth: number }): fc.Arbitrary<Json> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema | boolean>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    // Deep in a recursive schema, only what is required, so that values stay finite and small.
    const names = Object.keys(properties).filter((name) => at.depth < 6 || required.has(name));
    const values = Object.fromEntries(
      names.map((name) => [name, this.value(properties[name]!, { key: name, depth: at.depth + 1 })]),
    );
    const additional = schema.additionalProperties;
    const minProperties = (schema.minProperties as number | undefined) ?? 0;
    const maxProperties = (schema.maxProperties as number | undefined) ?? Infinity;
    // A few of the optional properties at a time, so that a large schema still makes a small body.
    const mandatory = names.filter((name) => required.has(name));
    const optional = names.filter((name) => !required.has(name));
    const fewest = Math.min(optional.length, Math.max(0, minProperties - mandatory.length));
    const declared = fc
      .subarray(optional, {
        minLength: fewest,
        maxLength: Math.max(fewest, Math.min(optional.length, at.depth === 0 ? 4 : 2)),
      })
      .chain((chosen) => fc.record(Object.fromEntries([...mandatory, ...chosen].map((name) => [name, values[name]!]))));
    if (additional === false || additional === undefined || at.depth >= 6) {
      return declared.filter((o) => Object.keys(o).length >= minProperties && Object.keys(o).length <= maxProperties);
    }
    const keyPattern = (schema.propertyNames as JsonSchema | undefined)?.pattern as string | undefined;
    const keys = (keyPattern ? matching(keyPattern) : TEXT_KEY).filter((k) => !(k in properties) && k !== '__proto__');
    const extra = fc.dictionary(
      keys,
      this.value(additional as JsonSchema | boolean, { key: undefined, depth: at.depth + 1 }),
      {
        minKeys: Math.max(0, minProperties - required.size),
        maxKeys: Math.max(0, Math.min(2, maxProperties - names.length)),
      },
    );
    return fc
      .tuple(declared, extra)
      .map(([own, more]) => ({ ...more, ...own }))
      .filter((o) => Object.keys(o).length >= minProperties && Object.keys(o).length <= maxProperties);
  }

  // ---- broken requests ----

  /** Each way to break the request, by where it breaks it, made only when chosen. */
  private mutationsOf(request: GeneratedRequest): Record<MutationGroup, Array<() => GeneratedRequest>> {
    const { operation } = request;
    const groups: Record<MutationGroup, Array<() => GeneratedRequest>> = {
      path: [],
      query: [],
      encoding: [],
      body: [],
    };
    const broken = (mutation: string, change: Partial<GeneratedRequest>) => () => ({ ...request, ...change, mutation });

    for (const { name, schema } of operation.pathParams) {
      for (const [what, value] of this.brokenTexts(this.resolve(schema))) {
        groups.path.push(broken(`path ${name}: ${what}`, { params: { ...request.params, [name]: value } }));
      }
    }
    const queryProperties = operation.querySchema.properties as Record<string, JsonSchema>;
    for (const [name, raw] of Object.entries(queryProperties)) {
      const schema = this.resolve(raw);
      const replace = (what: string, value: QueryValue | undefined) => {
        const query = { ...request.query };
        if (value === undefined) delete query[name];
        else query[name] = value;
        groups.query.push(broken(`query ${name}: ${what}`, { query }));
      };
      if ((operation.querySchema.required as string[]).includes(name)) replace('missing', undefined);
      if (schema.type === 'array') {
        const items = this.resolve((schema.items as JsonSchema | undefined) ?? {});
        for (const [what, value] of this.brokenTexts(items)) replace(`an item ${what}`, [value]);
        const maxItems = schema.maxItems as number | undefined;
        if (maxItems !== undefined && maxItems < 100) replace('too many items', Array(maxItems + 1).fill('a'));
      } else {
        for (const [what, value] of this.brokenTexts(schema)) replace(what, value);
      }
    }

    if (operation.method !== 'GET') {
      const text = request.body === undefined ? '{"a":' : JSON.stringify(request.body);
      groups.encoding.push(
        broken('body: malformed JSON', { rawPayload: text.slice(0, -1) || '{', contentType: 'application/json' }),
        broken('body: not declared as JSON', { rawPayload: text, contentType: 'text/plain' }),
        broken('body: form-encoded', { rawPayload: 'title=x', contentType: 'application/x-www-form-urlencoded' }),
        broken('body: another charset', { rawPayload: text, contentType: 'application/json; charset=iso-8859-1' }),
        broken('body: invalid UTF-8', {
          rawPayload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
          contentType: 'application/json',
        }),
      );
    }
    if (operation.bodySchema !== undefined) {
      if (operation.bodyRequired) groups.body.push(broken('body: missing', { body: undefined }));
      if (request.body !== undefined) {
        for (const { where, what, apply } of this.valueMutations(operation.bodySchema, request.body, [])) {
          groups.body.push(() => ({
            ...request,
            body: apply(structuredClone(request.body)),
            mutation: `body${where}: ${what}`,
          }));
        }
      }
    }
    return groups;
  }

  /** Texts a query or path value of this schema must not take. */
  private brokenTexts(schema: JsonSchema): Array<[string, string]> {
    const texts: Array<[string, string]> = [];
    const type = Array.isArray(schema.type) ? undefined : schema.type;
    if (type === 'integer' || type === 'number') {
      texts.push(['not a number', 'twelve']);
      if (typeof schema.maximum === 'number') texts.push(['over its maximum', String(schema.maximum + 1)]);
      if (typeof schema.minimum === 'number') texts.push(['under its minimum', String(schema.minimum - 1)]);
      if (type === 'integer') texts.push(['not an integer', '1.5']);
    }
    if (type === 'boolean') texts.push(['not a boolean', 'maybe']);
    if (Array.isArray(schema.enum)) texts.push(['not one of its values', 'not-a-listed-value']);
    if (type === 'string' && !Array.isArray(schema.enum)) {
      const maxLength = schema.maxLength as number | undefined;
      if (maxLength !== undefined && maxLength < LARGEST_BOUNDARY) texts.push(['too long', 'a'.repeat(maxLength + 1)]);
      const minLength = schema.minLength as number | undefined;
      if (minLength !== undefined && minLength > 1) texts.push(['too short', 'a'.repeat(minLength - 1)]);
      if (typeof schema.pattern === 'string') texts.push(['against its pattern', 'a b!']);
    }
    return texts;
  }

  /** Every single change to `value` (at `path` under `schema`) that may break it. */
  private valueMutations(
    input: JsonSchema | boolean,
    value: Json,
    path: Array<string | number>,
  ): Array<{ where: string; what: string; apply: (root: Json) => Json }> {
    if (typeof input === 'boolean') return [];
    const schema = this.resolve(input);
    const where = path.map((p) => `/${p}`).join('');
    const found: Array<{ where: string; what: string; apply: (root: Json) => Json }> = [];
    const set = (what: string, replacement: Json) =>
      found.push({ where, what, apply: (root) => setAt(root, path, replacement) });

    // A value of every other JSON type; the validity check drops those the schema also takes.
    for (const other of [42, 'text', true, null, [], {}] as Json[]) {
      if (jsonType(other) !== jsonType(value)) set(`a ${jsonType(other)} instead`, other);
    }
    if (Array.isArray(schema.enum)) set('not one of its values', 'not-a-listed-value');

    const branch = this.matchingBranch(schema, value);
    if (branch && branch !== schema) {
      found.push(...this.valueMutations(branch, value, path));
      return found;
    }
    if (typeof value === 'string') {
      const maxLength = schema.maxLength as number | undefined;
      if (maxLength !== undefined && maxLength < LARGEST_BOUNDARY) set('too long', 'a'.repeat(maxLength + 1));
      const minLength = schema.minLength as number | undefined;
      if (minLength !== undefined && minLength > 0) set('too short', 'a'.repeat(minLength - 1));
      if (typeof schema.pattern === 'string') set('against its pattern', ' \n');
      if (typeof schema.format === 'string') set(`not a ${schema.format}`, 'not a valid one');
    }
    if (typeof value === 'number') {
      if (typeof schema.maximum === 'number') set('over its maximum', schema.maximum + 1);
      if (typeof schema.minimum === 'number') set('under its minimum', schema.minimum - 1);
      if (schema.type === 'integer') set('not an integer', value + 0.5);
    }
    if (Array.isArray(value)) {
      const maxItems = schema.maxItems as number | undefined;
      if (maxItems !== undefined && maxItems < 100 && value.length > 0) {
        set(
          'too many items',
          Array.from({ length: maxItems + 1 }, (_, i) => value[i % value.length]),
        );
      }
      const minItems = schema.minItems as number | undefined;
      if (minItems !== undefined && minItems > 0) set('too few items', value.slice(0, minItems - 1));
      const items = schema.items as JsonSchema | undefined;
      if (items) value.forEach((item, i) => found.push(...this.valueMutations(items, item, [...path, i])));
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const object = value as Record<string, Json>;
      for (const name of (schema.required as string[] | undefined) ?? []) {
        if (name in object) {
          found.push({ where: `${where}/${name}`, what: 'missing', apply: (root) => deleteAt(root, [...path, name]) });
        }
      }
      if (schema.additionalProperties === false) set('an unexpected property', { ...object, unexpectedField: 1 });
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema | boolean>;
      for (const [name, item] of Object.entries(object)) {
        const itemSchema = properties[name] ?? (schema.additionalProperties as JsonSchema | boolean | undefined);
        if (itemSchema !== undefined) found.push(...this.valueMutations(itemSchema, item, [...path, name]));
      }
    }
    return found;
  }

  // ---- schemas ----

  private resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string'; hops++) {
      const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
      const target = name ? this.components[name] : undefined;
      if (!target || hops > 20) throw new Error(`Cannot resolve ${current.$ref}`);
      const { $ref: _, ...rest } = current;
      current = { ...target, ...rest };
    }
    return current;
  }

  private readonly branchCache = new WeakMap<JsonSchema, JsonSchema[] | undefined>();

  /**
   * The alternatives of a union (anyOf, oneOf, a chain of if/then/else), each
   * merged with the keywords beside it; undefined for a schema that is no union.
   */
  private branches(schema: JsonSchema): JsonSchema[] | undefined {
    if (this.branchCache.has(schema)) return this.branchCache.get(schema);
    let result: JsonSchema[] | undefined;
    const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (union) {
      const { anyOf: _a, oneOf: _o, ...rest } = schema;
      result = union.map((branch) => ({ ...rest, ...branch }));
    } else if (schema.if !== undefined) {
      const { if: _i, then: _t, else: _e, ...rest } = schema;
      result = [];
      let node: JsonSchema | boolean | undefined = schema;
      while (typeof node === 'object' && node.if !== undefined) {
        if (typeof node.then === 'object') result.push({ ...rest, ...(node.then as JsonSchema) });
        node = node.else as JsonSchema | boolean | undefined;
      }
      if (typeof node === 'object') result.push({ ...rest, ...node });
      else if (node === true || node === undefined) result.push(rest);
    }
    this.branchCache.set(schema, result);
    return result;
  }

  /** The branch of a union that `value` satisfies, to descend into it. */
  private matchingBranch(schema: JsonSchema, value: Json): JsonSchema | undefined {
    const branches = this.branches(schema);
    if (!branches) {
      if (!Array.isArray(schema.type)) return schema;
      const types = schema.type as string[];
      const type = jsonType(value);
      const chosen = types.includes(type)
        ? type
        : type === 'integer' && types.includes('number')
          ? 'number'
          : undefined;
      return chosen ? { ...schema, type: chosen } : undefined;
    }
    return branches.find((branch) => this.acceptsValue(branch, value));
  }

  private acceptsValue(schema: JsonSchema, value: Json): boolean {
    return this.validator(schema, 'body')(value);
  }

  private validator(schema: JsonSchema, part: 'body' | 'querystring' | 'params'): (data: unknown) => boolean {
    let byPart = this.validators.get(schema);
    if (!byPart) this.validators.set(schema, (byPart = new Map()));
    let validate = byPart.get(part);
    if (!validate) byPart.set(part, (validate = this.compile(schema, part)));
    return validate;
  }

  private readonly paramsSchemas = new WeakMap<RouteOperation, JsonSchema>();

  private paramsSchema(operation: RouteOperation): JsonSchema {
    let schema = this.paramsSchemas.get(operation);
    if (!schema) {
      schema = {
        type: 'object',
        properties: Object.fromEntries(operation.pathParams.map((p) => [p.name, p.schema])),
        required: operation.pathParams.map((p) => p.name),
      };
      this.paramsSchemas.set(operation, schema);
    }
    return schema;
  }
}

/** The path and query of a request, percent-encoded. */
export function requestUrl(request: GeneratedRequest): string {
  const path = request.operation.path.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = request.params[name] ?? '';
    // The rest of the path (the route's wildcard) keeps its slashes.
    return name === 'pagePath' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
  const pairs = Object.entries(request.query).flatMap(([name, value]) =>
    [value].flat().map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`),
  );
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

/** What app.inject needs to send the request. */
export function injectOptions(request: GeneratedRequest, headers: Record<string, string>) {
  const payload = request.rawPayload ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const contentType = request.contentType ?? (payload === undefined ? undefined : 'application/json');
  return {
    method: request.operation.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: requestUrl(request),
    headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  };
}

/** The request as a curl command line (without the token), to replay a failure. */
export function describeRequest(request: GeneratedRequest): string {
  const options = injectOptions(request, {});
  const payload = options.payload;
  const data =
    payload === undefined
      ? ''
      : ` -H 'content-type: ${options.headers['content-type']}' --data-binary ${shellQuote(
          Buffer.isBuffer(payload) ? `(bytes ${payload.toString('hex')})` : payload,
        )}`;
  const broken = request.mutation ? `  # broken: ${request.mutation}` : '';
  return `curl -X ${options.method} ${shellQuote(`$BASE${options.url}`)} -H "authorization: Bearer $TOKEN"${data}${broken}`;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

// ---- helpers ----

/** Mostly plain ASCII, with the characters that break naive code: NUL, quotes, escapes, non-ASCII, emoji. */
const TEXT_UNIT = fc.oneof(
  { arbitrary: fc.constantFrom(...'abcdefxyzABCXYZ0129 -_.'), weight: 12 },
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), weight: 4 },
  {
    arbitrary: fc.constantFrom('\u0000', '"', "'", '\\', '\n', '%', '/', '<', 'é', 'ß', '中', '😀', '\u200b'),
    weight: 2,
  },
);
const TEXT_KEY = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,7}$/);

const HOSTS = ['example.com', 'docs.example.org', 'api.example.net'];
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  // Names that do not resolve: an outbound fetch fails at once, never waits.
  uri: fc
    .tuple(
      fc.constantFrom('http', 'https'),
      fc.constantFrom(...HOSTS),
      fc.array(fc.stringMatching(/^[a-z0-9-]{1,8}$/), { maxLength: 3 }),
    )
    .map(([scheme, host, segments]) => `${scheme}://${host}/${segments.join('/')}`),
  email: fc
    .tuple(fc.stringMatching(/^[a-z0-9]{1,8}$/), fc.constantFrom(...HOSTS))
    .map(([local, host]) => `${local}@${host}`),
  'date-time': fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  emoji: fc.constantFrom('😀', '🎉', '👍', '🚀', '📚', '1f389'),
};

/** Characters a negated class may stand for when generating. */
const CLASS_POOL = [...'abcxyzABCXYZ0189_-.~!$&*+=:;,@#%?/\\\'"<>()[]{}| é中😀'];

const textCache = new Map<string, fc.Arbitrary<string>>();

/** Text of a length in range, made once per range: fast-check takes time to build one with a custom unit. */
function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const key = `${minLength}-${maxLength}`;
  let arbitrary = textCache.get(key);
  if (!arbitrary) textCache.set(key, (arbitrary = fc.string({ minLength, maxLength, unit: TEXT_UNIT })));
  return arbitrary;
}

const matchingCache = new Map<string, fc.Arbitrary<string>>();

/** Short strings that match the pattern, made once per pattern: fast-check takes time to build one. */
function matching(pattern: string): fc.Arbitrary<string> {
  let arbitrary = matchingCache.get(pattern);
  if (!arbitrary) matchingCache.set(pattern, (arbitrary = fc.stringMatching(generable(pattern), { size: 'xsmall' })));
  return arbitrary;
}

/**
 * The pattern in a form fast-check generates quickly and correctly: without
 * lookaheads (which it cannot generate; the whole pattern is checked after)
 * and with each negated class replaced by the characters of a small pool it
 * admits (fast-check's own negated classes cost a filter per character).
 */
function generable(pattern: string): RegExp {
  const withoutLookaheads = pattern.replaceAll(/\(\?!(?:[^()\\]|\\.)*\)/g, '');
  const positive = withoutLookaheads.replaceAll(/\[\^((?:[^\]\\]|\\.)*)\]/g, (negated) => {
    const admitted = new RegExp(`^${negated}$`, 'u');
    const chars = CLASS_POOL.filter((c) => admitted.test(c));
    return `[${chars.map((c) => c.replace(/^[\\\]\[^-]$/, '\\$&')).join('')}]`;
  });
  return new RegExp(positive, 'u');
}

function smallJson(): fc.Arbitrary<Json> {
  return fc.jsonValue({ maxDepth: 1, depthSize: 'xsmall' });
}

function inferType(schema: JsonSchema): string | undefined {
  if (schema.properties || schema.additionalProperties !== undefined) return 'object';
  if (schema.items) return 'array';
  if (schema.minLength !== undefined || schema.maxLength !== undefined || schema.pattern || schema.format)
    return 'string';
  return undefined;
}

function integerValue(schema: JsonSchema): fc.Arbitrary<number> {
  const min = bound(schema.minimum, schema.exclusiveMinimum, 1) ?? Number.MIN_SAFE_INTEGER;
  const max = bound(schema.maximum, schema.exclusiveMaximum, -1) ?? Number.MAX_SAFE_INTEGER;
  const near = fc.integer({ min: Math.max(min, -1000), max: Math.min(max, Math.max(min, -1000) + 2000) });
  // The edges of the range, and past 32 bits where the schema allows it: what an int column cannot hold.
  const edges = [min, max, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1].filter((n) => n >= min && n <= max);
  return fc.oneof({ arbitrary: near, weight: 8 }, { arbitrary: fc.constantFrom(...edges), weight: 2 });
}

function numberValue(schema: JsonSchema): fc.Arbitrary<number> {
  const min = bound(schema.minimum, schema.exclusiveMinimum, Number.EPSILON) ?? -1e12;
  const max = bound(schema.maximum, schema.exclusiveMaximum, -Number.EPSILON) ?? 1e12;
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
}

function bound(inclusive: unknown, exclusive: unknown, step: number): number | undefined {
  if (typeof exclusive === 'number') return exclusive + step;
  return typeof inclusive === 'number' ? inclusive : undefined;
}

/** A query value as text, as a URL carries it. */
function queryText(value: Record<string, unknown>): Record<string, QueryValue> {
  return Object.fromEntries(
    Object.entries(value).map(([name, v]) => [name, Array.isArray(v) ? v.map(String) : String(v)]),
  );
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function jsonType(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function setAt(root: Json, path: Array<string | number>, replacement: Json): Json {
  if (path.length === 0) return replacement;
  let node = root as Record<string | number, Json>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, Json>;
  node[path.at(-1)!] = replacement;
  return root;
}

function deleteAt(root: Json, path: Array<string | number>): Json {
  let node = root as Record<string | number, Json>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, Json>;
  delete node[path.at(-1)!];
  return root;
}
