import { Ajv, type Options, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import { CompiledOnce } from './compiled-once.js';
import type { DeferredCompilations } from './deferred-compilation.js';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isEmoji } from './emoji.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options, schemas: object[]): Ajv {
  // `verbose` puts the schema and data beside each error: what the 400's message
  // needs to name the branch of a union that the caller meant (validation-messages.ts).
  const ajv = new Ajv({
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    strict: false,
    verbose: true,
    ...options,
  });
  addFormats(ajv);
  ajv.addFormat('emoji', { type: 'string', validate: isEmoji });
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

interface Validators {
  strict: Ajv;
  coercing: Ajv;
  compiled: CompiledOnce<ValidateFunction>;
}

/** The two Ajv instances of each set of shared schemas, with what they compiled (./compiled-once.ts). */
const validatorsBySchemas = new CompiledOnce<Validators>();

/**
 * Request validation. A JSON body is taken exactly as sent (`42` is not the
 * string "42"), while query strings and path parameters, which are text, are
 * coerced to the types their schema names.
 */
export function createValidatorCompiler(
  sharedSchemas: object[],
  deferred: DeferredCompilations,
): FastifySchemaCompiler<object> {
  const { strict, coercing, compiled } = validatorsBySchemas.get(sharedSchemas, () => ({
    strict: makeAjv({ coerceTypes: false }, sharedSchemas),
    coercing: makeAjv({ coerceTypes: 'array' }, sharedSchemas),
    compiled: new CompiledOnce(),
  }));
  return ({ schema, httpPart }) => {
    const body = httpPart === 'body';
    const validator = deferred.defer(() =>
      compiled.get([body, schema], () => (body ? strict : coercing).compile(schema)),
    );
    // Fastify looks for `schemaEnv` to pass the request as the value's parent, which Ajv needs to
    // coerce or default a whole query or params object; it reads `errors` after each call.
    const validate = (data: unknown, context?: DataValidationCxt) => {
      const valid = validator()(data, context);
      validate.errors = validator().errors;
      return valid;
    };
    validate.errors = undefined as ValidateFunction['errors'];
    validate.schemaEnv = true;
    return validate;
  };
}
