/**
 * Markdown links as Git Sync writes them: a SUMMARY.md item's
 * `[Title](destination "optional title")`, read by a scanner that passes
 * each character once (brackets may nest and be escaped, a destination may
 * be `<in angle brackets>` or bare with balanced parentheses), and the
 * destinations of the summary and the pages, written back.
 */

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/** The text with markdown's backslash escapes of punctuation taken out. */
export function unescapeMarkdown(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length && ASCII_PUNCTUATION.test(text[i + 1]!)) {
      out += text[i + 1];
      i++;
    } else {
      out += char;
    }
  }
  return out;
}

/** A title as SUMMARY.md's link text holds it: what would end or open a link escaped. */
export function escapeLinkText(title: string): string {
  return title.replace(/[\\[\]]/g, (char) => `\\${char}`);
}

/** A link destination as GitBook writes it: bare, or in angle brackets where it holds spaces or parentheses. */
export function formatLinkDestination(destination: string): string {
  if (destination !== '' && !/[\s<>()\\]/.test(destination)) return destination;
  return `<${destination.replace(/[\\<>]/g, (char) => `\\${char}`)}>`;
}

export interface ItemLink {
  title: string;
  destination: string;
}

/** The index just past the `]` closing the link text that opens at `start`, or -1. */
function endOfLinkText(text: string, start: number): number {
  let depth = 0;
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '[') depth++;
    else if (char === ']') {
      if (depth === 0) return i + 1;
      depth--;
    }
  }
  return -1;
}

/** The destination starting at `start` and the index past it, or undefined. */
function destinationAt(text: string, start: number): { raw: string; end: number } | undefined {
  if (text[start] === '<') {
    for (let i = start + 1; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '<' || text[i] === '\n') return undefined;
      else if (text[i] === '>') return { raw: text.slice(start + 1, i), end: i + 1 };
    }
    return undefined;
  }
  let depth = 0;
  let i = start;
  for (; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') i++;
    else if (/\s/.test(char)) break;
    else if (char === '(') depth++;
    else if (char === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return { raw: text.slice(start, i), end: i };
}

/** Past an optional link title (`"…"`, `'…'` or `(…)`) and the spaces around it, or -1 when one is opened and not closed. */
function pastLinkTitle(text: string, start: number): number {
  let i = start;
  while (text[i] === ' ' || text[i] === '\t') i++;
  const open = text[i];
  const close = open === '"' ? '"' : open === "'" ? "'" : open === '(' ? ')' : undefined;
  if (close === undefined || i === start) return i;
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === close) break;
  }
  if (i >= text.length) return -1;
  i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/** The item's link, when the text after the list marker is exactly one `[Title](destination)`. */
export function readItemLink(text: string): ItemLink | undefined {
  if (text[0] !== '[') return undefined;
  const textEnd = endOfLinkText(text, 0);
  if (textEnd === -1 || text[textEnd] !== '(') return undefined;
  let at = textEnd + 1;
  while (text[at] === ' ' || text[at] === '\t') at++;
  const destination = destinationAt(text, at);
  if (!destination) return undefined;
  at = pastLinkTitle(text, destination.end);
  if (at === -1 || text[at] !== ')' || text.slice(at + 1).trim() !== '') return undefined;
  return {
    title: unescapeMarkdown(text.slice(1, textEnd - 1)).trim(),
    destination: unescapeMarkdown(destination.raw),
  };
}
