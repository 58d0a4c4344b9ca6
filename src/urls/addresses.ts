import type { Context } from '../context.js';
import { BadRequestError } from '../core/errors.js';

/** An address of this service's own content, as the app and the readers serve it. */
export type OwnAddress =
  | { kind: 'app-collection'; organizationId: string; collectionId: string }
  | { kind: 'app-space'; organizationId: string; spaceId: string; changeRequest?: string; pagePath: string }
  | { kind: 'app-page'; organizationId: string; spaceId: string; pageId: string }
  | { kind: 'published-space'; spaceId: string; pagePath: string; shareKey: string | undefined }
  | SiteAddress;

/** An address inside a published site: at `/s/{name}` under PUBLIC_URL, or at the site's proven hostname. */
export interface SiteAddress {
  kind: 'site';
  /** The site's basename or id, as `/s/{name}` takes it. */
  name: string;
  /** Whether it came through the site's custom hostname (a retired basename is not looked up then). */
  viaHostname: boolean;
  /** The path before the site's own: `/s/{name}` under PUBLIC_URL's path, empty at a hostname. */
  sitePrefix: string;
  /** The path segments inside the site, decoded. */
  segments: string[];
  /** The path inside the site as written (percent-encoding kept): what redirects are matched on. */
  rawPath: string;
  /** The address's query: share keys, visitor tokens and claims travel there, as the reader reads them. */
  query: Record<string, string>;
}

/** The query parameters that carry a visitor's key, token or claims to the reader (see sites/reader/audience.ts). */
const CREDENTIAL_PARAMETER = /^(?:share|jwt_token|visitor\.[A-Za-z_]\w{0,63})$/;
const MAX_CREDENTIAL_PARAMETERS = 34;

/** An absolute http(s) URL, or a 400 naming the rule. */
export function parseHttpUrl(raw: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequestError(`${field} must be an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BadRequestError(`${field} must be http or https`);
  return url;
}

/**
 * What an address of ours names, read as the app and the readers route it,
 * or undefined for an address that is not this service's (another host, or
 * a path none of them serves).
 */
export function ownAddress(context: Context, url: URL): OwnAddress | undefined {
  const base = new URL(context.config.publicUrl);
  const basePath = base.pathname.replace(/(?<!\/)\/+$/, '');
  if (url.host.toLowerCase() === base.host.toLowerCase()) {
    if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return undefined;
    const rawPath = url.pathname.slice(basePath.length);
    const segments = decodedSegments(rawPath);
    if (!segments) return undefined;
    const [root, ...rest] = segments;
    if (root === 'app') return appAddress(rest);
    if (root === 'p' && rest[0])
      return {
        kind: 'published-space',
        spaceId: rest[0],
        pagePath: rest.slice(1).join('/'),
        shareKey: url.searchParams.get('share') ?? undefined,
      };
    if (root === 's' && rest[0]) {
      const name = rest[0];
      const prefix = rawPath.match(/^\/s\/[^/]*/)![0];
      return siteAddress(url, name, false, `${basePath}${prefix}`, rawPath.slice(prefix.length), rest.slice(1));
    }
    return undefined;
  }
  // At a site's proven hostname, every path is the site's, but the service's own (see reader/hostnames.ts).
  const siteId = context.siteHostnames.siteAt(url.host);
  if (!siteId) return undefined;
  const segments = decodedSegments(url.pathname);
  if (!segments || ['v1', 'app', 'docs', 'files', 'integration-assets'].includes(segments[0] ?? '')) return undefined;
  return siteAddress(url, siteId, true, '', url.pathname, segments);
}

function siteAddress(
  url: URL,
  name: string,
  viaHostname: boolean,
  sitePrefix: string,
  rawPath: string,
  segments: string[],
): SiteAddress {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (Object.keys(query).length >= MAX_CREDENTIAL_PARAMETERS) break;
    if (CREDENTIAL_PARAMETER.test(key)) query[key] = value;
  }
  return { kind: 'site', name, viaHostname, sitePrefix, segments, rawPath, query };
}

/** `/app/o/{org}/c/{collection}`, `/app/o/{org}/s/{space}[/change-requests/{cr}][/{page path}]`, `…/~/page/{id}`. */
function appAddress(segments: string[]): OwnAddress | undefined {
  const [o, organizationId, kind, id, ...rest] = segments;
  if (o !== 'o' || !organizationId || !id) return undefined;
  if (kind === 'c') return rest.length === 0 ? { kind: 'app-collection', organizationId, collectionId: id } : undefined;
  if (kind !== 's') return undefined;
  if (rest[0] === '~') {
    return rest[1] === 'page' && rest[2] && rest.length === 3
      ? { kind: 'app-page', organizationId, spaceId: id, pageId: rest[2] }
      : undefined;
  }
  if (rest[0] === 'change-requests') {
    if (!rest[1]) return undefined;
    return {
      kind: 'app-space',
      organizationId,
      spaceId: id,
      changeRequest: rest[1],
      pagePath: rest.slice(2).join('/'),
    };
  }
  return { kind: 'app-space', organizationId, spaceId: id, pagePath: rest.join('/') };
}

/** Whether the address is at the service's own host or a site's hostname: never fetched from outside. */
export function isOwnHost(context: Context, url: URL): boolean {
  const base = new URL(context.config.publicUrl);
  return url.host.toLowerCase() === base.host.toLowerCase() || context.siteHostnames.siteAt(url.host) !== undefined;
}

/** The path's segments, decoded, without empty ones; undefined when one does not decode. */
function decodedSegments(path: string): string[] | undefined {
  try {
    return path
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => decodeURIComponent(segment));
  } catch {
    return undefined;
  }
}
