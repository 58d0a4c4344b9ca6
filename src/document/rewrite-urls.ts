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
    if (replacement === undefined) {
      kept.push({ ...destination, start: destination.start + shift, end: destination.end + shift });
      continue;
    }
    const text = formatDestination(replacement);
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
