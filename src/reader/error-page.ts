import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { toApiError } from '../core/errors.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What a reader sees of a refusal: a sentence for people, not the API's JSON. */
const HEADLINES: Record<number, string> = {
  400: 'This address cannot be read',
  401: 'Sign-in needed',
  403: 'Not allowed',
  404: 'Not found',
  429: 'Too many requests',
  503: 'Busy for a moment',
};

/** A small page of its own, styled inline: it must show even when nothing else of the reader can. */
export function messagePage(status: number, title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}</style></head><body><main><h1>${escape(title)}</h1><p>${escape(message)}</p><p><small>${status}</small></p></main></body></html>`;
}

/** Its policy: its own inline style, nothing else. */
export const MESSAGE_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/**
 * The readers' error handler: logged as the API logs errors, answered as a
 * page with the same status and headers (Retry-After on a 503).
 */
export function readerErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError = toApiError(error);
  if (apiError.statusCode === 503)
    request.log.warn({ reason: apiError.message, cause: error.message }, 'request failed');
  else if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status: apiError.statusCode, reason: apiError.message }, 'request refused');
  const title = HEADLINES[apiError.statusCode] ?? (apiError.statusCode >= 500 ? 'Something went wrong' : 'Refused');
  // A 5xx message names nothing of the service's insides; a 4xx says what was wrong with the request.
  const message =
    apiError.statusCode >= 500 && apiError.statusCode !== 503 ? 'Try again in a moment.' : apiError.message;
  void reply
    .code(apiError.statusCode)
    .headers(apiError.headers)
    .header('content-security-policy', MESSAGE_PAGE_POLICY)
    .header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(messagePage(apiError.statusCode, title, message));
}
