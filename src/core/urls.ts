/** Builds the absolute URLs put in responses, from the configured public base URL. */
export interface Urls {
  /** The API URL of a resource: `api('orgs', id)` is `<base>/v1/orgs/<id>`. */
  api(...segments: string[]): string;
  /** The URL of a page of the service's own web app. */
  app(...segments: string[]): string;
  /** The URL where published content is read. */
  published(...segments: string[]): string;
  /** The URL of a published docs site: `site(name, sectionPath, siteSpacePath)` is `<base>/s/<name>/…`. */
  site(...segments: string[]): string;
  /** A URL of the service's own that is neither API nor app, such as a signed file download. */
  service(...segments: string[]): string;
  /** The public URL's origin (`https://docs.example.com`), read once. */
  origin: string;
  /** The public URL's protocol (`https:`), which a site's own hostname is served with too. */
  protocol: string;
}

export function createUrls(publicUrl: string): Urls {
  // The lookbehind starts the match only where a run of slashes starts: `/\/+$/` alone retries every slash (quadratic).
  const base = publicUrl.replace(/(?<!\/)\/+$/, '');
  const join = (segments: string[]) => segments.map(encodeURIComponent).join('/');
  const { origin, protocol } = new URL(publicUrl);
  return {
    origin,
    protocol,
    api: (...segments) => `${base}/v1/${join(segments)}`,
    app: (...segments) => `${base}/app/${join(segments)}`,
    published: (...segments) => `${base}/p/${join(segments)}`,
    site: (...segments) => `${base}/s/${join(segments)}`,
    service: (...segments) => `${base}/${join(segments)}`,
  };
}
