import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * A GitBook Git Sync tree as it is on disk: SUMMARY.md gives the order, the
 * titles, the groups (`## …`) and link entries; every page is a `.md` file,
 * `a/b.md` or `a/b/README.md` for a page with subpages.
 */

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
  /** Pages on disk that SUMMARY.md does not list: written at the end, at the top level. */
  unlisted: string[];
}

const ITEM = /^(\s*)[*+-] \[(.*)\]\((.*)\)\s*$/;
const GROUP = /^## (.+)$/;

/** The destination of a SUMMARY link: `<a b.md>` or `a.md "Title"`. */
function destination(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed.startsWith('<')) return trimmed.slice(1, trimmed.indexOf('>'));
  const title = trimmed.search(/\s"/);
  return title < 0 ? trimmed : trimmed.slice(0, title);
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The slug a page's git path gives it: the file's name, or its folder's for a README. */
export function slugOfGitPath(gitPath: string): string {
  const parts = gitPath.split('/');
  const file = parts.at(-1)!;
  if (/^README\.md$/i.test(file)) return parts.at(-2) ?? '';
  return file.replace(/\.md$/i, '');
}

function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * A group's slug: the first folder its pages share, so that page paths follow
 * the git folders; else (or when that folder's README is one of its pages,
 * whose own slug it is) its title's.
 */
function groupSlug(title: string, pagePaths: string[]): string {
  const folders = new Set(pagePaths.map((gitPath) => (gitPath.includes('/') ? gitPath.split('/')[0]! : '')));
  const [only] = folders;
  const shared = folders.size === 1 && only && !pagePaths.includes(`${only}/README.md`);
  return shared ? only : slugify(title) || 'group';
}

async function markdownFiles(root: string, folder = ''): Promise<string[]> {
  const found: string[] = [];
  for (const item of await readdir(path.join(root, folder), { withFileTypes: true })) {
    if (item.name.startsWith('.')) continue; // .gitbook holds assets, not pages
    const relative = folder ? `${folder}/${item.name}` : item.name;
    if (item.isDirectory()) found.push(...(await markdownFiles(root, relative)));
    else if (/\.md$/i.test(item.name) && relative !== 'SUMMARY.md') found.push(relative);
  }
  return found.sort();
}

function parseSummary(summary: string, pages: Set<string>): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const seen = new Set<string>();
  let group: Extract<TreeEntry, { kind: 'group' }> | undefined;
  const groupPages = new Map<Extract<TreeEntry, { kind: 'group' }>, string[]>();
  // The key of the last entry at each depth, for its children.
  const stack: string[] = [];
  for (const line of summary.split(/\r?\n/)) {
    const heading = GROUP.exec(line);
    if (heading) {
      const title = heading[1]!.replace(/<[^<>]*>/g, '').trim();
      group = { kind: 'group', key: `group:${entries.length}`, title, slug: '' };
      groupPages.set(group, []);
      entries.push(group);
      stack.length = 0;
      continue;
    }
    const item = ITEM.exec(line);
    if (!item) continue;
    const depth = Math.floor(item[1]!.replace(/\t/g, '  ').length / 2);
    stack.length = Math.min(stack.length, depth);
    const parent = depth === 0 ? group?.key : stack[depth - 1];
    const title = item[2]!;
    const target = destination(item[3]!);
    const key = `entry:${entries.length}`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      entries.push({ kind: 'link', key, title, parent, target: { url: target } });
    } else {
      const [file, anchor] = [decode(target.split('#')[0]!), target.includes('#') ? target.split('#')[1]! : ''];
      if (anchor || seen.has(file) || !pages.has(file)) {
        entries.push({ kind: 'link', key, title, parent, target: { gitPath: file, anchor } });
      } else {
        seen.add(file);
        entries.push({ kind: 'page', key: file, title, slug: slugOfGitPath(file), parent, gitPath: file });
        if (group && depth === 0) groupPages.get(group)!.push(file);
      }
    }
    stack[depth] = entries.at(-1)!.key;
  }
  for (const [entry, paths] of groupPages) entry.slug = groupSlug(entry.title, paths);
  return entries;
}

/** Reads the tree under `root`: SUMMARY.md and every page's markdown. */
export async function readDocsTree(root: string): Promise<DocsTree> {
  if (!(await stat(path.join(root, 'SUMMARY.md')).catch(() => undefined)))
    throw new Error(`${root} has no SUMMARY.md: give the folder of a GitBook Git Sync tree`);
  const files = await markdownFiles(root);
  const markdown = new Map<string, string>();
  for (const file of files) markdown.set(file, await readFile(path.join(root, file), 'utf8'));
  const entries = parseSummary(await readFile(path.join(root, 'SUMMARY.md'), 'utf8'), new Set(files));
  const listed = new Set(entries.flatMap((entry) => (entry.kind === 'page' ? [entry.gitPath] : [])));
  const unlisted = files.filter((file) => !listed.has(file));
  for (const file of unlisted) {
    entries.push({
      kind: 'page',
      key: file,
      title: slugOfGitPath(file) || file,
      slug: slugOfGitPath(file),
      parent: undefined,
      gitPath: file,
    });
  }
  return { root, entries, markdown, unlisted };
}
