import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { groupSlugOf } from '../src/git-sync/format/group-slug.js';
import type { NestedEntry } from '../src/git-sync/format/model.js';
import { slugOfGitPath } from '../src/git-sync/format/paths.js';
import { readRepository } from '../src/git-sync/format/read.js';

/**
 * A GitBook Git Sync tree as it is on disk, read by the service's reader of
 * the format (src/git-sync/format/): SUMMARY.md gives the order, the titles,
 * the groups (`## …`) and link entries; every page is a `.md` file, `a/b.md`
 * or `a/b/README.md` for a page with subpages. Here as the flat list of
 * entries the bench writes.
 */

export { slugOfGitPath };

/** One entry of the table of contents, in SUMMARY.md's order: a parent always comes before its children. */
export type TreeEntry =
  | { kind: 'group'; key: string; title: string; slug: string }
  | { kind: 'page'; key: string; title: string; slug: string; parent: string | undefined; gitPath: string }
  | {
      kind: 'link';
      key: string;
      title: string;
      parent: string | undefined;
      /** A URL, or a page of the tree by its git path with an anchor. */
      target: { url: string } | { gitPath: string; anchor: string };
    };

export interface DocsTree {
  root: string;
  entries: TreeEntry[];
  /** Each page's markdown as it is on disk, by git path. */
  markdown: Map<string, string>;
  /** Pages on disk that SUMMARY.md does not list: no pages, as GitBook leaves them out. */
  unlisted: string[];
  /** What the format's reader found amiss (entries left out, pages unlisted), one sentence each. */
  problems: string[];
}

async function markdownFiles(root: string, folder = ''): Promise<string[]> {
  const found: string[] = [];
  for (const item of await readdir(path.join(root, folder), { withFileTypes: true })) {
    if (item.name.startsWith('.')) continue; // .gitbook holds assets, not pages
    const relative = folder ? `${folder}/${item.name}` : item.name;
    if (item.isDirectory()) found.push(...(await markdownFiles(root, relative)));
    else if (/\.md$/i.test(item.name)) found.push(relative);
  }
  return found.sort();
}

function flatten(entries: readonly NestedEntry[], parent: string | undefined, into: TreeEntry[]): void {
  for (const entry of entries) {
    if (entry.kind === 'link') {
      const { target } = entry;
      into.push({
        kind: 'link',
        key: `entry:${into.length}`,
        title: entry.title,
        parent,
        target: 'url' in target ? target : { gitPath: target.path, anchor: target.anchor },
      });
      continue;
    }
    const { path: gitPath, title } = entry;
    into.push({ kind: 'page', key: gitPath, title, slug: slugOfGitPath(gitPath), parent, gitPath });
    flatten(entry.children, gitPath, into);
  }
}

/** Reads the tree under `root`: SUMMARY.md and every page's markdown (its assets are read as they are written). */
export async function readDocsTree(root: string): Promise<DocsTree> {
  if (!(await stat(path.join(root, 'SUMMARY.md')).catch(() => undefined)))
    throw new Error(`${root} has no SUMMARY.md: give the folder of a GitBook Git Sync tree`);
  const files = new Map<string, Uint8Array>();
  for (const file of await markdownFiles(root)) files.set(file, await readFile(path.join(root, file)));
  const { content, problems } = readRepository(files);
  const entries: TreeEntry[] = [];
  const markdown = new Map<string, string>();
  for (const entry of content.entries) {
    if (entry.kind === 'group') {
      const key = `group:${entries.length}`;
      entries.push({ kind: 'group', key, title: entry.title, slug: groupSlugOf(entry) });
      flatten(entry.children, key, entries);
    } else {
      flatten([entry], undefined, entries);
    }
  }
  const collect = (list: readonly NestedEntry[]) => {
    for (const entry of list) {
      if (entry.kind !== 'page') continue;
      markdown.set(entry.path, entry.markdown);
      collect(entry.children);
    }
  };
  for (const entry of content.entries) collect(entry.kind === 'group' ? entry.children : [entry]);
  return {
    root,
    entries,
    markdown: new Map([...markdown].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    unlisted: problems.flatMap((problem) => (problem.kind === 'unlisted-page' ? [problem.path] : [])),
    problems: problems.map((problem) => problem.message),
  };
}
