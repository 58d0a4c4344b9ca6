import type { FastifyReply } from 'fastify';

/**
 * Answers with no body: 204 No Content, or 205 Reset Content for the
 * deletions whose GitBook operation answers so. The typed reply of a route
 * wants a body; an empty answer has none, hence the widening.
 */
export function noContent(reply: unknown, status: 204 | 205): FastifyReply {
  return (reply as FastifyReply).code(status).send();
}
