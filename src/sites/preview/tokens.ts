import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a preview address opens the site: GitBook's hour. */
export const PREVIEW_SECONDS = 3600;
/** Tokens are small (a site id, a switch, a few claims): anything longer is refused before it is decoded. */
const MAX_TOKEN_LENGTH = 4096;

/** What a preview address lets its holder see: one site, until `expires` (seconds), drafts or not, as `claims`. */
export interface PreviewGrant {
  siteId: string;
  drafts: boolean;
  claims: Record<string, unknown>;
  expires: number;
}

const keyOf = (serviceSecret: string) => createHmac('sha256', serviceSecret).update('site-preview-tokens').digest();
const signatureOf = (serviceSecret: string, payload: string) =>
  createHmac('sha256', keyOf(serviceSecret)).update(payload).digest('base64url');

/** A token naming the grant, signed with the service's secret: `{payload}.{signature}`, both base64url. */
export function signPreview(serviceSecret: string, grant: PreviewGrant): string {
  const payload = Buffer.from(
    JSON.stringify({ s: grant.siteId, d: grant.drafts, c: grant.claims, e: grant.expires }),
  ).toString('base64url');
  return `${payload}.${signatureOf(serviceSecret, payload)}`;
}

/**
 * The grant a token carries, when the service signed it for this site and it
 * has not expired at `now`; undefined for any other token (tampered with,
 * another site's, expired, malformed).
 */
export function openPreview(serviceSecret: string, token: string, siteId: string, now: Date): PreviewGrant | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const [payload, signature, ...rest] = token.split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) return undefined;
  const expected = Buffer.from(signatureOf(serviceSecret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    s: string;
    d: boolean;
    c: Record<string, unknown>;
    e: number;
  };
  if (decoded.s !== siteId || decoded.e * 1000 <= now.getTime()) return undefined;
  return { siteId: decoded.s, drafts: decoded.d, claims: decoded.c, expires: decoded.e };
}
