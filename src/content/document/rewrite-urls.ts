import { parseMarkdownWithDestinations, type SourceRange } from './markdown-tree.js';

export type UrlKind = 'link' | 'image' | 'definition';
export type UrlRewrite = (url: string, kind: UrlKind) => string | undefined;

/**
 * The markdown with the destinations of inline links, images and link
 * definitions replaced where `rewrite` returns a URL; every other byte stays as
 * written. Autolinks (`<https://…>`, bare `www.…`) have no destination to
 * replace and are left alone; reference links follow their definition.
 */
export function rewriteUrls(markdown: string, rewrite: UrlRewrite): string {
  // A destination follows `](` (links, images) or `]:` (definitions) at once; without either there is none.
  if (!markdown.includes('](') && !markdown.includes(']:')) return markdown;
  const { destinations } = parseMarkdownWithDestinations(markdown);
  const edits: Array<SourceRange & { text: string }> = [];
  for (const [node, range] of destinations) {
    const replacement = rewrite(node.url, node.type);
    if (replacement !== undefined) edits.push({ ...range, text: formatDestination(replacement) });
  }
  // Splice from the end so earlier offsets stay valid; destinations never overlap.
  edits.sort((a, b) => b.start - a.start);
  let out = markdown;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
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
