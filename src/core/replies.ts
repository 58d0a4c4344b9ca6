import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers with no body: 204 No Content, or 205 Reset Content for the
 * deletions whose GitBook operation answers so. The typed reply of a route
 * wants a body; an empty answer has none, hence the widening.
 */
export function noContent(reply: unknown, status: 204 | 205): FastifyReply {
  return (reply as FastifyReply).code(status).send();
}

/** The JSON each reply was sent by sendJsonText or sendJsonBytes, for the HTTP cache to keep (src/core/http-cache.ts). */
const sentJson = new WeakMap<FastifyReply, string | Buffer>();

/** The JSON `reply` was sent already serialised, if it was. */
export const sentJsonOf = (reply: FastifyReply): string | Buffer | undefined => sentJson.get(reply);

/**
 * Answers with JSON the route already has as text (a cached serialisation),
 * past the response schema's serialiser.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  sentJson.set(reply, json);
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Answers with JSON the route already has as bytes (a cached serialisation), past the response schema's serialiser. */
export function sendJsonBytes(reply: FastifyReply, json: Buffer): FastifyReply {
  sentJson.set(reply, json);
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Answers with raw bytes, past the response schema's serialiser. */
export function sendBytes(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.send(bytes);
}

/** A JSON answer made once and served many times: its bytes, maybe their gzip form, and a validator. */
export interface PreparedJson {
  json: Buffer;
  gzip: Buffer | undefined;
  etag: string;
}

const encodings = new Negotiator({ supportedValues: ['gzip', 'identity'], cache: new Map() });

/**
 * Serves a prepared JSON answer: 304 when the caller already holds it
 * (`If-None-Match`), the gzip form when the caller accepts it and it is
 * ready, else the plain bytes.
 */
export function sendPreparedJson(request: FastifyRequest, reply: FastifyReply, prepared: PreparedJson): FastifyReply {
  return sendPrepared(request, reply, 'application/json; charset=utf-8', prepared.json, prepared.gzip, prepared.etag);
}

/** Serves bytes made once (an answer, a bundled script) as sendPreparedJson does, as `type`. */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  type: string,
  body: Buffer,
  gzipped: Buffer | undefined,
  etag: string,
): FastifyReply {
  reply.header('etag', etag).header('vary', 'Accept-Encoding');
  const held = request.headers['if-none-match'];
  if (held && held.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) return reply.code(304).send();
  reply.type(type);
  const accepted = request.headers['accept-encoding'];
  if (gzipped && accepted && encodings.negotiate(accepted) === 'gzip') {
    return reply.header('content-encoding', 'gzip').send(gzipped);
  }
  return reply.send(body);
}
