import { franc } from 'franc-min';
import type { Definition, Nodes, Root } from 'mdast';
import { HeadingIds } from '../core/heading-anchors.js';
import { contentRefUrls, htmlUrls } from './attribute-urls.js';
import { tagOf } from './block-tags.js';
import { summaryPhrasing } from './expandable.js';
import { explicitHeadingId } from './heading-ids.js';
import { imageRefFromUrl, refFromUrl } from './links.js';
import { plainText, visitTree } from './markdown-tree.js';

/**
 * One section of a page: the text from one top-level heading to the next
 * (the first one, before any heading, has no anchor and no title).
 */
export interface OutlineSection {
  anchor: string | null;
  title: string;
  text: string;
  /** The ids of the expandables in the section, which GitBook's links target as they do headings; absent when none. */
  expandables?: string[];
}

/** Where a link or image of the page points, as stored: canonical ids for content, the URL for anything else. */
export type StoredLink = (
  | { kind: 'page'; page: string }
  | { kind: 'anchor'; page?: string; anchor: string }
  | { kind: 'file'; file: string }
  | { kind: 'url'; url: string }
) & {
  /** A link refers to its target; an image shows it, so the page depends on it. */
  relation: 'reference' | 'dependsOn';
};

/** What search and link checks read of a document, taken from the parse that made it. */
export interface DocumentFacts {
  outline: OutlineSection[];
  links: StoredLink[];
  /** The text search configuration of the document's language. */
  language: string;
}

/** The stemmed configurations the database has (see the search migration), by ISO 639-3 code. */
const CONFIGURATIONS: Readonly<Record<string, string>> = {
  dan: 'quire_danish',
  nld: 'quire_dutch',
  eng: 'quire_english',
  fin: 'quire_finnish',
  fra: 'quire_french',
  deu: 'quire_german',
  hun: 'quire_hungarian',
  ita: 'quire_italian',
  nob: 'quire_norwegian',
  por: 'quire_portuguese',
  ron: 'quire_romanian',
  rus: 'quire_russian',
  spa: 'quire_spanish',
  swe: 'quire_swedish',
  tur: 'quire_turkish',
};
export const SIMPLE_CONFIGURATION = 'quire_simple';
export const SEARCH_CONFIGURATIONS: readonly string[] = [...Object.values(CONFIGURATIONS), SIMPLE_CONFIGURATION];

/** Enough text to tell a language by; more only costs time. */
const LANGUAGE_SAMPLE = 4000;
/** A section's text beyond this is not indexed (a tsvector holds at most 1 MiB). */
const MAX_SECTION_TEXT = 200_000;

/** The configuration for a text's language; the simple one where none fits or the text is too short to tell. */
export function searchConfigurationOf(text: string): string {
  return CONFIGURATIONS[franc(text.slice(0, LANGUAGE_SAMPLE), { minLength: 24 })] ?? SIMPLE_CONFIGURATION;
}

/**
 * What a block tag shows a reader: a tab's title, an expandable's summary, a
 * file's caption, nothing for other tags; null for a block that is no tag.
 * The tree is read with its tags isolated (`markdownTree`).
 */
function tagText(node: Nodes): string | null {
  const tag = node.type === 'paragraph' || node.type === 'html' ? tagOf(node) : null;
  switch (tag?.kind) {
    case undefined:
      return null;
    case 'tab':
      return tag.title;
    case 'summary':
      return plainText({ type: 'paragraph', children: summaryPhrasing(tag.markdown) });
    case 'file':
      return tag.caption ?? '';
    default:
      return '';
  }
}

