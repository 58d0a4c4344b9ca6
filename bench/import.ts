import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { random, TOPICS } from './seed-content.js';
import { jsonPoster } from './post-json.js';

/**
 * Website import throughput: a documentation site of IMPORT_SITE_PAGES pages,
 * served by the bench itself on 127.0.0.1, imported whole into a new space,
 * IMPORT_RUNS times one after another. Each page is a few KB of prose with
 * headings, a list, a table, a code block and links to its neighbours; each
 * section has an image.
 */
export const IMPORT_SITE_PAGES = 500;
export const IMPORT_RUNS = 3;
export const IMPORT_BENCH_NAME = `POST /v1/spaces/{id}/content/import (${IMPORT_SITE_PAGES}-page site)`;

const SECTIONS = 24;
/** The home page and the sections' pages are pages too. */
const PAGES_PER_SECTION = Math.ceil((IMPORT_SITE_PAGES - 1 - SECTIONS) / SECTIONS);

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

export interface ImportMeasurement {
  label: string;
  sitePages: number;
  /** Each run's milliseconds, in order. */
  runsMs: number[];
  importedResources: number;
  totalResources: number;
  /** Imported pages per second of the median run. */
  pagesPerSecond: number;
}

const topic = (i: number) => TOPICS[i % TOPICS.length]!;
const slug = (i: number) => topic(i).toLowerCase().replace(/ /g, '-');
const sectionPath = (s: number) => `/${slug(s)}-${s}`;
const pagePath = (s: number, p: number) => `${sectionPath(s)}/${slug(s * 7 + p)}-${p}`;

/** Pages that exist: every section's first PAGES_PER_SECTION, until the site has IMPORT_SITE_PAGES. */
function pagesOf(s: number): number {
  const before = s * PAGES_PER_SECTION;
  return Math.max(0, Math.min(PAGES_PER_SECTION, IMPORT_SITE_PAGES - 1 - SECTIONS - before));
}

function prose(seed: number, sentences: number): string {
  const next = random(seed);
  const words = () =>
    Array.from({ length: 8 + Math.floor(next() * 10) }, () => topic(Math.floor(next() * 1000))).join(' ');
  return Array.from({ length: sentences }, () => `${words()[0]!.toUpperCase()}${words().slice(1)}.`).join(' ');
}

function document(title: string, nav: string, body: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${title} | Bench Docs</title></head><body>` +
    `<header class="site-header"><a href="/">Bench Docs</a></header><nav class="sidebar">${nav}</nav>` +
    `<main><article><h1>${title}</h1>${body}</article></main><footer class="footer">© Bench</footer></body></html>`
  );
}

const sectionNav = () =>
  Array.from({ length: SECTIONS }, (_, s) => `<a href="${sectionPath(s)}/">Section ${topic(s)}</a>`).join(' ');

function pageBody(seed: number, links: string): string {
  return (
    `<p>${prose(seed, 6)}</p><h2 id="usage">Usage</h2><p>${prose(seed + 1, 5)}</p>` +
    `<ul><li>${prose(seed + 2, 1)}</li><li>${prose(seed + 3, 1)}</li><li>${prose(seed + 4, 1)}</li></ul>` +
    `<table><tr><th>Option</th><th>Meaning</th></tr><tr><td>alpha</td><td>${prose(seed + 5, 1)}</td></tr>` +
    `<tr><td>beta</td><td>${prose(seed + 6, 1)}</td></tr></table>` +
    `<pre><code class="language-js">const value = ${seed};\nconsole.log(value);</code></pre>` +
    `<h2 id="related">Related</h2><p>${links}</p><p>${prose(seed + 7, 4)}</p>`
  );
}

/** The page at `path`, or undefined. */
function sitePage(path: string): { type: string; body: string | Buffer } | undefined {
  if (path === '/robots.txt') return { type: 'text/plain', body: 'User-agent: *\nDisallow: /admin\n' };
  if (path === '/') {
    const body = pageBody(1, sectionNav());
    return { type: 'text/html', body: document('Bench Docs', sectionNav(), body) };
  }
  for (let s = 0; s < SECTIONS; s++) {
    if (path === `${sectionPath(s)}/image.png`) return { type: 'image/png', body: PNG };
    const pages = Array.from({ length: pagesOf(s) }, (_, p) => `<a href="${pagePath(s, p)}">${topic(s * 7 + p)}</a>`);
    if (path === `${sectionPath(s)}/`) {
      const body = `<p><img src="image.png" alt="Section ${s}"></p>${pageBody(100 + s, pages.join(' '))}`;
      return { type: 'text/html', body: document(`Section ${topic(s)}`, sectionNav(), body) };
    }
    for (let p = 0; p < pagesOf(s); p++) {
      if (path !== pagePath(s, p)) continue;
      const neighbours = [pages[p - 1], pages[p + 1]].filter(Boolean).join(' and ');
      const body = `<p><img src="${sectionPath(s)}/image.png" alt="Section ${s}"></p>${pageBody(1000 + s * 100 + p, neighbours)}`;
      return { type: 'text/html', body: document(`${topic(s * 7 + p)} ${p}`, pages.join(' '), body) };
    }
  }
  return undefined;
}

async function serveSite(): Promise<{ server: Server; url: string }> {
  const cache = new Map<string, ReturnType<typeof sitePage>>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (!cache.has(path)) cache.set(path, sitePage(path));
    const page = cache.get(path);
    if (page) response.writeHead(200, { 'content-type': page.type }).end(page.body);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/**
 * Imports the site IMPORT_RUNS times over HTTP, each into a new space of the
 * organization, and times each import. Needs the app's importLimits.maxPages
 * at IMPORT_SITE_PAGES at least, and OUTBOUND_ALLOW_PRIVATE.
 */
export async function measureImport(
  base: string,
  authorization: string,
  organizationId: string,
): Promise<ImportMeasurement> {
  const post = jsonPoster(base, authorization, 'import');
  const site = await serveSite();
  try {
    const runsMs: number[] = [];
    let result = { importedResources: 0, totalResources: 0 };
    for (let run = 0; run < IMPORT_RUNS; run++) {
      const space = await post<{ id: string }>(`/v1/orgs/${organizationId}/spaces`, { title: `Import ${run + 1}` });
      const started = performance.now();
      result = await post(`/v1/spaces/${space.id}/content/import`, { url: site.url, source: 'website' });
      runsMs.push(performance.now() - started);
      if (result.importedResources !== IMPORT_SITE_PAGES)
        throw new Error(`import: ${result.importedResources} of ${IMPORT_SITE_PAGES} pages imported`);
    }
    const median = [...runsMs].sort((a, b) => a - b)[Math.floor(runsMs.length / 2)]!;
    return {
      label: IMPORT_BENCH_NAME,
      sitePages: IMPORT_SITE_PAGES,
      runsMs,
      ...result,
      pagesPerSecond: result.importedResources / (median / 1000),
    };
  } finally {
    site.server.closeAllConnections();
    await new Promise<void>((resolve) => site.server.close(() => resolve()));
  }
}

export function importTable(measured: ImportMeasurement): string {
  const runs = measured.runsMs.map((ms) => (ms / 1000).toFixed(2)).join(' / ');
  return (
    `${measured.label}: ${measured.importedResources} of ${measured.totalResources} pages imported per run; ` +
    `runs ${runs} s; ${measured.pagesPerSecond.toFixed(1)} pages/s (median run)`
  );
}
