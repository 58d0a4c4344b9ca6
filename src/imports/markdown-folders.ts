import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Nodes, Root } from 'mdast';
import { joinPath } from '../core/relative-path.js';
import { slugify, uniqueSlug } from '../core/slug.js';
import { contentTypeOf } from '../git-sync/format/content-types.js';
import { formatLinkDestination } from '../git-sync/format/link-syntax.js';
import type { FormatProblem } from '../git-sync/format/problems.js';
import type { RepositoryContent, RepositoryFile, RepositoryPage, TopLevelEntry } from '../git-sync/format/model.js';
import { DEFAULT_CONFIG } from '../git-sync/format/model.js';

/**
 * A zip of markdown folders as Outline and Docmost export them, read into
 * the content GitBook's format gives: no SUMMARY.md, a page per `.md` file,
 * and `Title.md` beside a `Title/` folder is the page whose subpages that
 * folder holds. A folder without a page of its own is a group at the top
 * (Outline's collections) and an empty page below it. Siblings are ordered by
 * name. Every other file (Outline's `uploads/…`, Docmost's `files/<id>/…`) is
 * an asset, and the links to pages and assets are rewritten to where the
 * import puts them: pages at the paths of their slugs, assets in
 * `.gitbook/assets/` under a name of their own.
 */

interface Folder {
  pages: Map<string, string>;
  folders: Map<string, Folder>;
}

interface Placed {
  /** The page's new path: its slugs, `.md`. */
  path: string;
  /** Its file in the zip, or undefined for a folder's empty page. */
  source: string | undefined;
  title: string;
  children: Placed[];
}

const emptyFolder = (): Folder => ({ pages: new Map(), folders: new Map() });
const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

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
    folder.pages.set(parts.at(-1)!.replace(/\.md$/i, ''), path);
  }
  return top;
}

/** The title a page's markdown opens with (`# Title`), else its file's name. */
function titleOf(markdown: string, name: string): string {
  const first = markdown
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/, 50)
    .find((line) => line.trim() !== '');
  if (first?.startsWith('# ')) {
    // A closing sequence of #s, as CommonMark allows, is no part of the title.
    const words = first.slice(2).trim().split(' ');
    while (words.length > 1 && /^#+$/.test(words.at(-1)!)) words.pop();
    const title = words.join(' ').trim();
    if (title !== '') return title;
  }
  return name.trim() || 'Untitled';
}

function placeFolder(folder: Folder, texts: ReadonlyMap<string, string>, at: string): Placed[] {
  const names = [...new Set([...folder.pages.keys(), ...folder.folders.keys()])].sort(byName);
  const taken = new Set<string>();
  const placed: Placed[] = [];
  for (const name of names) {
    const source = folder.pages.get(name);
    const sub = folder.folders.get(name);
    if (sub && !hasPages(sub)) continue;
    const slug = uniqueSlug(slugify(name), taken);
    taken.add(slug);
    const path = at ? `${at}/${slug}` : slug;
    placed.push({
      path: `${path}.md`,
      source,
      title: source === undefined ? name : titleOf(texts.get(source) ?? '', name),
      children: sub ? placeFolder(sub, texts, path) : [],
    });
  }
  return placed;
}

const hasPages = (folder: Folder): boolean =>
  folder.pages.size > 0 || [...folder.folders.values()].some((sub) => hasPages(sub));

