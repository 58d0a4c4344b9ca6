import type { FastifyReply } from 'fastify';

/**
 * Answers with no body: 204 No Content, or 205 Reset Content for the
 * deletions whose GitBook operation answers so. The typed reply of a route
 * wants a body; an empty answer has none, hence the widening.
 */
export function noContent(reply: unknown, status: 204 | 205): FastifyReply {
  return (reply as FastifyReply).code(status).send();
}

/**
 * Answers with JSON the route already has as text (a cached serialisation),
 * past the response schema's serialiser.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Answers with raw bytes, past the response schema's serialiser. */
export function sendBytes(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.send(bytes);
}
