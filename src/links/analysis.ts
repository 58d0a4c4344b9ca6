import { createHash } from 'node:crypto';
import { HeadingIds } from '../core/heading-anchors.js';
import type { DocumentFacts, StoredLink } from '../document/facts.js';
import { isUnresolvedPageUrl } from '../document/links.js';
import type { ContentTree, PageState } from '../content/tree.js';

export type LinkStatus = 'ok' | 'broken' | 'in-app';
export type LinkRelation = StoredLink['relation'];

/** Where a link points once read in its page: an anchor without a page is an anchor of the linking page. */
export type LinkTarget =
  | { kind: 'page'; page: string }
  | { kind: 'anchor'; page: string; anchor: string }
  | { kind: 'file'; file: string }
  | { kind: 'url'; url: string };

/** One target and relation of a revision, with its status and the pages that link to it. */
export interface LinkUse {
  /** The same target and relation in every revision: what a change request is compared on. */
  id: string;
  /** Its place in the listing; see `linkKey`. */
  key: string;
  target: LinkTarget;
  relation: LinkRelation;
  status: LinkStatus;
  /** The pages that link to it, in the order of the page tree. */
  pages: string[];
}

/** A page that links to something, with its place in a backlink listing. */
export interface Backlink {
  key: string;
  pageId: string;
}

/** Everything the link listings and backlinks of one revision answer from. */
export interface LinkReport {
  /** Ordered by key. */
  links: LinkUse[];
  /** The links of each page, ordered by key. */
  linksOfPage: Map<string, LinkUse[]>;
  /** The pages that reference each file, and each page (other than itself), ordered by key. */
  fileBacklinks: Map<string, Backlink[]>;
  pageBacklinks: Map<string, Backlink[]>;
  /**
   * On a change request's revision, the ids of the links broken here that are
   * not broken in the space revision it is based on; empty on the space's line.
   */
  introduced: ReadonlySet<string>;
}

/** Longer sort keys are cut and finished with a digest, so that a cursor stays short and keys stay distinct. */
const KEY_PREFIX = 200;

/**
 * A sort key of parts, compared as a string: the separator sorts below every
 * character, so a shorter part sorts before a longer one it begins.
 */
function sortKey(parts: readonly string[]): string {
  const key = parts.join('\u0000');
  if (key.length <= KEY_PREFIX) return key;
  return `${key.slice(0, KEY_PREFIX)}\u0000${createHash('sha256').update(key).digest('base64url')}`;
}

/**
 * Links are listed by kind of target (pages and their anchors, then files,
 * then URLs), each kind in the order a reader finds it by: a page's path, a
 * file's name, the URL. A missing page or file has no path or name, so broken
 * ones come first in their kind. Ids and the relation make the key unique.
 */
function linkKey(target: LinkTarget, relation: LinkRelation, tree: ContentTree): string {
  switch (target.kind) {
    case 'page':
    case 'anchor': {
      const path = tree.pages.has(target.page) ? tree.pathOf(target.page) : '';
      const anchor = target.kind === 'anchor' ? target.anchor : '';
      return sortKey(['1', path, target.page, anchor, relation]);
    }
    case 'file':
      return sortKey(['2', tree.files.get(target.file)?.name ?? '', target.file, relation]);
    case 'url':
      return sortKey(['3', target.url, relation]);
  }
}

function targetOf(link: StoredLink, pageId: string): LinkTarget {
  switch (link.kind) {
    case 'page':
      return { kind: 'page', page: link.page };
    case 'anchor':
      return { kind: 'anchor', page: link.page ?? pageId, anchor: link.anchor };
    case 'file':
      return { kind: 'file', file: link.file };
    case 'url':
      return { kind: 'url', url: link.url };
  }
}

function identityOf(target: LinkTarget, relation: LinkRelation): string {
  switch (target.kind) {
    case 'page':
      return `page ${target.page} ${relation}`;
    case 'anchor':
      return `anchor ${target.page}#${target.anchor} ${relation}`;
    case 'file':
      return `file ${target.file} ${relation}`;
    case 'url':
      return `url ${relation} ${target.url}`;
  }
}

/** The anchor as written, and as a reader's browser would match it (percent-decoded). */
function anchorForms(anchor: string): string[] {
  try {
    const decoded = decodeURIComponent(anchor);
    return decoded === anchor ? [anchor] : [anchor, decoded];
  } catch {
    return [anchor];
  }
}

/**
 * The ids a link may name on a page: its expandables', each heading's as
 * stored, and, from a heading's title, GitBook's id and the github-slugger id
 * the reader gave before (the reader keeps that one as a target too). Facts
 * stored before headings took GitBook's ids hold the old ones; the title
 * gives the new.
 */
