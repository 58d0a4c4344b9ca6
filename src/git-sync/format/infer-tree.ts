import type { NestedEntry, RepositoryPage } from './model.js';
import { byPath, isReadme } from './paths.js';
import { titleOfPage } from './page-title.js';

/**
 * The table of contents of a repository without SUMMARY.md, as GitBook makes
 * it: the page files in path order, the readme first; a folder with a
 * README.md is that page, the files in it its subpages; a folder without
 * one gives its pages to the level above.
 */

interface Folder {
  files: Map<string, string>;
  folders: Map<string, Folder>;
}

const emptyFolder = (): Folder => ({ files: new Map(), folders: new Map() });

function folderTree(paths: Iterable<string>): Folder {
  const top = emptyFolder();
  for (const path of paths) {
    const parts = path.split('/');
    let folder = top;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = emptyFolder()));
      folder = next;
    }
    folder.files.set(parts.at(-1)!, path);
  }
  return top;
}

function pageOf(path: string, pages: ReadonlyMap<string, string>, children: NestedEntry[]): RepositoryPage {
  const markdown = pages.get(path)!;
  return { kind: 'page', title: titleOfPage(path, markdown), path, markdown, children };
}

/** A folder's pages in path order; `own` (the page the folder is) is left to the caller. */
function entriesOf(folder: Folder, pages: ReadonlyMap<string, string>, own: string | undefined): NestedEntry[] {
  const names = [...new Set([...folder.files.keys(), ...folder.folders.keys()])].sort(byPath);
  const entries: NestedEntry[] = [];
  for (const name of names) {
    const file = folder.files.get(name);
    if (file !== undefined && file !== own) entries.push(pageOf(file, pages, []));
    const sub = folder.folders.get(name);
    if (!sub) continue;
    const readme = [...sub.files.values()].find(isReadme);
    const children = entriesOf(sub, pages, readme);
    if (readme === undefined) entries.push(...children);
    else entries.push(pageOf(readme, pages, children));
  }
  return entries;
}

export function inferredEntries(pages: ReadonlyMap<string, string>, readme: string): NestedEntry[] {
  const top = folderTree(pages.keys());
  const topReadme = pages.has(readme) ? readme : [...top.files.values()].find(isReadme);
  const rest = entriesOf(top, pages, topReadme);
  return topReadme === undefined ? rest : [pageOf(topReadme, pages, []), ...rest];
}
