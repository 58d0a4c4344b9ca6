import path from 'node:path';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';
import { toString } from 'mdast-util-to-string';
import { parse as parseYaml } from 'yaml';
import { htmlDocument } from './gitbook-docs-read.js';

/**
 * What a page's markdown names, read with the same mdast parser family the
 * service uses but on its own: the images it shows, the links it makes, its
 * HTML blocks and code blocks, and its frontmatter. The measurement compares
 * the published page against this.
 */

export interface SourceImage {
  /** As written. */
  src: string;
  /** What the published `<img>` is matched by: the file's name, or the whole URL of an external image. */
  match: string;
  /** The tree path of an asset (`.gitbook/assets/x.png`), when it names one. */
  asset?: string;
  /** A dark-mode variant (`<picture><source media="(prefers-color-scheme: dark)">`). */
  dark?: boolean;
}

export interface SourceLink {
  url: string;
  /** The git path of the page it names, or undefined when the link names no page of the tree. */
  target: string | undefined;
  /** The fragment, decoded, without `#`. */
  anchor: string;
  /**
   * Broken in the source itself: a `.md` link to a file that is not a page of
   * the tree, or an anchor that names no heading, expandable or id of its
   * target, even loosely (markAnchorsBrokenInSource).
   */
  brokenInSource: boolean;
}

export interface PageSource {
  gitPath: string;
  frontmatter: Record<string, unknown>;
  /** The markdown without frontmatter and without its leading `# Title`: what a read-back is compared with. */
  body: string;
  images: SourceImage[];
  /** Relative links to pages and `#anchor` links. */
  links: SourceLink[];
  /**
   * Links the service rightly keeps as written: from the site's root (GitBook's `/broken/pages/…` for a link
   * it lost) or relative ones that name no page or file of the tree. Not judged.
   */
  keptAsWritten: Set<string>;
  /** Every `.gitbook/assets/…` path the page names (images, files, cover). */
  assets: Set<string>;
  /** HTML blocks (not comments, not `<details>`/`<summary>` lines). */
  htmlBlocks: number;
  /** The text of fenced or indented code blocks that starts with `<`, whitespace collapsed: HTML shown as code on purpose. */
  codeStartingWithTag: string[];
  /** Runs of prose (text outside code, HTML and `{% %}`/`{{ }}`), whitespace collapsed: each should be shown. */
  texts: string[];
  /** What an anchor may name on this page, loosely (looseAnchor): its headings' and expandables' titles and its ids. */
  anchorTargets: Set<string>;
  /** Blocks counted to choose rich pages for screenshots. */
  richness: { figures: number; steppers: number; cards: number; tabs: number };
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function splitFrontmatter(markdown: string): { data: Record<string, unknown>; rest: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!match) return { data: {}, rest: markdown };
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch {
    data = {};
  }
  return {
    data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {},
    rest: markdown.slice(match[0].length),
  };
}

/** The markdown's body as a read-back should give it: no frontmatter, no leading `# Title`, LF line endings. */
export function comparableBody(markdown: string): string {
  const { rest } = splitFrontmatter(markdown.replace(/\r\n?/g, '\n'));
  return rest
    .replace(/^\s*# [^\n]*\n+/, '')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd()
    .concat('\n');
}

/** The folder relative links of a page start from: its file's folder (a README's is the page's own folder). */
function resolveTarget(from: string, url: string, pages: ReadonlySet<string>): string | undefined {
  const bare = decode(url.split('#')[0]!.split('?')[0]!);
  if (bare === '') return from;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), bare));
  if (joined.startsWith('..')) return undefined;
  const base = joined.replace(/\/$/, '');
  const candidates = /\.md$/i.test(base) ? [base] : [`${base}.md`, `${base}/README.md`];
  if (base === '.' || base === '') candidates.unshift('README.md');
  return candidates.find((candidate) => pages.has(candidate));
}

function assetOf(from: string, url: string): string | undefined {
  if (SCHEME.test(url) || url.startsWith('//') || url.startsWith('#')) return undefined;
  const bare = decode(url.split('#')[0]!.split('?')[0]!);
  const joined = path.posix.normalize(
    bare.startsWith('/') ? bare.slice(1) : path.posix.join(path.posix.dirname(from), bare),
  );
  return joined.startsWith('.gitbook/assets/') ? joined : undefined;
}

function image(from: string, src: string): SourceImage {
  const asset = assetOf(from, src);
  const match = asset ? path.posix.basename(asset) : src;
  return { src, match, ...(asset ? { asset } : {}) };
}

