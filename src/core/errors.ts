import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { NoResultError } from 'kysely';
import { describeValidation } from './validation-messages.js';
import { ApiError, BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from './api-errors.js';

export {
  ApiError,
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  PreconditionFailedError,
  ServiceUnavailableError,
} from './api-errors.js';

export interface ErrorBody {
  error: { code: number; message: string };
}

/**
 * Shutdowns, too many connections, and every connection exception (class 08),
 * 08P01 included: PgBouncer answers with it while it cannot reach the server
 * ("server login has been failing"), as through a primary's restart.
 */
const PG_UNAVAILABLE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08P01',
]);
const NETWORK_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

function isDatabaseError(error: unknown): error is { code: string; detail?: string; constraint?: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    'severity' in error &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}

/** The database is stopping, restarting or out of reach: an operating condition, not a fault of the service. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isDatabaseError(error)) return PG_UNAVAILABLE.has(error.code);
  return error instanceof Error && isConnectionFailure(error);
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
  // A write's statement names the tenant with the row: a row that moved to another organization, or went,
  // between the check and the write is found by none, and the request loses the race.
  if (error instanceof NoResultError)
    return new ConflictError('The resource changed while this request ran (moved or deleted); read it again');
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

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods the router serves at a path (a URL, not a pattern), in the usual order. */
function allowedMethods(app: FastifyInstance, methods: ReadonlySet<string>, path: string): string[] {
  // The router answers a segment longer than its parameter limit with a 414
  // handler for any method whose routes have that shape: no route takes it.
  const maxParamLength = app.initialConfig.maxParamLength ?? 100;
  if (path.split('/').some((segment) => segment.length > maxParamLength)) return [];
  const found = [...methods].filter((method) => app.findRoute({ method, url: path }) !== null);
  const rank = (method: string) => (METHOD_ORDER.includes(method) ? METHOD_ORDER.indexOf(method) : METHOD_ORDER.length);
  return found.sort((a, b) => rank(a) - rank(b));
}

/** One error handler and one not-found handler for the whole app, with the body shape every client sees. */
export const errorHandlingPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const apiError = toApiError(error);
      // A 503 is the database or the load, not a fault of the service: one line, no stack. A 4xx is the caller's.
      if (apiError.statusCode === 503)
        request.log.warn({ reason: apiError.message, cause: error.message }, 'request failed');
      else if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      else request.log.info({ status: apiError.statusCode, reason: apiError.message }, 'request refused');
      void reply.code(apiError.statusCode).headers(apiError.headers).send(errorBody(apiError));
    });
    // Every method some route is registered with, to ask the router which of them a path takes.
    const methods = new Set<string>();
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) methods.add(method.toUpperCase());
    });
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0]!;
      const allowed = allowedMethods(app, methods, path);
      // The route table is public (the OpenAPI document), so this answers before
      // authentication, as a 404 does: the method is the mistake whatever the token.
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        const error = new ApiError(405, `${request.method} is not allowed on ${path}; it takes ${allowed.join(', ')}`, {
          allow: allowed.join(', '),
        });
        void reply.code(405).headers(error.headers).send(errorBody(error));
        return;
      }
      // Named as the caller asked for it: a path rewritten by host (hostnames.ts) is the router's business.
      const asked = request.originalUrl.split('?')[0]!;
      void reply.code(404).send(errorBody(new NotFoundError(`No route for ${request.method} ${asked}`)));
    });
  },
  { name: 'error-handling' },
);
