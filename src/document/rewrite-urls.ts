import { parseMarkdownWithDestinations, type SourceRange } from './markdown-tree.js';

export type UrlKind = 'link' | 'image' | 'definition';
export type UrlRewrite = (url: string, kind: UrlKind) => string | undefined;

/** Where one link, image or definition wrote its destination, and the URL it reads as. */
export interface UrlDestination extends SourceRange {
  url: string;
  kind: UrlKind;
}

/**
 * The destinations of the markdown's inline links, images and link
 * definitions, in document order. Autolinks (`<https://…>`, bare `www.…`)
 * have no destination to replace; reference links follow their definition.
 */
export function urlDestinations(markdown: string): UrlDestination[] {
  // A destination follows `](` (links, images) or `]:` (definitions) at once; without either there is none.
  if (!markdown.includes('](') && !markdown.includes(']:')) return [];
  const { destinations } = parseMarkdownWithDestinations(markdown);
  return [...destinations].map(([node, range]) => ({
    url: node.url,
    kind: node.type,
    start: range.start,
    end: range.end,
  }));
}

/**
 * The markdown with the given destinations replaced where `rewrite` returns a
 * URL; every other byte stays as written. Needs no parse: the destinations
 * were found by `urlDestinations` on this same text.
 */
export function spliceUrls(markdown: string, destinations: readonly UrlDestination[], rewrite: UrlRewrite): string {
  const edits: Array<SourceRange & { text: string }> = [];
  for (const destination of destinations) {
    const replacement = rewrite(destination.url, destination.kind);
    if (replacement !== undefined)
      edits.push({ start: destination.start, end: destination.end, text: formatDestination(replacement) });
  }
  // Splice from the end so earlier offsets stay valid; destinations never overlap.
  edits.sort((a, b) => b.start - a.start);
  let out = markdown;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** The markdown with its destinations replaced where `rewrite` returns a URL: `spliceUrls` over `urlDestinations`. */
export function rewriteUrls(markdown: string, rewrite: UrlRewrite): string {
  return spliceUrls(markdown, urlDestinations(markdown), rewrite);
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
