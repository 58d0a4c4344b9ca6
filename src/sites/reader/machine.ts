import { createHash } from 'node:crypto';
import { loaded, loadingCache, type LoadingCache } from '../../core/loading-cache.js';
import { perContext, type Context } from '../../context.js';
import type { PageState } from '../../content/tree.js';
import { allSiteSpaces, type SiteSpaceRow } from '../structure/tree.js';
import { isReadable, pageMarkdown, pagesInOrder, spaceContent, type SpaceContent } from '../../reader/page-content.js';
import { locate } from './place.js';
import { computedView, shownPage, shownPageAt } from '../../reader/computed-pages.js';
import { addressIn, firstPage, pageAddress, type OpenSite } from './site-reader.js';

/** The most llms-full.txt holds: a site can hold far more than a model reads, and the answer is built in memory. */
const MAX_FULL_TEXT_CHARACTERS = 8 * 1024 * 1024;
/** Pages read and evaluated together for llms-full.txt. */
const LLMS_FULL_BATCH = 50;
/** The sitemap protocol's limit on addresses in one file. */
const MAX_SITEMAP_URLS = 50_000;

interface SpacePages {
  siteSpace: SiteSpaceRow;
  content: SpaceContent;
  pages: PageState[];
}

interface SiteSpaceContent {
  siteSpace: SiteSpaceRow;
  content: SpaceContent;
}

/** Every site space the visitor sees, at its current revision. */
async function everySpace(context: Context, open: OpenSite): Promise<SiteSpaceContent[]> {
  const result: SiteSpaceContent[] = [];
  for (const siteSpace of allSiteSpaces(open.structure)) {
    result.push({ siteSpace, content: await spaceContent(context, siteSpace.space) });
  }
  return result;
}

/** Each space's readable pages in reading order (hidden pages left out). */
function everyPage(spaces: readonly SiteSpaceContent[]): SpacePages[] {
  return spaces.map(({ siteSpace, content }) => ({
    siteSpace,
    content,
    pages: pagesInOrder(content.tree).filter(isReadable),
  }));
}

function markdownPage(page: PageState, markdown: string): string {
  const description = page.description ? `\n${page.description}\n` : '';
  return `# ${page.title}\n${description}\n${markdown.trimEnd()}\n`;
}

/** A page as markdown, for `{page address}.md`; undefined where no readable page is there. */
export async function pageAsMarkdown(
  context: Context,
  open: OpenSite,
  segments: readonly string[],
): Promise<string | undefined> {
  const place = locate(open.structure, segments);
  if (!place) return undefined;
  const content = await spaceContent(context, place.siteSpace.space);
  const view = await computedView(context, content);
  const first = place.pagePath === '' ? firstPage(content) : undefined;
  const shown = first ? shownPage(first, view, content.tree) : shownPageAt(content.tree, view, place.pagePath);
  if (!shown) return undefined;
  if (shown.kind === 'generated') return `# ${shown.generated.title}\n\n${shown.generated.markdown.trimEnd()}\n`;
  if (!isReadable(shown.page)) return undefined;
  const [markdown] = await pageMarkdown(context, content, [shown.page]);
  return markdownPage(shown.page, markdown!);
}

/** llms.txt: the site's title, then each space's pages as links to their markdown, as llmstxt.org describes. */
function llmsIndex(context: Context, open: OpenSite, spaces: readonly SiteSpaceContent[]): string {
  const lines = [`# ${open.settings.title ?? open.site.title}`, ''];
  for (const { siteSpace, content, pages } of everyPage(spaces)) {
    lines.push(`## ${siteSpace.space.title}`, '');
    for (const page of pages) {
      const address = `${pageAddress(context, open, siteSpace, content.tree.pathOf(page.pageId))}.md`;
      lines.push(`- [${page.title}](${address})${page.description ? `: ${page.description}` : ''}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** llms-full.txt: every page's markdown, one after the other, up to a bound that is said where it cuts. */
async function llmsFull(context: Context, open: OpenSite, spaces: readonly SiteSpaceContent[]): Promise<string> {
  const parts: string[] = [];
  let length = 0;
  for (const { siteSpace, content, pages } of everyPage(spaces)) {
    // A batch at a time, so that what is read and evaluated stops near the bound, not after every page of the site.
    for (let start = 0; start < pages.length; start += LLMS_FULL_BATCH) {
      const batch = pages.slice(start, start + LLMS_FULL_BATCH);
      const markdown = await pageMarkdown(context, content, batch);
      for (const [index, page] of batch.entries()) {
        const address = pageAddress(context, open, siteSpace, content.tree.pathOf(page.pageId));
        const part = `${markdownPage(page, markdown[index]!)}\nSource: ${address}\n\n---\n\n`;
        if (length + part.length > MAX_FULL_TEXT_CHARACTERS) {
          parts.push(`The rest of this site is left out here; each page's markdown is at its address with .md.\n`);
          return parts.join('');
        }
        parts.push(part);
        length += part.length;
      }
    }
  }
  return parts.join('');
}

