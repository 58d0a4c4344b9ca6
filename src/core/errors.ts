import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** An error whose status and message are fit to show to the caller. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string) {
    super(400, message);
  }
}
export class UnauthorizedError extends ApiError {
  constructor(message = 'Authentication required: send a valid API token as "Authorization: Bearer <token>"') {
    super(401, message, { 'www-authenticate': 'Bearer' });
  }
}
export class ForbiddenError extends ApiError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFoundError extends ApiError {
  constructor(message: string) {
    super(404, message);
  }
}
export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, message);
  }
}
export class ServiceUnavailableError extends ApiError {
  constructor(message = 'The database is unavailable; try again shortly') {
    // When "shortly" is, for clients that wait as they are told.
    super(503, message, { 'retry-after': '1' });
  }
}

export interface ErrorBody {
  error: { code: number; message: string };
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** One readable sentence for a failed schema rule, naming the field and the rule. */
function describeValidation(context: string, errors: AjvError[]): string {
  // Union summaries ("must match a schema in anyOf") say less than the branch errors beside them.
  const specific = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const error = [...(specific.length > 0 ? specific : errors)].sort(
    (a, b) => b.instancePath.length - a.instancePath.length,
  )[0]!;
  const field = `${context}${error.instancePath}`;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${field}/${String(error.params.additionalProperty)} is not an accepted field`;
    case 'enum':
      return `${field} must be one of: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'required':
      return `${field}/${String(error.params.missingProperty)} is required`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
const NETWORK_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

function isDatabaseError(error: unknown): error is { code: string; detail?: string; constraint?: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'severity' in error &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}

function isConnectionFailure(error: Error & { code?: unknown }): boolean {
  if (typeof error.code === 'string' && NETWORK_FAILURES.has(error.code)) return true;
  return /timeout exceeded when trying to connect|Connection terminated|connection (was )?closed|Client has encountered a connection error/i.test(
    error.message,
  );
}

/** The field named in "Key (hostname)=(acme) already exists.", as the API spells it. */
function fieldFromDetail(detail: string | undefined): string | undefined {
  const column = /^Key \(([a-z_, ]+)\)=/.exec(detail ?? '')?.[1];
  return column
    ?.split(', ')
    .at(-1)
    ?.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Maps any thrown value to what the caller is told. */
export function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new BadRequestError(
      describeValidation(fastifyError.validationContext ?? 'request', fastifyError.validation),
    );
  }
  if (isDatabaseError(error)) {
    const field = fieldFromDetail(error.detail);
    switch (error.code) {
      case '23505':
        return new ConflictError(field ? `${field} is already in use` : 'This conflicts with an existing resource');
      case '23503':
        return new BadRequestError(
          field ? `${field} refers to a resource that does not exist` : 'A referenced resource does not exist',
        );
      case '23514':
        return new BadRequestError('A value is not valid for this field');
      case '40001':
      case '40P01':
        return new ConflictError('A concurrent change conflicted with this request; try again');
      case '57014':
        // Cancelled, by the statement timeout or by an operator: the database is busy, not the request wrong.
        return new ServiceUnavailableError('The database took too long to answer this request; try again shortly');
    }
    // Class 22, data exceptions: a value the database cannot take, such as a NUL character.
    if (error.code.startsWith('22'))
      return new BadRequestError('A value contains characters or a form that cannot be stored');
    if (PG_UNAVAILABLE.has(error.code)) return new ServiceUnavailableError();
  }
  if (isConnectionFailure(fastifyError)) return new ServiceUnavailableError();
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new BadRequestError('The request body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new BadRequestError('The request body is empty but its Content-Type is application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'The request body is larger than this service accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'The request body must be JSON (Content-Type: application/json)');
    case 'FST_ERR_BAD_URL':
      // The router could not decode the path: a broken escape, or bytes that are not UTF-8.
      return new BadRequestError('The request path is not valid percent-encoded UTF-8');
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new BadRequestError('The request body is not valid JSON');
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new ApiError(status, error.message);
  return new ApiError(500, 'Internal server error');
}

export function errorBody(error: ApiError): ErrorBody {
  return { error: { code: error.statusCode, message: error.message } };
}

/** One error handler and one not-found handler for the whole app, with the body shape every client sees. */
export const errorHandlingPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const apiError = toApiError(error);
      if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.warn({ status: apiError.statusCode, reason: apiError.message }, 'request refused');
      void reply.code(apiError.statusCode).headers(apiError.headers).send(errorBody(apiError));
    });
    app.setNotFoundHandler((request, reply) => {
      void reply
        .code(404)
        .send(errorBody(new NotFoundError(`No route for ${request.method} ${request.url.split('?')[0]}`)));
    });
  },
  { name: 'error-handling' },
);