/** The text a block shows a reader, code included, one line per paragraph. */
function blockText(node: Nodes): string {
  const parts: string[] = [];
  visitTree(node, (child) => {
    const shown = tagText(child);
    if (shown !== null) {
      parts.push(' ', shown, ' ');
      return false;
    }
    if (child.type === 'text' || child.type === 'inlineCode' || child.type === 'code') parts.push(child.value);
    else if (child.type === 'break' || child.type === 'paragraph' || child.type === 'tableCell') parts.push(' ');
  });
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function outlineOf(tree: Root): OutlineSection[] {
  // The ids the reader gives the headings (html/document-html.ts): what links to an anchor must name.
  const ids = new HeadingIds();
  // Apart from the headings' ids, so that an expandable changes no heading's.
  const expandableIds = new HeadingIds();
  const sections: Array<{ anchor: string | null; title: string; parts: string[]; expandables?: string[] }> = [
    { anchor: null, title: '', parts: [] },
  ];
  for (const node of tree.children) {
    const tag = node.type === 'paragraph' || node.type === 'html' ? tagOf(node) : null;
    if (tag?.kind === 'summary') {
      const title = plainText({ type: 'paragraph', children: summaryPhrasing(tag.markdown) })
        .replace(/\s+/g, ' ')
        .trim();
      (sections.at(-1)!.expandables ??= []).push(expandableIds.next(title).id);
    }
    if (node.type === 'heading') {
      const explicit = explicitHeadingId(node.children);
      const title = plainText(explicit ? { ...node, children: explicit.children } : node)
        .replace(/\s+/g, ' ')
        .trim();
      sections.push({ anchor: ids.next(title, explicit?.id).id, title, parts: [] });
    } else if (node.type !== 'yaml' && node.type !== 'definition') {
      // Of HTML, only an expandable's summary is text a reader sees.
      const text = blockText(node);
      if (text) sections.at(-1)!.parts.push(text);
    }
  }
  return sections
    .filter((section) => section.anchor !== null || section.parts.length > 0)
    .map(({ anchor, title, parts, expandables }) => ({
      anchor,
      title,
      text: parts.join('\n').slice(0, MAX_SECTION_TEXT),
      ...(expandables ? { expandables } : {}),
    }));
}

function storedLink(url: string, relation: StoredLink['relation']): StoredLink | undefined {
  if (url === '') return undefined;
  const ref = relation === 'dependsOn' ? imageRefFromUrl(url) : refFromUrl(url);
  switch (ref.kind) {
    case 'page':
      return { kind: 'page', page: ref.page, relation };
    case 'anchor':
      return { kind: 'anchor', ...(ref.page ? { page: ref.page } : {}), anchor: ref.anchor, relation };
    case 'file':
      return { kind: 'file', file: ref.file, relation };
    default:
      return { kind: 'url', url: ref.url, relation };
  }
}

/** Every target the page's links and images point at, once per target and relation, in order of first use. */
function linksOf(tree: Root): StoredLink[] {
  const definitions = new Map<string, Definition>();
  visitTree(tree, (node) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
  });
  const found = new Map<string, StoredLink>();
  const add = (url: string, relation: StoredLink['relation']) => {
    const link = storedLink(url, relation);
    if (link) found.set(JSON.stringify(link), link);
  };
  visitTree(tree, (node) => {
    let url: string | undefined;
    let relation: StoredLink['relation'] = 'reference';
    const tag = node.type === 'paragraph' ? tagOf(node) : null;
    // GitBook's HTML blocks (cards, figures) link by `href` and show files by `src`, as links and images do.
    if (node.type === 'html')
      for (const html of htmlUrls(node.value)) add(html.url, html.shows ? 'dependsOn' : 'reference');
    // A file block shows its file, as an image does; a URL it names is a link; a content-ref links to its URL.
    if (tag?.kind === 'file')
      [url, relation] = [tag.src, imageRefFromUrl(tag.src).kind === 'file' ? 'dependsOn' : 'reference'];
    else if (tag) {
      for (const text of node.type === 'paragraph' ? node.children : [])
        if (text.type === 'text') for (const ref of contentRefUrls(text.value)) add(ref.url, 'reference');
      return false;
    } else if (node.type === 'link') url = node.url;
    else if (node.type === 'image') [url, relation] = [node.url, 'dependsOn'];
    else if (node.type === 'linkReference') url = definitions.get(node.identifier)?.url;
    else if (node.type === 'imageReference') [url, relation] = [definitions.get(node.identifier)?.url, 'dependsOn'];
    if (url !== undefined) add(url, relation);
    return !tag;
  });
  return [...found.values()];
}

/** The outline, links and language of a page's tree as `markdownTree` gives it. */
export function documentFacts(tree: Root): DocumentFacts {
  const outline = outlineOf(tree);
  const sample = outline
    .map((section) => `${section.title} ${section.text}`)
    .join(' ')
    .slice(0, LANGUAGE_SAMPLE);
  return { outline, links: linksOf(tree), language: searchConfigurationOf(sample) };
}
