import { ApiError } from '../core/errors.js';
import type { Db } from '../db/database.js';
import type { Urls } from '../core/urls.js';
import { LRUCache } from 'lru-cache';
import { countedCache, loaded, loadingCache, type LoadingCache } from '../core/loading-cache.js';
import type { Conversions } from '../conversions/pool.js';
import { SIMPLE_CONFIGURATION, type DocumentFacts } from '../document/facts.js';
import type { JSONDocument } from '../document/index.js';
import { composePageTree, type PageTreeBody } from './page-tree-body.js';
import type { ComputedView } from './computed.js';
import { pageFields, presentGeneratedPage, type ContentPlace } from './page-present.js';
import {
  findRevision,
  loadDocuments,
  loadFacts,
  loadMarkdown,
  loadTree,
  storeMissingDocument,
  storeMissingFacts,
  type RevisionPoint,
  type StoredContent,
} from './state.js';
import type { ContentTree, PageState } from './tree.js';
import { loadReusableContents, type ReusableContents } from './reusable-contents.js';

/** About what one page or file of a kept tree takes: its object, its ids, title, slug and path, and its dates. */
const TREE_ITEM_BYTES = 400;
const REVISIONS = 100_000;

/**
 * The bounds of the store's caches, out of its whole budget
 * (`CONTENT_CACHE_BYTES`): kept trees, which every read of a space needs,
 * over a third of it; the texts (markdown, documents, their facts, pages'
 * fields and one-page answers, counted in characters) under half; the
 * page-tree bodies the rest.
 */
export function contentCacheBounds(budgetBytes: number) {
  const share = (part: number) => Math.max(1, Math.floor(budgetBytes * part));
  return {
    treeItems: Math.max(1, Math.floor(share(0.35) / TREE_ITEM_BYTES)),
    markdownCharacters: share(0.11),
    fragmentCharacters: share(0.11),
    documentCharacters: share(0.11),
    factCharacters: share(0.04),
    answerCharacters: share(0.08),
    bodyBytes: share(0.2),
  };
}

/** What has content in a document: a page, or a reusable content. */
type DocumentHolder = Pick<PageState, 'documentId'>;

/** What `cache` holds of the pages' documents, by document id, and the ids it lacks. */
function cachedByDocument<T extends object | string>(cache: LRUCache<string, T>, pages: Iterable<DocumentHolder>) {
  const found = new Map<string, T>();
  const missing: string[] = [];
  for (const page of pages) {
    if (!page.documentId || found.has(page.documentId)) continue;
    const cached = cache.get(page.documentId);
    if (cached === undefined) missing.push(page.documentId);
    else found.set(page.documentId, cached);
  }
  return { found, missing };
}

const EMPTY_DOCUMENT: JSONDocument = Object.freeze({ object: 'document', data: {}, nodes: [] });
const EMPTY_FACTS: DocumentFacts = Object.freeze({ outline: [], links: [], language: SIMPLE_CONFIGURATION });

/** About the characters a document's facts hold, for the cache's bound. */
function factsWeight(facts: DocumentFacts): number {
  let weight = 64;
  for (const section of facts.outline) weight += section.title.length + section.text.length + 48;
  for (const link of facts.links) weight += 48 + ('url' in link ? link.url.length : 0);
  return weight;
}

/**
 * Reads revisions' content through caches. Revisions and documents never
 * change once written, so what is cached under their ids stays true; the
 * caller finds the revision id (the space's or change request's current one)
 * fresh on every request.
 */
export class ContentStore {
  private readonly trees: LoadingCache<ContentTree>;
  private readonly markdown: LRUCache<string, string>;
  /** Each page's own JSON fields, by version and where it is shown: a new revision reuses those of the pages it did not change. */
  private readonly pageFragments: LRUCache<string, string>;
  private readonly pageTreeBodies: LoadingCache<PageTreeBody>;
  /** Stored JSON documents as text, by document id (a document never changes). */
  private readonly documents: LRUCache<string, string>;
  /** Documents' outlines, links and languages, by document id. */
  private readonly facts: LRUCache<string, DocumentFacts>;
  private readonly revisions = countedCache<RevisionPoint>(REVISIONS);
  /** Each revision's reusable contents (without their markdown), by revision id. */
  private readonly reusableContentSets: LoadingCache<ReusableContents>;
  /** Answers of one-page reads, by revision, place, page and format. */
  private readonly pageAnswers: LoadingCache<string>;
  /**
   * Revisions whose tree holds no computed page, as their trees were loaded: a page of one answers the same
   * whatever the specs say, so its kept answer needs no tree. A few bytes each, so it outlasts the trees.
   */
  private readonly withoutComputedPages = countedCache<true>(REVISIONS);