function link(from: string, url: string, pages: ReadonlySet<string>): SourceLink | undefined {
  if (SCHEME.test(url) || url.startsWith('//') || url.startsWith('/') || assetOf(from, url)) return undefined;
  const anchor = url.includes('#') ? decode(url.slice(url.indexOf('#') + 1)) : '';
  const target = resolveTarget(from, url, pages);
  const bare = url.split('#')[0]!;
  if (!target && !/\.md$/i.test(bare)) return undefined; // not a page link: some other relative file
  return { url, target, anchor, brokenInSource: !target };
}

const attributeValues = (html: string, tag: string, attribute: string) =>
  [...html.matchAll(new RegExp(`<${tag}\\b[^>]*?\\s${attribute}="([^"]*)"`, 'gi'))].map((match) =>
    // GitBook writes `&` in attributes as `&#x26;`; a browser reads the address decoded.
    match[1]!.replace(/&(?:#x26|#38|amp);/gi, '&'),
  );

/**
 * The image of a one-candidate srcset. GitBook writes file names with spaces
 * unencoded there (`x (1).svg`), so only a trailing `2x`/`100w` descriptor is cut.
 */
export function srcsetUrl(srcset: string): string {
  const trimmed = srcset.trim();
  const descriptor = /\s\d+(?:\.\d+)?[wx]$/.exec(trimmed);
  return descriptor ? trimmed.slice(0, descriptor.index).trimEnd() : trimmed;
}

/** Cover images of GitBook's cards tables: the cells of the `data-card-cover` column (not its dark twin). */
function cardCovers(html: string): string[] {
  if (!/data-view="cards"/.test(html)) return [];
  const document = htmlDocument(`<!doctype html><html><body>${html}</body></html>`);
  const covers: string[] = [];
  for (const table of document.querySelectorAll('table[data-view="cards"]')) {
    const headers = [...table.querySelectorAll('thead th')];
    const column = headers.findIndex((th) => th.hasAttribute('data-card-cover'));
    if (column < 0) continue;
    for (const row of table.querySelectorAll('tbody tr')) {
      const href = [...row.querySelectorAll('td')][column]?.querySelector('a')?.getAttribute('href');
      if (href) covers.push(href);
    }
  }
  return covers;
}

const within = (ranges: ReadonlyArray<readonly [number, number]>, offset: number) =>
  ranges.some(([start, end]) => offset >= start && offset < end);

/** Where `{% if %}` … `{% endif %}` blocks are in the markdown (outside code), outermost ones. */
function conditionalRanges(markdown: string, code: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const open: number[] = [];
  for (const match of markdown.matchAll(/\{%\s*(if|endif)\b[^%]*%\}/g)) {
    if (within(code, match.index)) continue;
    if (match[1] === 'if') open.push(match.index);
    else {
      const start = open.pop();
      if (start !== undefined && open.length === 0) ranges.push([start, match.index + match[0].length]);
    }
  }
  return ranges;
}

function walk(node: Nodes, visit: (node: Nodes, parent: Nodes | undefined) => void, parent?: Nodes): void {
  visit(node, parent);
  if ('children' in node) for (const child of node.children) walk(child, visit, node);
}

/** Prose shorter than this is not looked for: a word or two may fairly be rendered otherwise. */
const MIN_TEXT = 12;

/** Emoji and icon shortcodes (`:arrow-down:`), which a reader may show as the emoji or icon. */
const SHORTCODES = /^(?::[\w+-]+:\s*)+$/;

/** Text as it is compared: whitespace collapsed, as a browser shows it. */
export const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Parents whose HTML children are blocks; inside a paragraph, heading or cell HTML is inline. */
const BLOCK_PARENTS = new Set(['root', 'listItem', 'blockquote', 'footnoteDefinition']);

/** The markdown without its code, where a tag or a figure is only shown, not used. */
function withoutCode(markdown: string, ranges: Array<[number, number]>): string {
  let kept = '';
  let from = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < from) continue;
    kept += markdown.slice(from, start);
    from = end;
  }
  return kept + markdown.slice(from);
}

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

function richness(prose: string): PageSource['richness'] {
  return {
    figures: count(prose, /<figure>/g),
    steppers: count(prose, /\{% stepper %\}/g),
    cards: count(prose, /data-view="cards"/g),
    tabs: count(prose, /\{% tabs %\}/g),
  };
}

