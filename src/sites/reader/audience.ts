import { errors as joseErrors, jwtVerify } from 'jose';
import type { Context } from '../../context.js';
import { NO_CLAIMS, type VisitorClaims } from '../adaptive/evaluate.js';
import type { SiteRow } from '../queries.js';
import { openVisitorKey } from '../secrets.js';
import { PREVIEW_PARAMETER } from '../preview/actions.js';
import { openPreview } from '../preview/tokens.js';
import { validShareKey } from '../structure/view.js';

/** What a request to a site's reader brings: query parameters and cookies, already parsed. */
export interface ReaderRequest {
  query: Record<string, string | undefined>;
  cookies: Record<string, string | undefined>;
}

/** A cookie the reader sets for the site: name and value, and how long it lasts (seconds; undefined for the session). */
export interface SiteCookie {
  name: string;
  value: string;
  maxAge?: number;
}

/** Who is reading: the claims that adaptive content reads, and the share key that opened the site, if one did. */
export interface Visitor {
  claims: VisitorClaims;
  shareKey: string | undefined;
  /** A member's preview (getSitePublishingPreviewById): the site as it would be published, drafts shown or not. */
  preview?: { drafts: boolean };
}

export type Admission =
  | { kind: 'admitted'; visitor: Visitor }
  /** The address carried a key or token: it is kept in a cookie, and the visitor sent on without it in the address. */
  | { kind: 'remember'; cookies: SiteCookie[] }
  /** A visitor-auth site without a valid token: to the site's sign-in address where it has one, else refused. */
  | { kind: 'sign-in'; fallbackUrl: string | null }
  | { kind: 'not-found' };

export const shareCookie = (site: SiteRow) => `quire_share_${site.id}`;
export const visitorCookie = (site: SiteRow) => `quire_visitor_${site.id}`;
export const claimsCookie = (site: SiteRow) => `quire_claims_${site.id}`;
export const previewCookie = (site: SiteRow) => `quire_preview_${site.id}`;

/** How long a share key is kept in a cookie. */
const REMEMBERED_SECONDS = 7 * 24 * 3600;
/** How far a signer's clock may run ahead of ours before its tokens look too long-lived. */
const CLOCK_SKEW_SECONDS = 60;
const MAX_TOKEN_LENGTH = 8192;

/**
 * Whether the visitor may read the site, and with which claims. An
 * unpublished site is not there at all; public and unlisted sites open to
 * everyone; a share-link site to whoever brings an active link's key (in the
 * address once, then in a cookie); a visitor-auth site to whoever brings a
 * token signed with the site's key (HS256), whose claims feed adaptive
 * content. A token is taken on any site with adaptive content, so that a
 * public site can adapt to visitors its sign-in vouches for.
 */
export async function admit(context: Context, site: SiteRow, request: ReaderRequest): Promise<Admission> {
  const preview = previewAdmission(context, site, request);
  if (preview) return preview;
  if (!site.published) return { kind: 'not-found' };
  const fromAddress = await rememberFromAddress(context, site, request);
  if (fromAddress) return fromAddress;

  const token = request.cookies[visitorCookie(site)];
  const signed = token ? await verifiedClaims(context, site, token) : undefined;
  const claims: VisitorClaims = { signed: signed ?? {}, unsigned: unsignedClaims(request.cookies[claimsCookie(site)]) };
  const visitor = (shareKey: string | undefined): Admission => ({
    kind: 'admitted',
    visitor: { claims: site.adaptive_enabled || site.visibility === 'visitor-auth' ? claims : NO_CLAIMS, shareKey },
  });

  switch (site.visibility) {
    case 'public':
    case 'unlisted':
      return visitor(undefined);
    case 'share-link': {
      const key = await validShareKey(context, site, request.cookies[shareCookie(site)]);
      return key ? visitor(key) : { kind: 'not-found' };
    }
    case 'visitor-auth':
      return signed ? visitor(undefined) : { kind: 'sign-in', fallbackUrl: site.auth_fallback_url };
    default:
      return { kind: 'not-found' };
  }
}

/**
 * A preview: a signed token for this site, in the address once (kept in a
 * cookie until it expires), then in the cookie. It opens the site whatever
 * its state and visibility, as a visitor with the token's claims. A token
 * that is not valid for this site in the address is a 404; an expired one
 * in the cookie is ignored, and the site is then what it is to anyone.
 */