/** An asset's name in `.gitbook/assets/`: its own, or numbered where another took it. */
function assetNames(paths: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const path of [...paths].sort(byName)) {
    const base = path.slice(path.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${stem} (${n})${extension}`;
    taken.add(name);
    names.set(path, name);
  }
  return names;
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Where a relative link of the page at `from` (a zip path) leads in the zip, or undefined for an absolute URL. */
function zipTarget(url: string, from: string): { path: string; hash: string } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#') || url.startsWith('//') || url === '') return undefined;
  const hashAt = url.indexOf('#');
  const [bare, hash] = hashAt === -1 ? [url, ''] : [url.slice(0, hashAt), url.slice(hashAt)];
  const clean = decodedPath(bare.split('?', 1)[0]!);
  const folder = from.includes('/') ? from.slice(0, from.lastIndexOf('/')) : '';
  // Docmost writes its attachments' links from the root of the page's folder (`/files/…`) as well as relative.
  const path = clean.startsWith('/') ? joinPath(folder, clean.slice(1)) : joinPath(folder, clean);
  return path === undefined ? undefined : { path, hash };
}

/** The range of a link's or image's destination in the markdown, read from the node's own source. */
function destinationRange(markdown: string, node: Nodes): [number, number] | undefined {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return undefined;
  let at: number;
  if (node.type === 'definition') {
    at = markdown.indexOf(']:', start);
    if (at === -1 || at >= end) return undefined;
    at += 2;
  } else {
    if (markdown[end - 1] !== ')') return undefined;
    const children = 'children' in node ? node.children : [];
    const textEnd = children.at(-1)?.position?.end.offset;
    at = textEnd !== undefined ? markdown.indexOf('](', textEnd) : markdown.lastIndexOf('](', end);
    if (at === -1 || at < start || at >= end) return undefined;
    at += 2;
  }
  while (at < end && /[ \t\n]/.test(markdown[at]!)) at++;
  if (markdown[at] === '<') {
    const close = markdown.indexOf('>', at);
    return close === -1 || close >= end ? undefined : [at, close + 1];
  }
  let depth = 0;
  let stop = at;
  for (; stop < end; stop++) {
    const char = markdown[stop]!;
    if (char === '\\') stop++;
    else if (/\s/.test(char)) break;
    else if (char === '(') depth++;
    else if (char === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return stop > at ? [at, stop] : undefined;
}

function linkNodes(tree: Root): Array<Nodes & { url: string }> {
  const found: Array<Nodes & { url: string }> = [];
  const visit = (node: Nodes) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') found.push(node);
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return found;
}

/** `path` (from the top) as a link from a file in the folder of `from` writes it. */
function relativeTo(from: string, path: string): string {
  const fromParts = from.split('/').slice(0, -1);
  const to = path.split('/');
  let shared = 0;
  while (shared < fromParts.length && shared < to.length - 1 && fromParts[shared] === to[shared]) shared++;
  return [...Array<string>(fromParts.length - shared).fill('..'), ...to.slice(shared)].join('/');
}

/** The page's markdown with its links to pages and assets of the zip pointed where the import puts them. */
function rewriteLinks(
  markdown: string,
  from: { zip: string; placed: string },
  pagePaths: ReadonlyMap<string, string>,
  assets: ReadonlyMap<string, string>,
): string {
  const edits: Array<{ range: [number, number]; url: string }> = [];
  for (const node of linkNodes(fromMarkdown(markdown))) {
    const target = zipTarget(node.url, from.zip);
    if (!target) continue;
    const page = pagePaths.get(target.path);
    const asset = assets.get(target.path);
    const url =
      page !== undefined
        ? `${relativeTo(from.placed, page)}${target.hash}`
        : asset !== undefined
          ? relativeTo(from.placed, `.gitbook/assets/${asset}`)
          : undefined;
    const range = url === undefined ? undefined : destinationRange(markdown, node);
    if (range && url !== undefined) edits.push({ range, url });
  }
  let out = markdown;
  for (const { range, url } of edits.sort((a, b) => b.range[0] - a.range[0]))
    out = `${out.slice(0, range[0])}${formatLinkDestination(url)}${out.slice(range[1])}`;
  return out;
}

/** The content of a zip of markdown folders; `files` by zip path, directories and system files left out. */
export function readMarkdownFolders(files: ReadonlyMap<string, Uint8Array>): {
  content: RepositoryContent;
  problems: FormatProblem[];
} {
  const problems: FormatProblem[] = [];
  const texts = new Map<string, string>();
  const others: string[] = [];
  for (const [path, bytes] of files) {
    if (/\.md$/i.test(path)) texts.set(path, decoder.decode(bytes));
    else others.push(path);
  }
  const placed = placeFolder(folderTree(texts.keys()), texts, '');
  const pagePaths = new Map<string, string>();
  const collect = (entries: readonly Placed[]) => {
    for (const entry of entries) {
      if (entry.source !== undefined) pagePaths.set(entry.source, entry.path);
      collect(entry.children);
    }
  };
  collect(placed);
  const assets = assetNames(others);

  const pageOf = (entry: Placed): RepositoryPage => {
    const markdown =
      entry.source === undefined
        ? `# ${entry.title}\n`
        : rewriteLinks(texts.get(entry.source)!, { zip: entry.source, placed: entry.path }, pagePaths, assets);
    return {
      kind: 'page',
      title: entry.title,
      path: entry.path,
      markdown,
      children: entry.children.map(pageOf),
    };
  };
  const entries: TopLevelEntry[] = placed.map((entry): TopLevelEntry => {
    // A top-level folder without a page of its own (an Outline collection) is a group: GitBook's only page-less parent.
    if (entry.source === undefined)
      return {
        kind: 'group',
        title: entry.title,
        slug: entry.path.replace(/\.md$/, ''),
        children: entry.children.map(pageOf),
      };
    return pageOf(entry);
  });
  const assetFiles: RepositoryFile[] = [...assets].map(([path, name]) => ({
    name,
    contentType: contentTypeOf(name),
    bytes: files.get(path)!,
  }));
  if (entries.length === 0)
    problems.push({ kind: 'missing-page', path: '', message: 'The zip holds no markdown file (.md) to import' });
  return {
    content: { config: { ...DEFAULT_CONFIG }, entries, files: assetFiles, redirects: [] },
    problems,
  };
}