function headingTargets(facts: DocumentFacts): Set<string> {
  const targets = new Set<string>();
  const ids = new HeadingIds();
  for (const section of facts.outline) {
    for (const expandable of section.expandables ?? []) targets.add(expandable);
    if (section.anchor === null) continue;
    const { id, legacyId } = ids.next(section.title);
    targets.add(section.anchor).add(id).add(legacyId);
  }
  return targets;
}

/** The pages of the tree, parents before children, siblings in order. */
function pagesInTreeOrder(tree: ContentTree): PageState[] {
  const ordered: PageState[] = [];
  const visit = (parentId: string | null) => {
    for (const page of tree.childrenOf(parentId)) {
      ordered.push(page);
      visit(page.pageId);
    }
  };
  visit(null);
  return ordered;
}

function byKey<T extends { key: string }>(a: T, b: T): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * Reads every link of a revision from its documents' stored facts and checks
 * each target against the revision itself: nothing is parsed and nothing
 * fetched. `isAppUrl` tells the URLs that point into this service's app.
 */
export function analyseLinks(
  tree: ContentTree,
  factsOf: (page: PageState) => DocumentFacts,
  isAppUrl: (url: string) => boolean,
): LinkReport {
  const anchorsByPage = new Map<string, Set<string>>();
  const anchorsOf = (pageId: string) => {
    let anchors = anchorsByPage.get(pageId);
    if (!anchors) {
      anchors = headingTargets(factsOf(tree.pages.get(pageId)!));
      anchorsByPage.set(pageId, anchors);
    }
    return anchors;
  };
  const statusOf = (target: LinkTarget): LinkStatus => {
    switch (target.kind) {
      case 'page':
        return tree.pages.has(target.page) ? 'ok' : 'broken';
      case 'anchor': {
        if (!tree.pages.has(target.page)) return 'broken';
        const anchors = anchorsOf(target.page);
        return anchorForms(target.anchor).some((anchor) => anchors.has(anchor)) ? 'ok' : 'broken';
      }
      case 'file':
        return tree.files.has(target.file) ? 'ok' : 'broken';
      case 'url':
        // A page path or `.md` link the write could not resolve names a page the space lacks.
        if (isUnresolvedPageUrl(target.url)) return 'broken';
        return isAppUrl(target.url) ? 'in-app' : 'ok';
    }
  };

  const uses = new Map<string, LinkUse>();
  const linksOfPage = new Map<string, LinkUse[]>();
  const fileUsers = new Map<string, Set<string>>();
  const pageUsers = new Map<string, Set<string>>();
  const addUser = (users: Map<string, Set<string>>, id: string, pageId: string) => {
    const found = users.get(id);
    if (found) found.add(pageId);
    else users.set(id, new Set([pageId]));
  };
  for (const page of pagesInTreeOrder(tree)) {
    const own = new Set<LinkUse>();
    for (const link of factsOf(page).links) {
      const target = targetOf(link, page.pageId);
      const id = identityOf(target, link.relation);
      let use = uses.get(id);
      if (!use) {
        const key = linkKey(target, link.relation, tree);
        use = { id, key, target, relation: link.relation, status: statusOf(target), pages: [] };
        uses.set(id, use);
      }
      // `/pages/<self>#a` and `#a` are one target: the page is listed once.
      if (own.has(use)) continue;
      own.add(use);
      use.pages.push(page.pageId);
      if (target.kind === 'file') addUser(fileUsers, target.file, page.pageId);
      else if ((target.kind === 'page' || target.kind === 'anchor') && target.page !== page.pageId)
        addUser(pageUsers, target.page, page.pageId);
    }
    if (own.size > 0) linksOfPage.set(page.pageId, [...own].sort(byKey));
  }
  // Backlinks are listed by the linking page's path: the order of a site's outline.
  const backlinksOf = (users: Map<string, Set<string>>) =>
    new Map(
      [...users].map(([id, pages]) => [
        id,
        [...pages].map((pageId) => ({ key: sortKey([tree.pathOf(pageId), pageId]), pageId })).sort(byKey),
      ]),
    );
  return {
    links: [...uses.values()].sort(byKey),
    linksOfPage,
    fileBacklinks: backlinksOf(fileUsers),
    pageBacklinks: backlinksOf(pageUsers),
    introduced: new Set(),
  };
}

/** The ids of the links broken in `report` that are not broken in `base`. */
export function brokenSince(report: LinkReport, base: LinkReport): Set<string> {
  const brokenInBase = new Set(base.links.flatMap((use) => (use.status === 'broken' ? [use.id] : [])));
  return new Set(report.links.flatMap((use) => (use.status === 'broken' && !brokenInBase.has(use.id) ? [use.id] : [])));
}

/** About how much memory a report holds, for the cache's bound. */
export function reportWeight(report: LinkReport): number {
  let weight = 1;
  for (const use of report.links) weight += 2 + use.pages.length + Math.ceil(use.key.length / 64);
  for (const list of report.fileBacklinks.values()) weight += list.length;
  for (const list of report.pageBacklinks.values()) weight += list.length;
  return weight;
}
