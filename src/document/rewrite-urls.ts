import { attributeUrls } from './attribute-urls.js';
import { parseMarkdownWithDestinations, type SourceRange } from './markdown-tree.js';

/** Where a URL is written: a markdown destination, or a double-quoted attribute (attribute-urls.ts). */
export type UrlKind = 'link' | 'image' | 'definition' | 'attribute';
export type UrlRewrite = (url: string, kind: UrlKind) => string | undefined;

/** Where one link, image or definition wrote its destination, and the URL it reads as. */
export interface UrlDestination extends SourceRange {
  url: string;
  kind: UrlKind;
}

/**
 * The destinations of the markdown's inline links, images and link
 * definitions, and the URLs of its HTML and content-ref attributes, in
 * document order. Autolinks (`<https://…>`, bare `www.…`) have no
 * destination to replace; reference links follow their definition.
 */
export function urlDestinations(markdown: string): UrlDestination[] {
  // A destination follows `](` (links, images) or `]:` (definitions) at once, an attribute's URL `="`.
  if (!markdown.includes('](') && !markdown.includes(']:') && !markdown.includes('="')) return [];
  const { tree, destinations } = parseMarkdownWithDestinations(markdown);
  const found: UrlDestination[] = [...destinations].map(([node, range]) => ({
    url: node.url,
    kind: node.type,
    start: range.start,
    end: range.end,
  }));
  if (markdown.includes('="'))
    for (const attribute of attributeUrls(markdown, tree)) found.push({ ...attribute, kind: 'attribute' });
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The markdown with the given destinations replaced where `rewrite` returns a
 * URL; every other byte stays as written. Needs no parse: the destinations
 * were found by `urlDestinations` on this same text.
 */
export function spliceUrls(markdown: string, destinations: readonly UrlDestination[], rewrite: UrlRewrite): string {
  return spliceUrlsKeeping(markdown, destinations, rewrite).markdown;
}

/**
 * `spliceUrls`, and the destinations it left as written, at their place in
 * the new markdown: what a later splice of the stored text needs, without a parse.
 */
export function spliceUrlsKeeping(
  markdown: string,
  destinations: readonly UrlDestination[],
  rewrite: UrlRewrite,
): { markdown: string; kept: UrlDestination[] } {
  const parts: string[] = [];
  const kept: UrlDestination[] = [];
  let copied = 0;
  let shift = 0;
  // In text order, each piece is copied once; destinations never overlap.
  for (const destination of [...destinations].sort((a, b) => a.start - b.start)) {
    const replacement = rewrite(destination.url, destination.kind);
    const text =
      replacement === undefined
        ? undefined
        : destination.kind === 'attribute'
          ? attributeValue(replacement)
          : formatDestination(replacement);
    if (text === undefined) {
      kept.push({ ...destination, start: destination.start + shift, end: destination.end + shift });
      continue;
    }
    parts.push(markdown.slice(copied, destination.start), text);
    copied = destination.end;
    shift += text.length - (destination.end - destination.start);
  }
  if (parts.length === 0) return { markdown, kept };
  parts.push(markdown.slice(copied));
  return { markdown: parts.join(''), kept };
}

/** The markdown with its destinations replaced where `rewrite` returns a URL: `spliceUrls` over `urlDestinations`. */
export function rewriteUrls(markdown: string, rewrite: UrlRewrite): string {
  return spliceUrls(markdown, urlDestinations(markdown), rewrite);
}

/** A URL as a double-quoted attribute holds it, written as is; none for one that would end or break the attribute. */
export function attributeValue(url: string): string | undefined {
  return /["<>\n]/.test(url) ? undefined : url;
}

const ESCAPED = new Set(['\\', '&', '<', '>', '(', ')']);

/**
 * A destination that reads back as exactly `url`: backslash-escaped where
 * markdown would interpret a character, and in `<…>` when it has spaces.
 */
export function formatDestination(url: string): string {
  let escaped = '';
  let needsBrackets = url === '';
  for (const char of url) {
    if (char === '\n' || char === '\r') {
      // No destination form holds a line break; a URL carries it encoded anyway.
      escaped += encodeURIComponent(char);
      continue;
    }
    if (char <= ' ' || char === '\u007f') needsBrackets = true;
    escaped += ESCAPED.has(char) ? `\\${char}` : char;
  }
  return needsBrackets ? `<${escaped}>` : escaped;
}
