import type { Db, DbOrTx } from '../db/database.js';
import type { Urls } from '../core/urls.js';
import { WeightedLru } from './cache.js';
import { presentPages, type ContentPlace } from './present.js';
import { loadMarkdown, loadTree, type RevisionPoint } from './state.js';
import type { ContentTree, PageState } from './tree.js';

/** Cache bounds: page and file entries across cached trees, and characters of cached text. */
const TREE_ITEMS = 250_000;
const TEXT_CHARACTERS = 64 * 1024 * 1024;

/**
 * Reads revisions' content through caches. Revisions and documents never
 * change once written, so what is cached under their ids stays true; the
 * caller finds the revision id (the space's or change request's current one)
 * fresh on every request.
 */
export class ContentStore {
  private readonly trees = new WeightedLru<string, ContentTree>(TREE_ITEMS, (tree) => tree.pages.size + tree.files.size + 1);
  private readonly markdown = new WeightedLru<string, string>(TEXT_CHARACTERS / 2, (text) => text.length + 64);
  private readonly pagesJson = new WeightedLru<string, string>(TEXT_CHARACTERS / 2, (text) => text.length);

  constructor(
    private readonly db: Db,
    private readonly urls: Urls,
  ) {}

  /** `db` is the transaction to read in, where a write needs the tree inside one. */
  tree(point: RevisionPoint, db: DbOrTx = this.db): Promise<ContentTree> {
    return this.trees.getOrLoad(point.id, () => loadTree(db, point));
  }

  /** The markdown of each given page (empty for a page without a document), by document id. */
  async markdownOf(organizationId: string, pages: Iterable<PageState>): Promise<(page: PageState) => string> {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const page of pages) {
      if (!page.documentId || found.has(page.documentId)) continue;
      const cached = this.markdown.get(page.documentId);
      if (cached === undefined) missing.push(page.documentId);
      else found.set(page.documentId, cached);
    }
    if (missing.length > 0) {
      for (const [id, text] of await loadMarkdown(this.db, organizationId, missing)) {
        this.markdown.set(id, text);
        found.set(id, text);
      }
    }
    return (page) => (page.documentId ? (found.get(page.documentId) ?? '') : '');
  }

  /** The revision's page tree as the JSON array of the spec's pages, serialised once per revision. */
  async pagesAsJson(point: RevisionPoint, place: ContentPlace): Promise<string> {
    const key = `${point.id}:${place.changeRequestId ?? ''}`;
    return this.pagesJson.getOrLoad(key, async () => {
      const tree = await this.tree(point);
      const markdownOf = await this.markdownOf(point.organizationId, tree.pages.values());
      return JSON.stringify(presentPages(tree, markdownOf, this.urls, place));
    });
  }

  /** Keeps a tree just written, so the next read of that revision costs no query. */
  remember(revisionId: string, tree: ContentTree): void {
    this.trees.set(revisionId, tree);
  }
}