/** sitemap.xml: the pages search engines may index; none unless the site is public. */
function sitemap(context: Context, open: OpenSite, spaces: readonly SiteSpaceContent[]): string {
  const urls: string[] = [];
  if (open.indexable) {
    for (const { siteSpace, content, pages } of everyPage(spaces)) {
      for (const page of pages) {
        if (page.noIndex || page.noRobotsIndex || urls.length >= MAX_SITEMAP_URLS) continue;
        const address = pageAddress(context, open, siteSpace, content.tree.pathOf(page.pageId));
        urls.push(`<url><loc>${escapeXml(address)}</loc><lastmod>${page.updatedAt}</lastmod></url>`);
      }
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}${urls.length > 0 ? '\n' : ''}</urlset>\n`;
}

/** The outputs built from every page of a site, and kept once built. */
const BUILDERS = { 'llms.txt': llmsIndex, 'llms-full.txt': llmsFull, 'sitemap.xml': sitemap };
export type MachineOutput = keyof typeof BUILDERS;

export interface MachineText {
  text: string;
  /** A strong validator of the text, for If-None-Match. */
  etag: string;
}

/** MACHINE_OUTPUT_CACHE_BYTES when the configuration names none. */
const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

interface MachineCache {
  texts: LoadingCache<MachineText>;
  /** Outputs built since the app started: how a test sees that a repeated read built nothing. */
  builds: number;
}

const machineCache = perContext((app): MachineCache => ({
  texts: loadingCache<MachineText>(
    app.config.machineOutputCacheBytes ?? DEFAULT_CACHE_BYTES,
    (built) => built.text.length + 256,
  ),
  builds: 0,
}));

/** How many outputs were built, and what the cache holds now: for tests and monitoring. */
export function machineCacheStats(context: Context): { builds: number; entries: number; bytes: number } {
  const cache = machineCache(context);
  return { builds: cache.builds, entries: cache.texts.size, bytes: cache.texts.calculatedSize };
}

/**
 * llms.txt, llms-full.txt or sitemap.xml, built once for each state of the
 * site it follows from, then served from memory (bounded by
 * MACHINE_OUTPUT_CACHE_BYTES, the least recently read dropped first): the
 * site as read (its generation moves with every change to it made on this
 * instance, its row's updated_at with one made elsewhere) and its address,
 * the spaces the visitor sees and their addresses, whether the site is
 * indexable to them, the current revision of each of those spaces (a merge
 * shows at once), and the window of
 * the signed file addresses the markdown may hold. Concurrent misses share
 * one build.
 */
export async function machineText(context: Context, open: OpenSite, output: MachineOutput): Promise<MachineText> {
  const spaces = await everySpace(context, open);
  // The visitor's claims shape these outputs only through the spaces they see, and where: keyed by those,
  // visitors who send claims of their own choosing cannot make a build each.
  const key = [
    output,
    open.site.id,
    open.generation,
    open.site.updated_at.getTime(),
    addressIn(context, open),
    open.indexable,
    context.fileUrls.expiryOf(context.clock.now()),
    ...spaces.map(
      ({ siteSpace, content }) =>
        `${siteSpace.space.id}@${content.point.id}@${pageAddress(context, open, siteSpace, '')}`,
    ),
  ].join('|');
  const cache = machineCache(context);
  return loaded(cache.texts, key, async () => {
    cache.builds++;
    const text = await BUILDERS[output](context, open, spaces);
    return { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
  });
}

/** robots.txt: a public site is open to crawlers and names its sitemap; any other asks them to stay out. */
export function robots(context: Context, open: OpenSite): string {
  if (!open.indexable) return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n\nSitemap: ${addressIn(context, open, 'sitemap.xml')}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
