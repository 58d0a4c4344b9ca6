import type { ComputedSource, PageType, VariableValues } from '../db/types.js';

/** One page as a revision holds it: the fields of its version, keyed by the page's own id. */
export interface PageState {
  pageId: string;
  versionId: string;
  parentId: string | null;
  position: string;
  type: PageType;
  title: string;
  slug: string;
  emoji: string | null;
  icon: string | null;
  description: string | null;
  documentId: string | null;
  layout: Record<string, unknown> | null;
  cover: Record<string, unknown> | null;
  variables: VariableValues;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  target: Record<string, unknown> | null;
  href: string | null;
  /** A computed page's source; null for any other page. */
  computed: ComputedSource | null;
  /**
   * When the page was made, and this version of it, as ISO 8601 text: what
   * every answer shows, and a third of a Date's memory in a kept tree.
   */
  pageCreatedAt: string;
  updatedAt: string;
}

/** One file as a revision holds it. */
export interface FileState {
  fileId: string;
  versionId: string;
  name: string;
  contentType: string;
  sha256: string;
  size: number;
  width: number | null;
  height: number | null;
  createdAt: Date;
}

/** A page of type `computed`, with its source. */
export type ComputedPage = PageState & { computed: ComputedSource };

const bySiblingOrder = (a: PageState, b: PageState) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : 0;

/**
 * The pages and files of one revision, with the page tree's order and paths
 * worked out on first use. A tree read from a revision is never changed (the
 * caches share it); a write works on a `copy()`.
 */
export class ContentTree {
  private childrenIndex: Map<string | null, PageState[]> | undefined;
  private pathIndex = new Map<string, string>();
  private computedIndex: ComputedPage[] | undefined;

  constructor(
    readonly pages: Map<string, PageState>,
    readonly files: Map<string, FileState>,
  ) {}

  copy(): ContentTree {
    return new ContentTree(new Map(this.pages), new Map(this.files));
  }

  setPage(page: PageState): void {
    this.pages.set(page.pageId, page);
    this.forgetLayout();
  }

  deletePage(pageId: string): void {
    this.pages.delete(pageId);
    this.forgetLayout();
  }

  setFile(file: FileState): void {
    this.files.set(file.fileId, file);
  }

  /** The pages under `parentId` (null: the top level), in their order. */
  childrenOf(parentId: string | null): readonly PageState[] {
    if (!this.childrenIndex) {
      const index = new Map<string | null, PageState[]>();
      for (const page of this.pages.values()) {
        const siblings = index.get(page.parentId);
        if (siblings) siblings.push(page);
        else index.set(page.parentId, [page]);
      }
      for (const siblings of index.values()) siblings.sort(bySiblingOrder);
      this.childrenIndex = index;
    }
    return this.childrenIndex.get(parentId) ?? [];
  }

  /** The page's complete path: the slugs from the top level down to it, joined by `/`. */
  pathOf(pageId: string): string {
    const known = this.pathIndex.get(pageId);
    if (known !== undefined) return known;
    const page = this.pages.get(pageId);
    if (!page) return '';
    const path =
      page.parentId && this.pages.has(page.parentId) ? `${this.pathOf(page.parentId)}/${page.slug}` : page.slug;
    this.pathIndex.set(pageId, path);
    return path;
  }

  /** The page and every page under it, parents before children. */
  subtreeOf(pageId: string): PageState[] {
    const page = this.pages.get(pageId);
    if (!page) return [];
    const found: PageState[] = [page];
    for (let i = 0; i < found.length; i++) found.push(...this.childrenOf(found[i]!.pageId));
    return found;
  }

  /** Whether `pageId` is `ancestorId` or lies under it. */
  isWithin(pageId: string, ancestorId: string): boolean {
    for (
      let current = this.pages.get(pageId);
      current;
      current = current.parentId ? this.pages.get(current.parentId) : undefined
    ) {
      if (current.pageId === ancestorId) return true;
    }
    return false;
  }

  /** The computed pages, found once per tree: a read of every page checks for them. */
  computedPages(): readonly ComputedPage[] {
    this.computedIndex ??= [...this.pages.values()].filter(
      (page): page is ComputedPage => page.type === 'computed' && page.computed !== null,
    );
    return this.computedIndex;
  }

  /** The page at a complete path, if any. Link pages have no path. */
  pageAtPath(path: string): PageState | undefined {
    let parentId: string | null = null;
    let found: PageState | undefined;
    for (const slug of path.split('/').filter(Boolean)) {
      found = this.childrenOf(parentId).find((page) => page.slug === slug && page.type !== 'link');
      if (!found) return undefined;
      parentId = found.pageId;
    }
    return found;
  }

  private forgetLayout(): void {
    this.childrenIndex = undefined;
    this.pathIndex = new Map();
    this.computedIndex = undefined;
  }
}
