/** How often an instance reads the hostnames again: a hostname set on another instance works within this. */
export const HOSTNAMES_REFRESH_MS = 5_000;

/**
 * Which site each custom hostname reads, known in memory so that a request's
 * address can be rewritten before routing (which cannot wait for the
 * database): read at start, every HOSTNAMES_REFRESH_MS, and at once after a
 * change on this instance.
 */
export class SiteHostnames {
  private sites = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly load: () => Promise<Map<string, string>>) {}

  /** The site read at the request's Host (any case, a port or a trailing dot ignored), if it is a site's proven hostname. */
  siteAt(host: string | undefined): string | undefined {
    if (!host || this.sites.size === 0) return undefined;
    const name = host
      .replace(/:\d{1,5}$/, '')
      .replace(/\.$/, '')
      .toLowerCase();
    return this.sites.get(name);
  }

  async refresh(): Promise<void> {
    this.sites = await this.load();
  }

  /** Reads them now and then every HOSTNAMES_REFRESH_MS; a failed read keeps the last ones and logs why. */
  async start(onError: (error: unknown) => void): Promise<void> {
    await this.refresh().catch(onError);
    this.timer = setInterval(() => void this.refresh().catch(onError), HOSTNAMES_REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * The service's own paths: at a site's hostname they are not served, so that
 * a site's owner cannot put the API, the app, its documents or the probes at
 * an address of theirs (nor a page of the site at theirs).
 */
const SERVICE_PATHS = /^\/(v1|app|docs|openapi\.json|healthz|readyz|files|integration-assets)(?:[/?#]|$)/i;

/** Where a service path asked at a site's hostname goes: no route matches it, so it is a 404. */
export const NOT_AT_SITE_HOSTNAME = '/~not-at-site-hostname';

/**
 * The address a request is routed by: a site's own pages for a request to its
 * custom hostname (`/guide` there is `/s/{site id}/guide`; the service's own
 * paths there match no route), the request's address as it came for any other.
 */
export function routedUrl(url: string, siteId: string | undefined): string {
  if (siteId === undefined) return url;
  if (SERVICE_PATHS.test(url)) return NOT_AT_SITE_HOSTNAME;
  if (url === '/' || url.startsWith('/?')) return `/s/${siteId}${url.slice(1)}`;
  return `/s/${siteId}${url}`;
}

declare module '../context.js' {
  interface Context {
    /** Which site each custom hostname reads: refreshed after a site's hostname changes, read to resolve addresses. */
    siteHostnames: Pick<SiteHostnames, 'refresh' | 'siteAt'>;
  }
}
