import type { Root } from 'mdast';
import { visitTree, type SourceRange } from './markdown-tree.js';

/** A URL written in double quotes: an HTML `href` or `src`, or a GitBook `{% content-ref url="…" %}`. */
export interface AttributeUrl extends SourceRange {
  url: string;
}

/** A URL found in a text, where its value starts, and whether it shows a file (`src`) or links (`href`, `url`). */
interface QuotedUrl {
  url: string;
  at: number;
  shows: boolean;
}

/**
 * Attribute values within a bound no real URL comes near: an unclosed quote
 * then costs one bounded look ahead, so a scan stays linear in the text.
 */
const HTML_URL = /\s(href|src)="([^"<>\n]{1,2048})"/g;
const CONTENT_REF_URL = /\{%\s*content-ref\s+(url)="([^"\n]{1,2048})"/g;

function quotedUrls(text: string, pattern: RegExp): QuotedUrl[] {
  return [...text.matchAll(pattern)].map((match) => {
    const url = match[2]!;
    return { url, at: match.index + match[0].length - url.length - 1, shows: match[1] === 'src' };
  });
}

/** The `href` and `src` URLs of a piece of HTML. */
export function htmlUrls(html: string): QuotedUrl[] {
  return quotedUrls(html, HTML_URL);
}

/** The `url` of the content-ref tags of a text. */
export function contentRefUrls(text: string): QuotedUrl[] {
  return quotedUrls(text, CONTENT_REF_URL);
}

/**
 * The URLs GitBook writes in attributes rather than as markdown destinations:
 * `<a href>` and `<img src>` of its HTML blocks (cards tables, figures) and
 * the `url` of a content-ref tag. Read from the parsed tree, so that code
 * blocks and inline code, which show such text without meaning it, are left
 * alone; a value is taken only where the source holds it verbatim, so that
 * splicing at its place replaces exactly it.
 */
export function attributeUrls(markdown: string, tree: Root): AttributeUrl[] {
  const found: AttributeUrl[] = [];
  visitTree(tree, (node) => {
    const offset = node.position?.start.offset;
    if (offset === undefined || (node.type !== 'html' && node.type !== 'text')) return;
    for (const { url, at } of node.type === 'html' ? htmlUrls(node.value) : contentRefUrls(node.value)) {
      const start = offset + at;
      if (markdown.slice(start, start + url.length) === url) found.push({ url, start, end: start + url.length });
    }
  });
  return found;
}
