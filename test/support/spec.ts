import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The conformance reference: the GitBook API description whose paths match the seeds. */
const seedSpec = require('@gitbook/api/spec/openapi.json') as OpenApi;
/** GitBook's newest API description (@gitbook/api@0.202.0): the reference for operations the seeds lack. */
const newestSpec = require('@gitbook/api-next/spec/openapi.json') as OpenApi;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, ResponseObject> };
}
interface Operation {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}
interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: null becomes one more allowed
 * type (and enum value), since Ajv does not accept `nullable` without `type`.
 */
function nullableToJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableToJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, nullableToJsonSchema(value)]));
  if (nullable !== true) return converted;
  if (Array.isArray(converted.enum) && !converted.enum.includes(null)) converted.enum = [...converted.enum, null];
  if (typeof converted.type === 'string') return { ...converted, type: [converted.type, 'null'] };
  return { anyOf: [converted, { type: 'null' }] };
}

/** An Ajv holding one spec as `spec`, its compiled checks kept by key. */
function specValidators(spec: OpenApi, allErrors: boolean) {
  const ajv = new Ajv({ strict: false, allErrors, validateFormats: true });
  addFormats(ajv);
  // Formats the spec uses that JSON Schema does not define; the service checks these itself.
  for (const format of ['emoji', 'icon', 'markdown', 'binary']) ajv.addFormat(format, true);
  ajv.addSchema(nullableToJsonSchema(spec) as object, 'spec');
  const compiled = new Map<string, ValidateFunction>();
  return {
    ajv,
    compile(key: string, schema: () => unknown): ValidateFunction {
      let validate = compiled.get(key);
      if (!validate) {
        validate = ajv.compile(schema() as object);
        compiled.set(key, validate);
      }
      return validate;
    },
  };
}

/**
 * A validator of one spec's responses and schemas. A value is checked up to
 * its first error, which is what passing needs; a value that fails is checked
 * again for all its errors, to name them. Checking every branch of every
 * union for all its errors cost the suite's workers some 13 s of a run.
 */
function specChecker(spec: OpenApi, name: string) {
  const first = specValidators(spec, false);
  let every: ReturnType<typeof specValidators> | undefined;
  const check = (key: string, schema: () => unknown, what: string, value: unknown): void => {
    if (first.compile(key, schema)(value)) return;
    every ??= specValidators(spec, true);
    const validate = every.compile(key, schema);
    validate(value);
    throw new Error(
      `${what} does not match ${name}:\n  ${every.ajv.errorsText(validate.errors, { separator: '\n  ' })}`,
    );
  };
  return {
    response(operationId: string, status: number, body: unknown): void {
      const key = `${operationId} ${status}`;
      check(key, () => responseSchema(spec, operationId, status), `${key} response`, body);
    },
    schema(schemaName: string, value: unknown): void {
      check(`schema ${schemaName}`, () => ({ $ref: `spec#/components/schemas/${schemaName}` }), schemaName, value);
    },
  };
}

function findOperation(spec: OpenApi, operationId: string): Operation {
  for (const methods of Object.values(spec.paths)) {
    for (const operation of Object.values(methods)) {
      if (operation.operationId === operationId) return operation;
    }
  }
  throw new Error(`No operation ${operationId} in the spec`);
}

function responseSchema(spec: OpenApi, operationId: string, status: number): unknown {
  const responses = findOperation(spec, operationId).responses ?? {};
  let response = responses[String(status)] ?? responses.default;
  if (!response) throw new Error(`${operationId} has no ${status} response in the spec`);
  if (response.$ref) response = spec.components.responses[response.$ref.split('/').pop()!]!;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${operationId} ${status} has no JSON body in the spec`);
  // Point the schema's own references at the spec document registered above.
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"spec#/components/'));
}

const seed = specChecker(seedSpec, 'the spec');
const newest = specChecker(newestSpec, 'the newest spec');

/** Asserts that `body` is a valid `status` response of `operationId` in @gitbook/api@0.143.2's spec. */
export function expectSpecResponse(operationId: string, status: number, body: unknown): void {
  seed.response(operationId, status, body);
}

/** Asserts that `value` is valid against `spec#/components/schemas/<schemaName>` of @gitbook/api@0.143.2's spec. */
export function expectSpecSchema(schemaName: string, value: unknown): void {
  seed.schema(schemaName, value);
}

/** Asserts that `body` is a valid `status` response of `operationId` in @gitbook/api@0.202.0's spec. */
export function expectNewestSpecResponse(operationId: string, status: number, body: unknown): void {
  newest.response(operationId, status, body);
}

/** Asserts that `value` is valid against a schema of @gitbook/api@0.202.0's spec. */
export function expectNewestSpecSchema(schemaName: string, value: unknown): void {
  newest.schema(schemaName, value);
}
