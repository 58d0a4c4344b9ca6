import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ThemeChoice } from './layout.js';

/** The cookie that keeps a reader's choice of theme, under the path of the reader it was made in. */
export const THEME_COOKIE = 'quire_theme';
const THEMES: readonly ThemeChoice[] = ['light', 'dark', 'auto'];
/** A choice of theme lasts a year. */
export const THEME_SECONDS = 365 * 24 * 3600;

/** The theme a value names, if it names one: what the switch's `set` and the cookie may hold. */
export function themeChoice(value: string | undefined): ThemeChoice | undefined {
  return THEMES.find((theme) => theme === value);
}

/** The theme the request's cookie chose, if any. */
export function themeOf(request: FastifyRequest): ThemeChoice | undefined {
  return themeChoice(request.cookies[THEME_COOKIE]);
}

/**
 * A stylesheet whose address carries its version: kept a year by browsers,
 * and a 304 to one that asks again with its ETag.
 */
export function sendStylesheet(request: FastifyRequest, reply: FastifyReply, css: string, etag: string): FastifyReply {
  void reply.header('etag', etag).header('cache-control', 'public, max-age=31536000, immutable');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type('text/css; charset=utf-8').send(css);
}
