import type { Context } from '../../model/context.js';
import type { PageState } from '../../model/content/tree.js';
import { allSiteSpaces, type SiteSpaceRow } from '../structure/tree.js';
import {
  isReadable,
  pageMarkdown,
  pagesInOrder,
  spaceContent,
  type SpaceContent,
} from '../../model/reader/page-content.js';
import { locate } from './place.js';
import { computedView, shownPage, shownPageAt } from '../../model/reader/computed-pages.js';
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

/** Every site space the visitor sees, with its readable pages in reading order (hidden pages left out). */
async function everyPage(context: Context, open: OpenSite): Promise<SpacePages[]> {
  const result: SpacePages[] = [];
  for (const siteSpace of allSiteSpaces(open.structure)) {
    const content = await spaceContent(context, siteSpace.space);
    result.push({ siteSpace, content, pages: pagesInOrder(content.tree).filter(isReadable) });
  }
  return result;
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
export async function llmsIndex(context: Context, open: OpenSite): Promise<string> {
  const lines = [`# ${open.settings.title ?? open.site.title}`, ''];
  for (const { siteSpace, content, pages } of await everyPage(context, open)) {
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
export async function llmsFull(context: Context, open: OpenSite): Promise<string> {
  const parts: string[] = [];
  let length = 0;
  for (const { siteSpace, content, pages } of await everyPage(context, open)) {
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
export async function sitemap(context: Context, open: OpenSite): Promise<string> {
  const urls: string[] = [];
  if (open.indexable) {
    for (const { siteSpace, content, pages } of await everyPage(context, open)) {
      for (const page of pages) {
        if (page.noIndex || page.noRobotsIndex || urls.length >= MAX_SITEMAP_URLS) continue;
        const address = pageAddress(context, open, siteSpace, content.tree.pathOf(page.pageId));
        urls.push(`<url><loc>${escapeXml(address)}</loc><lastmod>${page.updatedAt.toISOString()}</lastmod></url>`);
      }
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}${urls.length > 0 ? '\n' : ''}</urlset>\n`;
}

/** robots.txt: a public site is open to crawlers and names its sitemap; any other asks them to stay out. */
export function robots(context: Context, open: OpenSite): string {
  if (!open.indexable) return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n\nSitemap: ${addressIn(context, open, 'sitemap.xml')}\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
