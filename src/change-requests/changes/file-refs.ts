import type { ContentTree, FileState } from '../../content/tree.js';
import { formatDestination } from '../../document/rewrite-urls.js';
import type { NewContent } from './page-input.js';

/**
 * Files named the way Git Sync's markdown names them: by their path in the
 * repository's `.gitbook/assets/` folder (from the page's folder, `../.gitbook/assets/x.png`,
 * or from the root) or by their name alone (`image (1).png`), URL-encoded or
 * not. Only the space's own files are searched: the tree is one revision of one space.
 */

const ASSETS = '.gitbook/assets/';
/** What may come before `.gitbook/assets/`: the root, or steps up and across from the page's folder. */
const ASSETS_PREFIX = /^\/?(?:\.\.?\/)*$/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The file name a URL names, or undefined when it is not a path into the space's files. */
export function fileNameOf(url: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#') || url.startsWith('//')) return undefined;
  if (url.startsWith('/files/') || url.startsWith('/pages/')) return undefined;
  const path = decoded(url.split(/[?#]/, 1)[0]!);
  const at = path.lastIndexOf(ASSETS);
  if (at !== -1) {
    const name = path.slice(at + ASSETS.length);
    return ASSETS_PREFIX.test(path.slice(0, at)) && name !== '' && !name.includes('/') ? name : undefined;
  }
  // A bare `x.md` is a page of Git Sync, even where a file has that name.
  const bare = path.replace(/^\.\//, '');
  return bare !== '' && !bare.includes('/') && !/\.md$/i.test(bare) ? bare : undefined;
}

/**
 * The newer of two files sharing a name: the one created last, and between
 * files of one write, the smaller id. A name two files share resolves to one
 * file however the tree was read.
 */
function preferred(a: FileState, b: FileState): FileState {
  const at = a.createdAt.getTime() - b.createdAt.getTime();
  if (at !== 0) return at > 0 ? a : b;
  return a.fileId < b.fileId ? a : b;
}

/** Each tree's files by name, made on first use; remade when the batch has added files since. */
const byNameCache = new WeakMap<Map<string, FileState>, { size: number; byName: Map<string, FileState> }>();

function filesByName(tree: ContentTree): Map<string, FileState> {
  const cached = byNameCache.get(tree.files);
  if (cached && cached.size === tree.files.size) return cached.byName;
  const byName = new Map<string, FileState>();
  for (const file of tree.files.values()) {
    const other = byName.get(file.name);
    byName.set(file.name, other ? preferred(file, other) : file);
  }
  byNameCache.set(tree.files, { size: tree.files.size, byName });
  return byName;
}

/** The space file a URL names by path or name, or undefined. */
export function fileNamedBy(url: string, tree: ContentTree): FileState | undefined {
  const name = fileNameOf(url);
  return name === undefined ? undefined : filesByName(tree).get(name);
}

/** A link or image URL naming a space file, as `/files/<id>` (its `#fragment` kept); undefined for any other. */
export function resolveFileUrl(url: string, tree: ContentTree): string | undefined {
  const file = fileNamedBy(url, tree);
  if (!file) return undefined;
  const hash = url.indexOf('#');
  return `/files/${file.fileId}${hash === -1 ? '' : url.slice(hash)}`;
}

/**
 * A cover as stored while the batch runs (its image a URL reference) with
 * the image resolved to the space file it names, where it names one.
 */
export function resolveCoverFile(
  cover: Record<string, unknown> | null,
  tree: ContentTree,
): Record<string, unknown> | null {
  const ref = cover?.ref as { kind?: string; url?: unknown } | undefined;
  if (!cover || ref?.kind !== 'url' || typeof ref.url !== 'string') return cover;
  const file = ref.url.startsWith('/files/')
    ? tree.files.get(ref.url.slice('/files/'.length))
    : fileNamedBy(ref.url, tree);
  return file ? { ...cover, ref: { kind: 'file', file: file.fileId } } : cover;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const FILE_TAG = /(\{%\s*file\s+src=")([^"\n]*)"[^%\n]*%\}/g;
/** HTML that names a file: GitBook's `<img src>`, `<source srcset>` (a dark image) and `<a href>`. */
const HTML_TAG = /<(img|source|a)\b[^<>\n]*>/gi;
const HTML_ATTRIBUTE = /\s(src|srcset|href)="([^"\n]*)"/gi;

/** Where a file tag's `src` or an HTML tag's file attribute is written. */
interface TagSource {
  src: string;
  start: number;
  end: number;
}

/** The sources one line names: file tags' `src`, and HTML images', sources' and links' attributes. */
function sourcesOfLine(line: string, at: number, found: TagSource[]): void {
  for (const match of line.matchAll(FILE_TAG)) {
    const start = match.index + match[1]!.length;
    found.push({ src: match[2]!, start: at + start, end: at + start + match[2]!.length });
  }
  if (!line.includes('<')) return;
  // HTML inside a code span is an example, not a file: an odd number of backticks before a tag puts it in one.
  let ticks = 0;
  let tick = line.indexOf('`');
  for (const tag of line.matchAll(HTML_TAG)) {
    while (tick !== -1 && tick < tag.index) {
      ticks++;
      tick = line.indexOf('`', tick + 1);
    }
    if (ticks % 2 === 1) continue;
    const name = tag[1]!.toLowerCase();
    const wanted = name === 'a' ? 'href' : name === 'img' ? 'src' : 'srcset';
    for (const attribute of tag[0].matchAll(HTML_ATTRIBUTE)) {
      if (attribute[1]!.toLowerCase() !== wanted) continue;
      const start = tag.index + attribute.index + attribute[0].length - attribute[2]!.length - 1;
      found.push({ src: attribute[2]!, start: at + start, end: at + start + attribute[2]!.length });
    }
  }
}

/**
 * What names a file outside fenced code, line by line: one pass over the
 * lines, each read by patterns that cannot backtrack past it, so linear in the markdown.
 */
function fileTagSources(markdown: string): TagSource[] {
  if (!markdown.includes('{%') && !markdown.includes('<')) return [];
  const found: TagSource[] = [];
  let fence: string | undefined;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const at = offset;
    offset += line.length + 1;
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    if (line.includes('{%') || line.includes('<')) sourcesOfLine(line, at, found);
  }
  return found;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * A page's new content with what names a space file by its Git Sync path or
 * its name (links, images, `{% file src="…" %}` tags, and GitBook's HTML
 * `<img src>`, `<source srcset>` and `<a href>`, outside fenced code)
 * pointed at it, `/files/<id>`; the destinations follow the text they are in,
 * so that the batch's link resolution reads them where they now are.
 */
export function resolveFileNames(content: NewContent, tree: ContentTree): NewContent {
  if (tree.files.size === 0) return content;
  const edits: Edit[] = [];
  const resolvedAt = new Map<number, string>();
  for (const destination of content.destinations) {
    const url = resolveFileUrl(destination.url, tree);
    if (url === undefined) continue;
    edits.push({ start: destination.start, end: destination.end, text: formatDestination(url) });
    resolvedAt.set(destination.start, url);
  }
  const taken = [...content.destinations].sort((a, b) => a.start - b.start);
  let passed = 0;
  for (const tag of fileTagSources(content.markdown).sort((a, b) => a.start - b.start)) {
    // HTML the parse reads as an image or a link has its destination already, resolved above.
    while (passed < taken.length && taken[passed]!.end <= tag.start) passed++;
    if (passed < taken.length && taken[passed]!.start < tag.end) continue;
    const url = resolveFileUrl(tag.src, tree);
    if (url !== undefined) edits.push({ start: tag.start, end: tag.end, text: url });
  }
  if (edits.length === 0) return content;
  edits.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  const shifts: Array<{ at: number; shift: number }> = [];
  let copied = 0;
  let shift = 0;
  for (const edit of edits) {
    parts.push(content.markdown.slice(copied, edit.start), edit.text);
    copied = edit.end;
    shifts.push({ at: edit.start, shift });
    shift += edit.text.length - (edit.end - edit.start);
  }
  parts.push(content.markdown.slice(copied));
  // Destinations in text order, each moved by the edits before it (and an edited one given its new end).
  const destinations = [...content.destinations].sort((a, b) => a.start - b.start);
  let next = 0;
  let moved = 0;
  const placed = destinations.map((destination) => {
    while (next < edits.length && edits[next]!.start < destination.start) {
      moved = shifts[next]!.shift + edits[next]!.text.length - (edits[next]!.end - edits[next]!.start);
      next++;
    }
    const url = resolvedAt.get(destination.start);
    if (url === undefined) return { ...destination, start: destination.start + moved, end: destination.end + moved };
    const text = formatDestination(url);
    return { ...destination, url, start: destination.start + moved, end: destination.start + moved + text.length };
  });
  return { markdown: parts.join(''), destinations: placed };
}
