import { NotFoundError } from '../core/errors.js';
import { loaded, loadingCache } from '../core/loading-cache.js';
import { perContext, type Context } from '../context.js';
import { evaluateExpressions, MAX_EVALUATED_LENGTH, type JSONDocument } from '../document/index.js';
import type { RevisionPoint } from '../content/state.js';
import type { ContentTree, PageState } from '../content/tree.js';
import type { ReferencedFile, RenderedDocument } from '../html/document-html.js';
import { documentReferences, mergeReferences } from './references.js';
import type { ComputedView } from '../content/computed.js';
import type { ShownPage } from './computed-pages.js';

/** A space's current revision and its page tree, as the reader shows it. */
export interface SpaceContent {
  point: RevisionPoint;
  tree: ContentTree;
}

/**
 * The current content of a space: its revision id as current as the clock
 * feed tells (a merge moves it), the revision and its tree then from the
 * content caches.
 */
export async function spaceContent(
  context: Context,
  space: { id: string; organization_id: string },
): Promise<SpaceContent> {
  const revisionId = await context.currentRevisions.of(space, context.db);
  const point = revisionId && (await context.content.revision(space.id, space.organization_id, revisionId));
  if (!point) throw new NotFoundError('The space has no content to read');
  return { point, tree: await context.content.tree(point) };
}

/** Pages a reader can open: documents (groups and links have no page of their own). */
export function isReadable(page: PageState): boolean {
  return page.type === 'document' || page.type === 'computed';
}

/** The pages in reading order: the tree walked depth first, as the navigation lists them. */
export function pagesInOrder(tree: ContentTree, includeHidden = false): PageState[] {
  const ordered: PageState[] = [];
  const walk = (parentId: string | null) => {
    for (const page of tree.childrenOf(parentId)) {
      if (page.hidden && !includeHidden) continue;
      ordered.push(page);
      walk(page.pageId);
    }
  };
  walk(null);
  return ordered;
}

/** How a rendered page's links leave it: the address of a page of this space, and of one in another space. */
export interface LinkAddresses {
  pageInSpace(page: PageState): string;
  pageElsewhere(spaceId: string, pageId: string): string | undefined;
}

/**
 * How a published site shows adaptive content to its visitor: whether an
 * `if` block's expression holds for them, and a key naming what it reads
 * (their claims), part of the rendered page's cache key.
 */
export interface AdaptiveConditions {
  key: string;
  holds(expression: string): boolean;
}

/** Rendered pages, by revision, page and where their links lead; a revision never changes, so neither does its HTML. */
const RENDERED_CHARACTERS = 32 * 1024 * 1024;
const renderedPages = perContext(() =>
  loadingCache<RenderedDocument>(RENDERED_CHARACTERS, (rendered) => rendered.html.length + 256),
);

/** The space files a document names, with addresses signed from `now`; a file the revision lacks is left out. */
export function referencedFiles(
  context: Context,
  tree: ContentTree,
  fileIds: Iterable<string>,
  now: Date,
): Record<string, ReferencedFile> {
  const files: Record<string, ReferencedFile> = {};
  for (const fileId of fileIds) {
    const file = tree.files.get(fileId);
    if (!file) continue;
    const url = context.fileUrls.sign(file.versionId, file.name, now);
    const dimensions = file.width && file.height ? { width: file.width, height: file.height } : {};
    files[fileId] = { url, name: file.name, size: file.size, contentType: file.contentType, ...dimensions };
  }
  return files;
}

/**
 * The page's content as the reader's HTML, rendered once per revision (on
 * the conversion pool, within its deadline) and then served from memory.
 * Variables are evaluated first, as readers see their values; `if` blocks
 * are shown as `adaptive` decides, or all of them, under their condition,
 * without it (the app reader).
 */
