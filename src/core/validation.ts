import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isEmoji } from './emoji.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options, schemas: object[]): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, strict: false, ...options });
  addFormats(ajv);
  ajv.addFormat('emoji', { type: 'string', validate: isEmoji });
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

/**
 * Request validation. A JSON body is taken exactly as sent (`42` is not the
 * string "42"), while query strings and path parameters, which are text, are
 * coerced to the types their schema names.
 */
export function createValidatorCompiler(sharedSchemas: object[]): FastifySchemaCompiler<object> {
  const strict = makeAjv({ coerceTypes: false }, sharedSchemas);
  const coercing = makeAjv({ coerceTypes: 'array' }, sharedSchemas);
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema);
}