  constructor(
    private readonly db: Db,
    private readonly urls: Urls,
    private readonly conversions: Conversions,
    budgetBytes: number,
  ) {
    const bounds = contentCacheBounds(budgetBytes);
    this.trees = loadingCache<ContentTree>(bounds.treeItems, (tree) => tree.pages.size + tree.files.size + 1);
    this.markdown = new LRUCache({ maxSize: bounds.markdownCharacters, sizeCalculation: (text) => text.length + 64 });
    this.pageFragments = new LRUCache({
      maxSize: bounds.fragmentCharacters,
      sizeCalculation: (text) => text.length + 160,
    });
    this.pageTreeBodies = loadingCache<PageTreeBody>(bounds.bodyBytes, (body) => Math.ceil(body.json.length * 1.25));
    this.documents = new LRUCache({ maxSize: bounds.documentCharacters, sizeCalculation: (json) => json.length + 64 });
    this.facts = new LRUCache({ maxSize: bounds.factCharacters, sizeCalculation: factsWeight });
    this.reusableContentSets = loadingCache<ReusableContents>(bounds.treeItems, (contents) => contents.size + 1);
    this.pageAnswers = loadingCache<string>(bounds.answerCharacters, (text) => text.length + 128);
  }

  /** `db` is the transaction to read in, where a write needs the tree inside one. */
  tree(point: RevisionPoint, db: Db = this.db): Promise<ContentTree> {
    return loaded(this.trees, point.id, async () => {
      const tree = await loadTree(db, point);
      if (tree.computedPages().length === 0) this.withoutComputedPages.set(point.id, true);
      return tree;
    });
  }

  /** Whether the revision's tree, as loaded before, holds no computed page; false when not known. */
  holdsNoComputedPages(point: RevisionPoint): boolean {
    return this.withoutComputedPages.has(point.id);
  }

  /** The markdown of each given page (empty for a page without a document), by document id. */
  async markdownOf<T extends DocumentHolder>(organizationId: string, pages: Iterable<T>): Promise<(page: T) => string> {
    const { found, missing } = cachedByDocument(this.markdown, pages);
    if (missing.length > 0) {
      for (const [id, text] of await loadMarkdown(this.db, organizationId, missing)) {
        this.markdown.set(id, text);
        found.set(id, text);
      }
    }
    return (page) => (page.documentId ? (found.get(page.documentId) ?? '') : '');
  }

  /**
   * A revision of the space, or undefined. Revisions never change, but the
   * organization they belong to does on a transfer: `organizationId` is the
   * space's current one.
   */
  async revision(spaceId: string, organizationId: string, revisionId: string): Promise<RevisionPoint | undefined> {
    const cached = this.revisions.get(revisionId);
    if (cached) return cached.spaceId === spaceId ? { ...cached, organizationId } : undefined;
    const point = await findRevision(this.db, spaceId, revisionId);
    if (point) this.revisions.set(revisionId, point);
    return point && { ...point, organizationId };
  }

  /**
   * The body of the revision's page-tree read, made once per revision and
   * place, and, where computed pages are shown made, per version of their specs.
   */
  pageTreeBody(point: RevisionPoint, place: ContentPlace, view?: ComputedView): Promise<PageTreeBody> {
    const placeKey = `${place.organizationId}|${place.changeRequestId ?? ''}`;
    const key = `${point.id}|${placeKey}${view ? `|computed:${view.key}` : ''}`;
    return loaded(this.pageTreeBodies, key, async () => {
      const tree = await this.tree(point);
      const fragmentKey = (page: PageState) => `${placeKey}|${page.versionId}|${tree.pathOf(page.pageId)}`;
      const fragments = new Map<string, string>();
      const missing: PageState[] = [];
      for (const page of tree.pages.values()) {
        const fragment = this.pageFragments.get(fragmentKey(page));
        if (fragment === undefined) missing.push(page);
        else fragments.set(page.pageId, fragment);
      }
      const markdownOf = await this.markdownOf(point.organizationId, missing);
      for (const page of missing) {
        const fragment = JSON.stringify(pageFields(tree, page, markdownOf(page), this.urls, place)).slice(0, -1);
        this.pageFragments.set(fragmentKey(page), fragment);
        fragments.set(page.pageId, fragment);
      }
      const wholeOf = (page: PageState) => {
        const generated = view?.expansions.get(page.pageId);
        return generated
          ? JSON.stringify(presentGeneratedPage(generated, page, tree.pathOf(page.pageId), this.urls, place))
          : undefined;
      };
      return composePageTree(tree, (page) => fragments.get(page.pageId)!, key, wholeOf);
    });
  }

  /** Keeps documents just written, in both forms. */
  rememberDocuments(documents: ReadonlyMap<string, StoredContent>): void {
    for (const [id, { markdown, documentJson, facts }] of documents) {
      this.markdown.set(id, markdown);
      this.documents.set(id, documentJson);
      this.facts.set(id, facts);
    }
  }

  /**
   * The JSON answer of a one-page read that depends only on the revision,
   * where it is shown, the page and the format: made by `build` once.
   */
  pageAnswer(
    point: RevisionPoint,
    place: ContentPlace,
    pageId: string,
    format: string,
    build: () => Promise<string>,
  ): Promise<string> {
    return loaded(this.pageAnswers, pageAnswerKey(point, place, pageId, format), build);
  }

  /** The answer `pageAnswer` keeps for these, if it is kept now; nothing is loaded. */
  keptPageAnswer(point: RevisionPoint, place: ContentPlace, pageId: string, format: string): string | undefined {
    return this.pageAnswers.get(pageAnswerKey(point, place, pageId, format));
  }

