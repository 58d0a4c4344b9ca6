import { append } from './build.js';

/**
 * Expandables in markdown: `<details>`, `<summary>Title</summary>`, the body,
 * `</details>`. GitBook writes each tag as its own block, with blank lines
 * between; others write them with no blank line, and then the tags and
 * whatever markdown follows them until a blank line are one HTML block to the
 * parser. Those blocks are read here as tags and the markdown between them.
 */

export const OPEN_DETAILS = '<details>';
export const CLOSE_DETAILS = '</details>';

export function summaryTag(markdown: string): string {
  return `<summary>${markdown}</summary>`;
}

/** `<details>`, `</details>`, or `<summary>…</summary>` with the markdown between the two. */
export type DetailsTag = { kind: 'details' } | { kind: 'close'; of: 'details' } | { kind: 'summary'; markdown: string };

/** Part of an HTML block: a tag as written, or markdown between tags. */
export type DetailsPiece = { tag: DetailsTag; raw: string } | { markdown: string };

/** Letters A–Z lowercased, every other character kept: offsets stay those of the text. */
function asciiLowercase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function isBlank(code: string | undefined): boolean {
  return code === ' ' || code === '\t' || code === '\r';
}

function skipBlanks(text: string, at: number): number {
  while (isBlank(text[at])) at += 1;
  return at;
}

/** Where the `>` ending a tag opened before `at` is, on the same line, or -1. */
function tagEnd(text: string, at: number): number {
  for (let i = at; i < text.length && text[i] !== '\n'; i += 1) if (text[i] === '>') return i;
  return -1;
}

/** Whether the character at `at` follows an odd run of backslashes. Runs before different tags never overlap. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text[at - 1 - backslashes] === '\\') backslashes += 1;
  return backslashes % 2 === 1;
}

/**
 * Finds `</summary>` closes in order. Each search starts past the last one
 * found, so reading a block costs one pass, however many summaries never close.
 */
function summaryCloses(lower: string): (from: number) => { start: number; end: number } | null {
  let found: { start: number; end: number } | null = null;
  let searchedTo = 0;
  return (from) => {
    if (found && found.start >= from) return found;
    let at = Math.max(from, searchedTo);
    found = null;
    for (;;) {
      const start = lower.indexOf('</summary', at);
      if (start === -1) {
        searchedTo = lower.length;
        return null;
      }
      const gt = skipBlanks(lower, start + '</summary'.length);
      // `\</summary>` is text that was escaped when the title was written; `\\</summary>` is a backslash before the tag.
      if (lower[gt] === '>' && !isEscaped(lower, start)) {
        searchedTo = gt + 1;
        found = { start, end: gt + 1 };
        return found;
      }
      at = start + 1;
    }
  };
}

function opensElement(lower: string, at: number, name: string): boolean {
  const next = lower[at + name.length + 1];
  return lower.startsWith(`<${name}`, at) && (next === '>' || isBlank(next) || next === '\n');
}

/** The tag starting at `at`, and where it ends. */
function tagAt(
  text: string,
  lower: string,
  at: number,
  closes: ReturnType<typeof summaryCloses>,
): { tag: DetailsTag; end: number } | null {
  if (lower.startsWith('</details', at)) {
    const gt = skipBlanks(lower, at + '</details'.length);
    return lower[gt] === '>' ? { tag: { kind: 'close', of: 'details' }, end: gt + 1 } : null;
  }
  // Attributes (`open`, a class) are allowed and dropped.
  const gt = tagEnd(text, at);
  if (gt === -1) return null;
  if (opensElement(lower, at, 'details')) return { tag: { kind: 'details' }, end: gt + 1 };
  if (!opensElement(lower, at, 'summary')) return null;
  const close = closes(gt + 1);
  return close ? { tag: { kind: 'summary', markdown: text.slice(gt + 1, close.start) }, end: close.end } : null;
}

/**
 * An HTML block as its `<details>`, `</details>` and `<summary>…</summary>`
 * tags, each starting a line (after other tags of the line), and the markdown
 * between them; null when no line starts with one. One pass over the text.
 */
export function readDetailsTags(html: string): DetailsPiece[] | null {
  if (!/<\/?(?:details|summary)/i.test(html)) return null;
  const lower = asciiLowercase(html);
  const closes = summaryCloses(lower);
  const pieces: DetailsPiece[] = [];
  let found = false;
  let markdownStart = -1;
  const flush = (end: number) => {
    const markdown = markdownStart === -1 ? '' : html.slice(markdownStart, end);
    if (markdown.trim() !== '') pieces.push({ markdown });
    markdownStart = -1;
  };
  let line = 0;
  while (line < html.length) {
    let at = skipBlanks(html, line);
    const tags: DetailsPiece[] = [];
    for (let read = html[at] === '<' ? tagAt(html, lower, at, closes) : null; read;) {
      tags.push({ tag: read.tag, raw: html.slice(at, read.end) });
      at = skipBlanks(html, read.end);
      read = html[at] === '<' ? tagAt(html, lower, at, closes) : null;
    }
    // A summary may span lines: the line read last is the one `at` is on.
    let lineEnd = html.indexOf('\n', tags.length > 0 ? at : line);
    if (lineEnd === -1) lineEnd = html.length;
    if (tags.length === 0) {
      if (markdownStart === -1) markdownStart = line;
    } else {
      flush(line);
      found = true;
      append(pieces, tags);
      if (at < lineEnd) markdownStart = at;
    }
    line = lineEnd + 1;
  }
  flush(html.length);
  return found ? pieces : null;
}

/** The one tag an HTML block is, or null. */
export function detailsTagOf(html: string): DetailsTag | null {
  const pieces = readDetailsTags(html);
  const only = pieces?.length === 1 ? pieces[0]! : undefined;
  return only && 'tag' in only ? only.tag : null;
}
