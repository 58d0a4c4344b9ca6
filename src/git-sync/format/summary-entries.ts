import { groupSlugOf, isValidSlug } from './group-slug.js';
import type { NestedEntry, RepositoryGroup, TopLevelEntry } from './model.js';
import { decodePath, folderOf, joinPath } from './paths.js';
import type { FormatProblem } from './problems.js';
import type { SummaryItem, SummaryOutline } from './summary-read.js';
import { titleOfPage } from './page-title.js';

/**
 * SUMMARY.md's items as the table of contents: each destination looked up
 * among the page files. An absolute URL is a link entry; a page with an
 * `#anchor`, or listed a second time, is a link to that page; any other is
 * the page. An item left out (its file missing, its path out of the root)
 * leaves its subpages to its parent.
 */

/** The schemes a link entry of GitBook's navigation takes. */
const LINK_URL = /^(?:https?:\/\/|mailto:)\S+$/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

interface Lookup {
  /** The page files by path from the root, with their markdown. */
  pages: ReadonlyMap<string, string>;
  /** The summary's folder from the root, which its destinations start from. */
  folder: string;
  /** The summary's path in the repository, for problems. */
  file: string;
  /** The pages listed so far. */
  listed: Set<string>;
  problems: FormatProblem[];
}

function problem(lookup: Lookup, item: SummaryItem, kind: FormatProblem['kind'], message: string): void {
  lookup.problems.push({
    kind,
    path: lookup.file,
    line: item.line,
    message: `${lookup.file}:${item.line}: ${message}`,
  });
}

/** The page file a destination names, from the root; undefined (with a problem) when there is none to take. */
function pagePathOf(lookup: Lookup, item: SummaryItem, written: string): string | undefined {
  let decoded = decodePath(written);
  if (decoded.endsWith('/')) decoded += 'README.md';
  const path = joinPath(lookup.folder, decoded);
  if (path === undefined) {
    problem(lookup, item, 'outside-root', `"${item.destination}" leads out of the root; left out`);
    return undefined;
  }
  if (!lookup.pages.has(path)) {
    problem(lookup, item, 'missing-page', `"${item.destination}" names no page file (${path}); left out`);
    return undefined;
  }
  return path;
}

function readItems(lookup: Lookup, items: readonly SummaryItem[]): NestedEntry[] {
  return items.flatMap((item) => readItem(lookup, item));
}

function readItem(lookup: Lookup, item: SummaryItem): NestedEntry[] {
  const { destination, title } = item;
  const subpages = () => readItems(lookup, item.children);
  if (SCHEME.test(destination) || destination.startsWith('//')) {
    if (!LINK_URL.test(destination)) {
      problem(lookup, item, 'bad-entry', `"${destination}" is no http, https or mailto address; left out`);
      return subpages();
    }
    return [{ kind: 'link', title, target: { url: destination } }, ...subpages()];
  }
  const hash = destination.indexOf('#');
  const written = hash === -1 ? destination : destination.slice(0, hash);
  const anchor = hash === -1 ? '' : destination.slice(hash + 1);
  if (written === '') {
    problem(lookup, item, 'bad-entry', `"${destination}" names no page; left out`);
    return subpages();
  }
  const path = pagePathOf(lookup, item, written);
  if (path === undefined) return subpages();
  if (anchor !== '') return [{ kind: 'link', title, target: { path, anchor } }, ...subpages()];
  if (lookup.listed.has(path)) {
    problem(lookup, item, 'listed-twice', `${path} is listed again; read as a link to the page`);
    return [{ kind: 'link', title, target: { path, anchor: '' } }, ...subpages()];
  }
  lookup.listed.add(path);
  const markdown = lookup.pages.get(path)!;
  return [{ kind: 'page', title: title || titleOfPage(path, markdown), path, markdown, children: subpages() }];
}

/** The table of contents SUMMARY.md gives, and the pages it lists. */
export function summaryEntries(
  outline: SummaryOutline,
  pages: ReadonlyMap<string, string>,
  summary: { path: string; file: string },
  problems: FormatProblem[],
): { entries: TopLevelEntry[]; listed: Set<string> } {
  const lookup: Lookup = { pages, folder: folderOf(summary.path), file: summary.file, listed: new Set(), problems };
  const entries = outline.sections.flatMap((section): TopLevelEntry[] => {
    if (!('title' in section)) return readItems(lookup, section.items);
    const children = readItems(lookup, section.items);
    const slug =
      section.id !== undefined && isValidSlug(section.id)
        ? section.id
        : groupSlugOf({ title: section.title, children });
    const group: RepositoryGroup = { kind: 'group', title: section.title, slug, children };
    return [group];
  });
  return { entries, listed: lookup.listed };
}
