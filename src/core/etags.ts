import { hash } from 'node:crypto';

/**
 * The strong validator of an answer's bytes: the same bytes, the same tag, on every instance. The one-shot
 * `hash` takes half the time of a Hash object on a small answer, which every GET of JSON pays.
 */
export const etagOf = (payload: string | Buffer): string => `"${hash('sha256', payload, 'base64url').slice(0, 27)}"`;

/**
 * Tags of byte buffers already hashed. Answers kept by a cache (a site's
 * structure, a page's JSON) send the same Buffer again and again, never
 * changed once made: hashing 430 KB again for each request cost a third of
 * such a read.
 */
const tagged = new WeakMap<Buffer, string>();

/** etagOf, remembered for a Buffer sent again. */
export function etagOfSent(payload: string | Buffer): string {
  if (typeof payload === 'string') return etagOf(payload);
  let etag = tagged.get(payload);
  if (etag === undefined) {
    etag = etagOf(payload);
    tagged.set(payload, etag);
  }
  return etag;
}

/**
 * Whether an If-None-Match header names `etag` (or is `*`). Weak comparison
 * (RFC 9110, 13.1.2): a weak tag matches by its opaque part.
 */
export function noneMatchHolds(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  // What a client revalidating one answer sends: the tag it holds, alone.
  if (header === etag) return true;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

/**
 * Whether an If-Match header names `etag` (or is `*` and there is a current
 * answer). Strong comparison (RFC 9110, 13.1.1): a weak tag never matches.
 */
export function matchHolds(header: string, etag: string | undefined): boolean {
  if (etag === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag;
  });
}
