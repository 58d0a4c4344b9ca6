import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, BadRequestError } from './errors.js';
import { JSON_MAX_DEPTH, nestsDeeperThan } from './json-depth.js';

// Bodies are UTF-8 JSON, and query strings UTF-8 text (docs/api/limits.md).
// Fastify's own JSON parser ignores the charset and decodes invalid bytes to
// U+FFFD, and its query parser keeps an undecodable `%FF` as those
// three characters; either way the service would store text the client never
// sent. The path needs nothing here: the router already refuses a path that
// does not decode (FST_ERR_BAD_URL, a 400 through `frameworkErrors`).

const UTF8_LABELS = new Set(['utf-8', 'utf8']);

/**
 * Whether a Content-Type names no charset or only UTF-8 (`utf-8`, or the
 * common `utf8`; any case, quoted or not). Read by hand, in one pass over a
 * header that is short, rather than by another regular expression.
 */
export function declaresUtf8(contentType: string): boolean {
  const parameters = contentType.split(';');
  for (let i = 1; i < parameters.length; i++) {
    const parameter = parameters[i]!;
    const equals = parameter.indexOf('=');
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    let value = parameter.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!UTF8_LABELS.has(value.toLowerCase())) return false;
  }
  return true;
}

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/**
 * Whether the bytes that `%XX` escapes in `text` stand for, read from `from`
 * on, are UTF-8. Each run of consecutive escapes is checked as a whole (a
 * character's bytes cannot be split by anything else). A `%` that starts no
 * escape is left alone: the query parser keeps it as text, as it does today.
 */
export function escapesAreUtf8(text: string, from = 0): boolean {
  let run: number[] = [];
  let i = from;
  while (i < text.length) {
    if (text.charCodeAt(i) === 0x25 && i + 2 < text.length) {
      const high = hexDigit(text.charCodeAt(i + 1));
      const low = hexDigit(text.charCodeAt(i + 2));
      if (high >= 0 && low >= 0) {
        run.push(high * 16 + low);
        i += 3;
        continue;
      }
    }
    if (run.length > 0) {
      if (!isUtf8(Uint8Array.from(run))) return false;
      run = [];
    }
    i++;
  }
  return run.length === 0 || isUtf8(Uint8Array.from(run));
}

/** Whether the query string of a request target decodes to UTF-8; costs two `indexOf` when it has no `%`. */
export function queryIsUtf8(url: string): boolean {
  const query = url.indexOf('?');
  if (query === -1) return true;
  const percent = url.indexOf('%', query + 1);
  return percent === -1 || escapesAreUtf8(url, percent);
}

/**
 * Refuses bodies in another charset (415), bodies nested past JSON_MAX_DEPTH
 * (400, before parsing), and invalid UTF-8 in a body or a query string (400).
 */
export const inputPlugin = fp(
  async (app: FastifyInstance) => {
    // The default parser with the options it has by default: `__proto__` and
    // `constructor.prototype` keys are refused, not parsed into the body.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    // Fatal: invalid bytes throw rather than become U+FFFD. A byte order mark
    // is left for the JSON parser, which skips one, as it did before.
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

    app.removeContentTypeParser('application/json');
    // As a buffer, read by Fastify: the body limit (413) and Content-Length checks stay its own.
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
      if (!declaresUtf8(request.headers['content-type'] ?? '')) {
        done(
          new ApiError(415, 'The request body must be JSON in UTF-8 (Content-Type: application/json; charset=utf-8)'),
        );
        return;
      }
      // No body at all, as `curl -X POST -H 'Content-Type: application/json'` sends to a merge: an
      // operation that takes no body goes on, and one that takes one says so.
      if (body.length === 0) {
        if (request.routeOptions.schema?.body)
          done(new BadRequestError('The request body is empty: this operation takes a JSON body'));
        else done(null, undefined);
        return;
      }
      if (nestsDeeperThan(body, JSON_MAX_DEPTH)) {
        done(
          new BadRequestError(
            `The request body nests too deeply: more than ${JSON_MAX_DEPTH} levels of objects and arrays`,
          ),
        );
        return;
      }
      let text: string;
      try {
        text = decoder.decode(body);
      } catch {
        done(new BadRequestError('The request body is not valid UTF-8'));
        return;
      }
      void parseJson(request, text, done);
    });

    app.addHook('onRequest', (request, _reply, done) => {
      if (queryIsUtf8(request.raw.url ?? '')) done();
      else done(new BadRequestError('The query string is not valid UTF-8 once percent-decoded'));
    });
  },
  { name: 'input' },
);