  /**
   * The stored JSON document of each given page (an empty one for a page
   * without content). Documents are made when written; one missing from a
   * row written before they were kept is made now, on the conversion pool,
   * and stored, once.
   */
  async documentsOf<T extends DocumentHolder>(
    organizationId: string,
    pages: Iterable<T>,
  ): Promise<(page: T) => JSONDocument> {
    const { found, missing } = cachedByDocument(this.documents, pages);
    for (const [id, stored] of await loadDocuments(this.db, organizationId, missing)) {
      let json = stored.documentJson;
      if (json === null) {
        json = await this.conversions.toDocumentJson(stored.markdown ?? '', `the markdown of document ${id}`);
        // Filling in what the row lacked changes nothing an answer shows.
        await storeMissingDocument(this.db, organizationId, id, json);
      }
      this.documents.set(id, json);
      found.set(id, json);
    }
    const parsed = new Map<string, JSONDocument>();
    return (page) => {
      const json = page.documentId ? found.get(page.documentId) : undefined;
      if (json === undefined) return EMPTY_DOCUMENT;
      let document = parsed.get(page.documentId!);
      if (!document) {
        document = JSON.parse(json) as JSONDocument;
        parsed.set(page.documentId!, document);
      }
      return document;
    };
  }

  /**
   * The outline, links and language of each given page's document (empty
   * ones for a page without content). They are taken when a document is
   * written; those missing from a row written before they were kept are made
   * now, on the conversion pool, and stored, once.
   */
  async factsOf(organizationId: string, pages: Iterable<PageState>): Promise<(page: PageState) => DocumentFacts> {
    const { found, missing } = cachedByDocument(this.facts, pages);
    for (const [id, facts] of await this.storedFacts(organizationId, missing)) found.set(id, facts);
    return (page) => (page.documentId ? (found.get(page.documentId) ?? EMPTY_FACTS) : EMPTY_FACTS);
  }

  /**
   * The facts of documents as the database holds them, by id, each made on
   * the conversion pool and stored first where the row lacks them, and then
   * cached. A document whose markdown today's limits refuse throws, unless
   * `refused` is given: it is told, and the document is left without facts.
   */
  async storedFacts(
    organizationId: string,
    documentIds: readonly string[],
    refused?: (documentId: string, error: ApiError) => void,
  ): Promise<Map<string, DocumentFacts>> {
    const found = new Map<string, DocumentFacts>();
    for (const [id, stored] of await loadFacts(this.db, organizationId, documentIds)) {
      let facts = stored.facts;
      if (facts === null) {
        try {
          const made = await this.conversions.toStoredDocument(stored.markdown ?? '', `the markdown of document ${id}`);
          await storeMissingFacts(this.db, organizationId, id, made);
          facts = made.facts;
        } catch (error) {
          if (!refused || !(error instanceof ApiError)) throw error;
          refused(id, error);
          continue;
        }
      }
      this.facts.set(id, facts);
      found.set(id, facts);
    }
    return found;
  }

  /** Keeps a tree just written, so the next read of that revision costs no query. */
  remember(revisionId: string, tree: ContentTree): void {
    this.trees.set(revisionId, tree);
  }

  /** The reusable contents of a revision, by id; `db` as for `tree`. */
  reusableContents(point: RevisionPoint, db: Db = this.db): Promise<ReusableContents> {
    return loaded(this.reusableContentSets, point.id, () => loadReusableContents(db, point));
  }

  /** Keeps the reusable contents of a revision just written. */
  rememberReusableContents(revisionId: string, contents: ReusableContents): void {
    this.reusableContentSets.set(revisionId, contents);
  }

  /** Each cache's entries and weight against its bound (units as in its declaration above): for monitoring. */
  cacheSizes(): Record<string, { entries: number; weight: number; capacity: number }> {
    return Object.fromEntries(
      Object.entries(this.caches()).map(([name, cache]) => [
        name,
        // Every cache is bounded by weight; one bounded by entries (revisions) weighs each as one.
        { entries: cache.size, weight: cache.calculatedSize, capacity: cache.maxSize },
      ]),
    );
  }

  /** Empties every cache, so that a measurement of memory can tell what the caches hold from the rest. */
  clear(): void {
    for (const cache of Object.values(this.caches())) cache.clear();
  }

  private caches() {
    return {
      trees: this.trees,
      markdown: this.markdown,
      pageFragments: this.pageFragments,
      pageTreeBodies: this.pageTreeBodies,
      documents: this.documents,
      facts: this.facts,
      revisions: this.revisions,
      reusableContentSets: this.reusableContentSets,
      pageAnswers: this.pageAnswers,
    };
  }
}

declare module '../context.js' {
  interface Context {
    /** Revisions' content, read through caches of what never changes. */
    content: ContentStore;
  }
}

const pageAnswerKey = (point: RevisionPoint, place: ContentPlace, pageId: string, format: string) =>
  `${point.id}|${place.organizationId}|${place.changeRequestId ?? ''}|${pageId}|${format}`;
