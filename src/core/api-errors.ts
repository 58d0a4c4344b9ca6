/**
 * The errors an action throws for the caller to see, with their status. Kept apart from the error handling
 * (errors.ts), which loads Fastify's plugin helper and Kysely: the conversion threads throw these too, and
 * that import cost each thread 4 MiB.
 */

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
/** A write's If-Match names an answer that is no longer the resource's: someone changed it since. */
export class PreconditionFailedError extends ApiError {
  constructor(message: string) {
    super(412, message);
  }
}
export class ServiceUnavailableError extends ApiError {
  constructor(message = 'The database is unavailable; try again shortly') {
    // When "shortly" is, for clients that wait as they are told.
    super(503, message, { 'retry-after': '1' });
  }
}