/** Reads one page's markdown; `pages` holds every page's git path, to know what a relative link names. */
export function readPageSource(gitPath: string, markdown: string, pages: ReadonlySet<string>): PageSource {
  const tree: Root = fromMarkdown(markdown, {
    extensions: [gfm(), frontmatter(['yaml'])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
  });
  const source: PageSource = {
    gitPath,
    frontmatter: splitFrontmatter(markdown).data,
    body: comparableBody(markdown),
    images: [],
    links: [],
    assets: new Set(),
    keptAsWritten: new Set(),
    htmlBlocks: 0,
    codeStartingWithTag: [],
    texts: [],
    richness: { figures: 0, steppers: 0, cards: 0, tabs: 0 },
    anchorTargets: new Set(),
  };
  const addLink = (url: string) => {
    const found = link(gitPath, url, pages);
    const asset = assetOf(gitPath, url);
    if (found) source.links.push(found);
    const relative = !SCHEME.test(url) && !url.startsWith('//') && !url.startsWith('#');
    if (relative && !found && !asset) source.keptAsWritten.add(url);
    if (asset) source.assets.add(asset);
  };
  const addImage = (src: string, dark = false) => {
    const found = { ...image(gitPath, src), ...(dark ? { dark } : {}) };
    source.images.push(found);
    if (found.asset) source.assets.add(found.asset);
  };
  // Prose in a block that holds a tag, an expression or a formula is not looked for as written: it is shown otherwise.
  const rendered = new Set<Nodes>();
  const codeRanges: Array<[number, number]> = [];
  walk(tree, (node) => {
    if ((node.type === 'code' || node.type === 'inlineCode') && node.position) {
      codeRanges.push([node.position.start.offset ?? 0, node.position.end.offset ?? 0]);
    }
  });
  const conditional = conditionalRanges(markdown, codeRanges);
  walk(tree, (node, parent) => {
    if (node.type === 'heading') source.anchorTargets.add(looseAnchor(toString(node, { includeHtml: false })));
    const start = node.position?.start.offset;
    // Content shown only to visitors whose claims meet a condition is not shown to the measurement's anonymous reader.
    if (start !== undefined && within(conditional, start)) return;
    if ((parent && rendered.has(parent)) || (node.type === 'paragraph' && /\{[%{]|\$\$/.test(toString(node)))) {
      rendered.add(node);
    }
    if (node.type === 'image') addImage(node.url);
    else if (node.type === 'link' || node.type === 'definition') addLink(node.url);
    else if (node.type === 'code') {
      if (node.value.trimStart().startsWith('<')) source.codeStartingWithTag.push(collapsed(node.value));
    } else if (node.type === 'html') {
      const html = node.value;
      if (parent && BLOCK_PARENTS.has(parent.type) && !/^<!--|^<\/?(details|summary)\b/i.test(html.trim()))
        source.htmlBlocks++;
      for (const src of attributeValues(html, 'img', 'src')) addImage(src);
      for (const srcset of attributeValues(html, 'source', 'srcset')) addImage(srcsetUrl(srcset), true);
      const covers = new Set(cardCovers(html));
      for (const cover of covers) addImage(cover);
      for (const href of attributeValues(html, 'a', 'href')) if (!covers.has(href)) addLink(href);
      for (const id of attributeValues(html, '[a-z0-9]+', 'id')) source.anchorTargets.add(looseAnchor(id));
      if (/<summary\b/i.test(html)) {
        const summaries = htmlDocument(`<!doctype html><html><body>${html}</body></html>`).querySelectorAll('summary');
        for (const summary of summaries) source.anchorTargets.add(looseAnchor(summary.textContent ?? ''));
      }
    } else if (node.type === 'text') {
      const text = collapsed(node.value);
      if (text.length >= MIN_TEXT && !rendered.has(node) && !SHORTCODES.test(text)) source.texts.push(text);
      // GitBook's block tags name files too: {% file src="…" %}, {% content-ref url="…" %} (whose link follows it).
      for (const match of node.value.matchAll(/\{%\s*file\s+src="([^"]*)"/g)) addLink(match[1]!);
    }
  });
  source.richness = richness(withoutCode(markdown, codeRanges));
  const cover = source.frontmatter.cover;
  if (typeof cover === 'string') {
    const asset = assetOf(gitPath, cover);
    if (asset) source.assets.add(asset);
  }
  return source;
}

/**
 * An anchor or a title reduced to its letters and digits, GitBook's `id-`
 * prefix of a heading that starts with a digit cut: whatever rule makes ids
 * from titles, an anchor that matches no title even so names none.
 */
function looseAnchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/^id-(?=\d)/, '')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Marks the anchored links whose anchor names nothing on their target page
 * in the source (a heading renamed or removed since the link was written):
 * they are broken on GitBook's own site too, so a reader is not judged by them.
 */
export function markAnchorsBrokenInSource(sources: ReadonlyMap<string, PageSource>): void {
  for (const source of sources.values()) {
    for (const link of source.links) {
      if (!link.anchor || !link.target || link.brokenInSource) continue;
      const target = sources.get(link.target);
      if (target && !target.anchorTargets.has(looseAnchor(link.anchor))) link.brokenInSource = true;
    }
  }
}
