import { BadRequestError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { OutboundFetcher } from '../../core/outbound.js';
import type { ContentTree } from '../../content/tree.js';
import type { PreparedFile } from '../changes/files.js';
import type { ContentChange } from '../schemas.js';
import { Allowance, type ImportLimits } from './allowance.js';
import { forEachConcurrently } from '../../core/concurrently.js';
import { crawlSite, type CrawledPage, type CrawledSite } from './crawl.js';
import { fetchImages, MAX_IMAGES } from './images.js';
import type { HtmlReader } from './reader.js';
import { buildSiteTree, type SiteNode } from './site-tree.js';

/** What an import writes, and what it counted. */
export interface ImportBatch {
  changes: ContentChange[];
  /** The files of the batch's insert_files change, by its index. */
  files: Map<number, PreparedFile[]>;
  importedResources: number;
  totalResources: number;
}

interface WebsiteDeps {
  outbound: OutboundFetcher;
  reader: HtmlReader;
}

const CONVERSIONS_AT_ONCE = 4;
const MAX_TITLE_LENGTH = 255;

const shortTitle = (title: string) => (title.length > MAX_TITLE_LENGTH ? title.slice(0, MAX_TITLE_LENGTH) : title);

/** A converted page: its markdown, and the title its content leads with, if any. */
interface Converted {
  markdown: string;
  title?: string;
}

/**
 * Converts every page's content to markdown, with links to imported pages as
 * their batch refs. A page whose content cannot be converted is left out; the
 * pages linking to it are converted again, so that their links to it stay
 * URLs rather than refs that would resolve to nothing.
 */
async function convertPages(
  reader: HtmlReader,
  pageRefs: ReadonlyMap<CrawledPage, string>,
  failures: CrawledSite['failures'],
  imageRefs: ReadonlyMap<string, string>,
): Promise<Map<CrawledPage, Converted>> {
  const refOfKey = new Map<string, string>();
  for (const [page, ref] of pageRefs) {
    for (const key of [page.key, ...page.aliases]) refOfKey.set(key, ref);
  }
  const converted = new Map<CrawledPage, Converted>();
  let pending = [...pageRefs.keys()];
  while (pending.length > 0) {
    const failed: CrawledPage[] = [];
    await forEachConcurrently(pending, CONVERSIONS_AT_ONCE, async (page) => {
      const links = Object.fromEntries(
        page.contentLinks.flatMap((key) => {
          const ref = refOfKey.get(key);
          return ref === undefined ? [] : [[key, ref]];
        }),
      );
      const images = Object.fromEntries(
        page.images.flatMap((url) => {
          const ref = imageRefs.get(url);
          return ref === undefined ? [] : [[url, ref]];
        }),
      );
      try {
        const input = { contentHtml: page.contentHtml, base: page.base, pages: links, images };
        converted.set(page, await reader.markdown(input, `The content of ${page.url}`));
      } catch (error) {
        if (!(error instanceof BadRequestError)) throw error;
        failures.push({ url: page.url, reason: error.message });
        failed.push(page);
      }
    });
    const gone = new Set(failed.flatMap((page) => [page.key, ...page.aliases]));
    for (const key of gone) refOfKey.delete(key);
    pending = [...converted.keys()].filter((page) => page.contentLinks.some((key) => gone.has(key)));
    for (const page of pending) converted.delete(page);
  }
  return converted;
}

/**
 * The insert_page changes of a tree, parents before their children. Each
 * page's ref is the one its content's links were written with.
 */
function pageChanges(
  nodes: ReadonlyArray<SiteNode<CrawledPage>>,
  converted: ReadonlyMap<CrawledPage, Converted>,
  refOf: (node: SiteNode<CrawledPage>) => string,
  into: string | undefined,
  changes: ContentChange[],
): void {
  for (const node of nodes) {
    const ref = refOf(node);
    const content = node.page && converted.get(node.page);
    changes.push({
      operation: 'insert_page',
      ref,
      title: shortTitle(content?.title ?? node.title),
      slug: node.slug,
      ...(into !== undefined ? { into } : {}),
      document: content?.markdown ? { markdown: content.markdown } : {},
    });
    pageChanges(node.children, converted, refOf, ref, changes);
  }
}

/**
 * Crawls the website at `start` and turns it into one batch: its images as
 * files, then its pages as a tree after the existing top-level pages. Nothing
 * imported at all is a 400 that says why the start page failed.
 */
export async function websiteBatch(
  deps: WebsiteDeps,
  start: URL,
  limits: ImportLimits,
  tree: ContentTree,
): Promise<ImportBatch> {
  const allowance = new Allowance(limits);
  const site = await crawlSite(deps, start, limits.maxPages, allowance);
  if (site.pages.length === 0) throw nothingImported(site);

  const imageUrls = [...new Set(site.pages.flatMap((page) => page.images))].slice(0, MAX_IMAGES);
  const fileRefs = `import-${newId()}-f`;
  const files = await fetchImages(deps.outbound, imageUrls, (index) => `${fileRefs}${index}`, allowance);
  const imageRefs = new Map([...files].map(([url, file]) => [url, file.ref!]));

  const pageRefs = `import-${newId()}-p`;
  const refOfPage = new Map(site.pages.map((page, index) => [page, `${pageRefs}${index}`]));
  const converted = await convertPages(deps.reader, refOfPage, site.failures, imageRefs);
  if (converted.size === 0) throw nothingImported(site);
  const imported = site.pages.filter((page) => converted.has(page));
  const topSlugs = new Set(tree.childrenOf(null).map((page) => page.slug));
  const nodes = buildSiteTree(imported, topSlugs);

  const changes: ContentChange[] = [];
  const prepared = new Map<number, PreparedFile[]>();
  if (files.size > 0) {
    prepared.set(0, [...files.values()]);
    changes.push({
      operation: 'insert_files',
      files: [...files].map(([url, file]) => ({ ref: file.ref, name: file.name, url })),
    });
  }
  let groups = 0;
  const refOf = (node: SiteNode<CrawledPage>) =>
    node.page ? refOfPage.get(node.page)! : `${pageRefs}group-${groups++}`;
  pageChanges(nodes, converted, refOf, undefined, changes);
  return { changes, files: prepared, importedResources: converted.size, totalResources: site.processed };
}

function nothingImported(site: CrawledSite): BadRequestError {
  const why = site.failures[0]?.reason ?? 'the import’s limits left no time or bytes to fetch it';
  return new BadRequestError(`body/url: no page of ${site.origin} could be imported, so nothing was written: ${why}`);
}
