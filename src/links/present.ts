import type { Urls } from '../core/urls.js';
import { pageFields, presentFile, type ContentPlace, type RevisionFile } from '../content/page-present.js';
import type { ContentTree, FileState, PageState } from '../content/tree.js';
import type { Organization } from '../orgs/organization-schemas.js';
import type { Space } from '../spaces/space-schemas.js';
import type { LinkTarget, LinkUse } from './analysis.js';

/** The spec's ContentLocationPage: a page of the revision, maybe a place in it. */
export interface PageLocation {
  kind: 'page';
  organization: Organization;
  space: Space;
  page: Record<string, unknown>;
  internalLocation?: { type: 'anchor'; anchor: string };
}

export type ContentLocation =
  | PageLocation
  | { kind: 'file'; organization: Organization; space: Space; file: RevisionFile }
  | { kind: 'url'; url: string };

/** The spec's ContentReferenceUsage. */
export interface LinkItem {
  status: LinkUse['status'];
  relation: LinkUse['relation'];
  targetReference: ContentLocation;
  locationReferences: PageLocation[];
}

/** What every location of one answer shares, and how to show its pages and files. */
export interface LocationSources {
  organization: Organization;
  space: Space;
  tree: ContentTree;
  place: ContentPlace;
  urls: Urls;
  /** The markdown of the pages shown: the spec's RevisionPageDocument carries its content. */
  markdownOf: (page: PageState) => string;
  downloadUrlOf: (file: FileState) => string;
}

/**
 * The locations of one answer. Each page and file object is made once, and
 * every item that names it shares it, as they share the organization and the
 * space.
 */
export class Locations {
  private readonly pages = new Map<string, PageLocation>();
  private readonly files = new Map<string, ContentLocation>();

  constructor(private readonly sources: LocationSources) {}

  /**
   * A page of the revision. A location names one page, so its subpages are
   * not listed (`pages` is empty); the page read lists them.
   */
  page(pageId: string): PageLocation {
    let location = this.pages.get(pageId);
    if (!location) {
      const { organization, space, tree, place, urls, markdownOf } = this.sources;
      const state = tree.pages.get(pageId)!;
      const page = { ...pageFields(tree, state, markdownOf(state), urls, place), pages: [] };
      location = { kind: 'page', organization, space, page };
      this.pages.set(pageId, location);
    }
    return location;
  }

  file(fileId: string): ContentLocation {
    let location = this.files.get(fileId);
    if (!location) {
      const { organization, space, tree, downloadUrlOf } = this.sources;
      const state = tree.files.get(fileId)!;
      location = { kind: 'file', organization, space, file: presentFile(state, downloadUrlOf(state)) };
      this.files.set(fileId, location);
    }
    return location;
  }

  /**
   * Where a link points. A page or file the revision lacks has no object to
   * show: its location is the URL as the page writes it (`/pages/<id>`,
   * `/pages/<id>#<anchor>`, `/files/<id>`), which names what is missing.
   */
  target(target: LinkTarget): ContentLocation {
    const { tree } = this.sources;
    switch (target.kind) {
      case 'page':
        return tree.pages.has(target.page) ? this.page(target.page) : { kind: 'url', url: `/pages/${target.page}` };
      case 'anchor':
        return tree.pages.has(target.page)
          ? { ...this.page(target.page), internalLocation: { type: 'anchor', anchor: target.anchor } }
          : { kind: 'url', url: `/pages/${target.page}#${target.anchor}` };
      case 'file':
        return tree.files.has(target.file) ? this.file(target.file) : { kind: 'url', url: `/files/${target.file}` };
      case 'url':
        return { kind: 'url', url: target.url };
    }
  }

  /** A link item; `pages` are the linking pages to show (all of them, or the one page a page listing is about). */
  item(use: LinkUse, pages: readonly string[]): LinkItem {
    return {
      status: use.status,
      relation: use.relation,
      targetReference: this.target(use.target),
      locationReferences: pages.map((pageId) => this.page(pageId)),
    };
  }
}

/** The pages of the revision that the items show, linking or linked to: those whose markdown is needed. */
export function pagesShown(tree: ContentTree, uses: readonly LinkUse[], pagesOf: (use: LinkUse) => readonly string[]) {
  const shown = new Map<string, PageState>();
  const add = (pageId: string) => {
    const page = tree.pages.get(pageId);
    if (page) shown.set(pageId, page);
  };
  for (const use of uses) {
    pagesOf(use).forEach(add);
    if (use.target.kind === 'page' || use.target.kind === 'anchor') add(use.target.page);
  }
  return shown.values();
}