export async function renderedPage(
  context: Context,
  content: SpaceContent,
  shown: ShownPage,
  links: LinkAddresses,
  placeKey: string,
  view?: ComputedView,
  adaptive?: AdaptiveConditions,
): Promise<RenderedDocument> {
  const cache = renderedPages(context);
  // The revision fixes the tree, so the addresses of its pages; signed file addresses change from window to window.
  const now = context.clock.now();
  // A page a computed page makes changes with its spec's version too.
  const id = shown.kind === 'page' ? shown.page.pageId : `${shown.generated.id}@${view?.key ?? ''}`;
  const key = `${content.point.id}|${placeKey}|${id}|${context.fileUrls.expiryOf(now)}|${adaptive?.key ?? ''}`;
  return loaded(cache, key, async () => {
    const document =
      shown.kind === 'page'
        ? await pageDocument(context, content, shown.page)
        : (JSON.parse(
            await context.conversions.toDocumentJson(shown.generated.markdown, `the generated content of page ${id}`),
          ) as JSONDocument);
    const own = documentReferences(document);
    const reusableContents = await includedDocuments(context, content, own.reusableContents);
    // What an included content points at is resolved with the page's own references.
    const references = mergeReferences([own, ...Object.values(reusableContents).map(documentReferences)]);
    const pages: Record<string, string> = {};
    const pageTitles: Record<string, string> = {};
    for (const reference of references.pages) {
      const inSpace = reference.space === undefined || reference.space === content.point.spaceId;
      const target = inSpace ? content.tree.pages.get(reference.page) : undefined;
      const address = target ? links.pageInSpace(target) : links.pageElsewhere(reference.space ?? '', reference.page);
      const key = `${reference.space ?? ''}/${reference.page}`;
      if (address) pages[key] = address;
      if (address && target) pageTitles[key] = target.title;
    }
    const files = referencedFiles(context, content.tree, references.files, now);
    const openapiPages = specReferencePages(content, links, references.specs);
    const conditions = adaptive
      ? Object.fromEntries(references.conditions.map((expression) => [expression, adaptive.holds(expression)]))
      : undefined;
    return context.conversions.toHtml(
      { document, pages, files, pageTitles, openapiPages, reusableContents, ...(conditions ? { conditions } : {}) },
      `the content of page ${id}`,
    );
  });
}

/** The documents of the reusable contents a page includes that the revision has, by id. */
async function includedDocuments(
  context: Context,
  content: SpaceContent,
  ids: string[],
): Promise<Record<string, JSONDocument>> {
  if (ids.length === 0) return {};
  const { point } = content;
  const all = await context.content.reusableContents(point);
  const states = ids.flatMap((id) => {
    const state = all.get(id);
    return state?.documentId ? [state] : [];
  });
  const documentOf = await context.content.documentsOf(point.organizationId, states);
  return Object.fromEntries(states.map((state) => [state.reusableContentId, documentOf(state)]));
}

/** The reader's address of the computed page that shows each spec a document names, where the space has one. */
function specReferencePages(content: SpaceContent, links: LinkAddresses, specs: string[]): Record<string, string> {
  if (specs.length === 0) return {};
  const wanted = new Set(specs);
  const found: Record<string, string> = {};
  for (const page of content.tree.computedPages()) {
    const spec = page.computed.dependencies.spec.ref.spec;
    if (wanted.has(spec) && !Object.hasOwn(found, spec)) found[spec] = links.pageInSpace(page);
  }
  return found;
}

/** The page's document with its variables' values in: the stored one when no expression changes the markdown. */
async function pageDocument(context: Context, content: SpaceContent, page: PageState): Promise<JSONDocument> {
  const { point } = content;
  const markdownOf = await context.content.markdownOf(point.organizationId, [page]);
  const markdown = markdownOf(page);
  const evaluated = evaluateExpressions(
    markdown,
    { space: point.variables, page: page.variables },
    { maxLength: MAX_EVALUATED_LENGTH, field: `page ${page.pageId}` },
  );
  if (evaluated === markdown) return (await context.content.documentsOf(point.organizationId, [page]))(page);
  const json = await context.conversions.toDocumentJson(evaluated, `the evaluated markdown of page ${page.pageId}`);
  return JSON.parse(json) as JSONDocument;
}

/** The page's markdown with its variables' values in, for the `.md` address and llms-full.txt. */
export async function pageMarkdown(context: Context, content: SpaceContent, pages: PageState[]): Promise<string[]> {
  const { point } = content;
  const markdownOf = await context.content.markdownOf(point.organizationId, pages);
  return pages.map((page) =>
    evaluateExpressions(
      markdownOf(page),
      { space: point.variables, page: page.variables },
      { maxLength: MAX_EVALUATED_LENGTH, field: `page ${page.pageId}` },
    ),
  );
}
