import { BadRequestError } from '../../core/errors.js';
import type { OutboundFetcher } from '../../core/outbound.js';
import type { Allowance } from './allowance.js';
import type { ExtractedPage, HtmlReader, RobotsRules } from './reader.js';
import { loadRobots } from './robots.js';
import { pageKey } from './urls.js';

/** Pages fetched at once: enough to hide a site's latency, few enough to be a polite visitor. */
const CONCURRENCY = 4;
/** The most one page may weigh: the bound on what the worker parses. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

export interface CrawledPage extends Omit<ExtractedPage, 'allowed' | 'links'> {
  /** The page's path on the site: what it is known by. */
  key: string;
  url: string;
  /** Keys that led here by a redirect. */
  aliases: string[];
}

export interface PageFailure {
  url: string;
  reason: string;
}

export interface CrawledSite {
  origin: string;
  /** In the order they were found: breadth-first from the start page, links in page order. */
  pages: CrawledPage[];
  /** Pages fetched: those imported and those that failed. */
  processed: number;
  failures: PageFailure[];
}

export interface CrawlDeps {
  outbound: OutboundFetcher;
  reader: HtmlReader;
}

type Visit =
  | { kind: 'page'; page: CrawledPage; links: string[] }
  | { kind: 'failed'; reason: string }
  | { kind: 'fatal'; error: unknown };

const mediaType = (header: string | null) => header?.split(';')[0]?.trim().toLowerCase() || undefined;

function isHtml(type: string | undefined, body: Buffer): boolean {
  if (type === 'text/html' || type === 'application/xhtml+xml') return true;
  // A server that names no type: a body that opens with markup is taken for HTML.
  return type === undefined && /^\s*</.test(body.subarray(0, 64).toString('latin1'));
}

/** The charset a page declares, in its Content-Type or in a `<meta>` near its start. */
function declaredCharset(contentType: string | null, body: Buffer): string | undefined {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  if (fromHeader) return fromHeader;
  const head = body.subarray(0, 1024).toString('latin1').toLowerCase();
  const at = head.indexOf('charset=');
  return at === -1 ? undefined : /^charset=["']?([\w.:-]+)/.exec(head.slice(at))?.[1];
}

function decodeHtml(body: Buffer, contentType: string | null): string {
  const charset = declaredCharset(contentType, body);
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder().decode(body);
  }
}

/** A page's own problem is a failure to count; anything else (the service busy, a defect) ends the import. */
function failure(error: unknown): Visit {
  return error instanceof BadRequestError ? { kind: 'failed', reason: error.message } : { kind: 'fatal', error };
}

/** A page to fetch: its key, and its URL as first linked (`/guide/` and `/guide` differ for relative links). */
interface QueuedPage {
  key: string;
  url: string;
}

async function visitPage(
  deps: CrawlDeps,
  site: { origin: string; robots: RobotsRules | null },
  { key, url }: QueuedPage,
  size: number,
  allowance: Allowance,
): Promise<Visit> {
  let response;
  try {
    response = await deps.outbound.fetch(url, { maxBytes: size, accept: HTML_ACCEPT });
  } catch (error) {
    allowance.settle(size, 0);
    // Cut to what was left of the byte limit, the fetch may have failed for want of it: the limit is reached.
    if (size < MAX_PAGE_BYTES) allowance.exhaust();
    return failure(error);
  }
  allowance.settle(size, response.body.length);
  if (response.status < 200 || response.status > 299)
    return { kind: 'failed', reason: `${url} answered with status ${response.status}` };
  const final = new URL(response.url);
  if (final.origin !== site.origin) return { kind: 'failed', reason: `${url} redirected to another site` };
  const type = mediaType(response.contentType);
  if (!isHtml(type, response.body))
    return { kind: 'failed', reason: `${url} is not an HTML page (${type ?? 'no content type'})` };

  let extracted: ExtractedPage;
  try {
    const html = decodeHtml(response.body, response.contentType);
    extracted = await deps.reader.extract({ html, url: final.href, robots: site.robots }, `The page ${final.href}`);
  } catch (error) {
    return failure(error);
  }
  if (!extracted.allowed) return { kind: 'failed', reason: `${url} redirected to a page robots.txt excludes` };
  const { allowed: _allowed, links, ...read } = extracted;
  const finalKey = pageKey(final);
  return {
    kind: 'page',
    page: { ...read, key: finalKey, url: final.href, aliases: finalKey === key ? [] : [key] },
    links,
  };
}

/**
 * Crawls the site of `start`, breadth-first: the start page, then the pages
 * of the same origin it links to, and so on, as robots.txt allows, within the
 * import's limits. A page that fails is counted and left out. Pages are
 * fetched a few at a time, but taken in the order they were found, so the
 * same site always gives the same crawl.
 */
export async function crawlSite(
  deps: CrawlDeps,
  start: URL,
  maxPages: number,
  allowance: Allowance,
): Promise<CrawledSite> {
  const origin = start.origin;
  const first: QueuedPage = { key: pageKey(start), url: `${origin}${start.pathname}` };
  const crawled: CrawledSite = { origin, pages: [], processed: 0, failures: [] };
  const robots = await loadRobots(deps.outbound, origin);
  if ('unreadable' in robots) {
    crawled.failures.push({ url: first.url, reason: robots.unreadable });
    return crawled;
  }
  if (robots.rules && !(await deps.reader.robotsAllow(robots.rules, first.url))) {
    crawled.failures.push({ url: first.url, reason: `${first.url} is excluded by robots.txt` });
    return crawled;
  }

  const site = { origin, robots: robots.rules };
  const queue: QueuedPage[] = [first];
  const seen = new Set([first.key]);
  const imported = new Map<string, CrawledPage>();
  const visits: Array<Promise<Visit>> = [];
  for (let next = 0; next < queue.length; next++) {
    while (visits.length < queue.length && visits.length - next < CONCURRENCY) {
      const size = allowance.reserve(MAX_PAGE_BYTES);
      if (size === 0) break;
      visits.push(visitPage(deps, site, queue[visits.length]!, size, allowance));
    }
    if (next >= visits.length) break;
    const visit = await visits[next]!;
    if (visit.kind === 'fatal') throw visit.error;
    if (visit.kind === 'failed') {
      crawled.processed += 1;
      crawled.failures.push({ url: queue[next]!.url, reason: visit.reason });
      continue;
    }
    // A redirect to a page already imported: the same page again, not another one.
    const earlier = imported.get(visit.page.key);
    if (earlier) {
      earlier.aliases.push(...visit.page.aliases);
      continue;
    }
    crawled.processed += 1;
    imported.set(visit.page.key, visit.page);
    seen.add(visit.page.key);
    crawled.pages.push(visit.page);
    for (const link of visit.links) {
      if (queue.length >= maxPages) break;
      const key = pageKey(new URL(link));
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ key, url: link });
    }
  }
  return crawled;
}