function previewAdmission(context: Context, site: SiteRow, request: ReaderRequest): Admission | undefined {
  const now = context.clock.now();
  const fromAddress = request.query[PREVIEW_PARAMETER];
  if (fromAddress !== undefined) {
    const grant = openPreview(context.serviceSecret, fromAddress, site.id, now);
    if (!grant) return { kind: 'not-found' };
    const maxAge = Math.max(1, grant.expires - Math.floor(now.getTime() / 1000));
    return { kind: 'remember', cookies: [{ name: previewCookie(site), value: fromAddress, maxAge }] };
  }
  const kept = request.cookies[previewCookie(site)];
  const grant = kept === undefined ? undefined : openPreview(context.serviceSecret, kept, site.id, now);
  if (!grant) return undefined;
  return {
    kind: 'admitted',
    visitor: { claims: { signed: grant.claims, unsigned: {} }, shareKey: undefined, preview: { drafts: grant.drafts } },
  };
}

/** A share key, visitor token or unsigned claims in the address: checked, then kept in cookies. */
async function rememberFromAddress(
  context: Context,
  site: SiteRow,
  request: ReaderRequest,
): Promise<Admission | undefined> {
  const cookies: SiteCookie[] = [];
  const share = request.query.share;
  if (share !== undefined) {
    const key = await validShareKey(context, site, share);
    if (!key) return { kind: 'not-found' };
    cookies.push({ name: shareCookie(site), value: key, maxAge: REMEMBERED_SECONDS });
  }
  const token = request.query.jwt_token;
  if (token !== undefined) {
    const claims = await verifiedClaims(context, site, token);
    if (!claims) {
      return site.visibility === 'visitor-auth'
        ? { kind: 'sign-in', fallbackUrl: site.auth_fallback_url }
        : { kind: 'not-found' };
    }
    // A verified token has an expiry in the future: the cookie ends with it.
    const expires = (claims.exp as number) - Math.floor(context.clock.now().getTime() / 1000);
    cookies.push({ name: visitorCookie(site), value: token, maxAge: Math.max(1, expires) });
  }
  const unsigned = unsignedFromQuery(request.query);
  if (unsigned) cookies.push({ name: claimsCookie(site), value: unsigned });
  return cookies.length > 0 ? { kind: 'remember', cookies } : undefined;
}

/**
 * The token's claims when the site's key signed it (HS256), it says when it
 * expires (`exp`), has not expired, and lives no longer than
 * VISITOR_TOKEN_MAX_AGE_SECONDS (from now, and from `iat` when it has one);
 * undefined otherwise. A token that never expires would open the site for
 * good to whoever copied it once from an address bar or a log.
 */
async function verifiedClaims(
  context: Context,
  site: SiteRow,
  token: string,
): Promise<Record<string, unknown> | undefined> {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  try {
    const key = new TextEncoder().encode(openVisitorKey(context, site.id, site.auth_private_key_encrypted));
    const now = context.clock.now();
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['exp'],
    });
    const maxAge = context.config.visitorTokenMaxAgeSeconds + CLOCK_SKEW_SECONDS;
    const exp = payload.exp!;
    if (exp - now.getTime() / 1000 > maxAge) return undefined;
    if (
      payload.iat !== undefined &&
      (exp - payload.iat > maxAge || payload.iat - now.getTime() / 1000 > CLOCK_SKEW_SECONDS)
    )
      return undefined;
    return payload;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return undefined;
    throw error;
  }
}

/** Claims a visitor sets in the address, `?visitor.<name>=true|false`: kept as JSON in a cookie. */
function unsignedFromQuery(query: Record<string, string | undefined>): string | undefined {
  const claims: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!name.startsWith('visitor.') || value === undefined) continue;
    const claim = name.slice('visitor.'.length);
    if (!/^[A-Za-z_][\w]{0,63}$/.test(claim)) continue;
    if (value === 'true' || value === 'false') claims[claim] = value === 'true';
  }
  const names = Object.keys(claims);
  return names.length > 0 && names.length <= 32 ? JSON.stringify(claims) : undefined;
}

function unsignedClaims(cookie: string | undefined): Record<string, unknown> {
  if (!cookie || cookie.length > 4096) return {};
  try {
    const parsed: unknown = JSON.parse(cookie);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, value]) => typeof value === 'boolean'));
  } catch {
    return {};
  }
}
