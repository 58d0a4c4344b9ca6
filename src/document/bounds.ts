import { BadRequestError } from '../core/errors.js';

/**
 * The markdown parser's cost grows faster than the text in a few shapes:
 * containers nested on one line (`1. 1. 1. …`, `> > > …`), many separate
 * quotes and lists (each one closed re-splices the whole event list), and
 * long runs of emphasis delimiters in one paragraph. These limits keep every
 * text that passes them within a fraction of a second of parsing; what is
 * still slow past them is ended by the conversion deadline.
 */
export const MARKDOWN_LIMITS = {
  /** Quotes and list markers (and every four columns of indentation before them) opening one line. */
  depth: 32,
  /** Quote and list blocks in one text: a new quote, a list after other text, a list nested in an item. */
  containerBlocks: 2_000,
  /** Runs of `*`, `_` and `~` in one paragraph (a table row, a heading and a list item each start a new one). */
  delimiterRuns: 2_000,
} as const;

/** A JSON document's objects and arrays nested inside each other (a block in a block is two), and its objects in all. */
export const DOCUMENT_LIMITS = { depth: 128, nodes: 200_000 } as const;

const SPACE = 0x20;
const TAB = 0x09;
const GT = 0x3e;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isDelimiter(code: number): boolean {
  return code === 0x2a || code === 0x5f || code === 0x7e; // * _ ~
}

function isBlankOrEnd(code: number): boolean {
  return Number.isNaN(code) || code === SPACE || code === TAB || code === NEWLINE || code === RETURN;
}

/** The container prefix of one line: the markers that open it, and the columns of white space among them. */
interface LinePrefix {
  /** `q` for a quote marker, `l` for a list marker, in order. */
  markers: string;
  columns: number;
  /** Where the line's content starts. */
  end: number;
}

function readPrefix(text: string, start: number, lineEnd: number): LinePrefix {
  let markers = '';
  let columns = 0;
  let at = start;
  // The one space or tab after a marker belongs to it; it is not indentation.
  const afterMarker = (next: number) => {
    const code = text.charCodeAt(next);
    return code === SPACE || code === TAB ? next + 1 : next;
  };
  while (at < lineEnd) {
    const code = text.charCodeAt(at);
    if (code === SPACE) {
      columns += 1;
      at += 1;
    } else if (code === TAB) {
      columns += 4;
      at += 1;
    } else if (code === GT) {
      markers += 'q';
      at = afterMarker(at + 1);
    } else if ((code === 0x2d || code === 0x2a || code === 0x2b) && isBlankOrEnd(text.charCodeAt(at + 1))) {
      markers += 'l'; // - * +
      at = afterMarker(at + 1);
    } else if (isDigit(code)) {
      let digits = at;
      while (digits < lineEnd && digits - at < 9 && isDigit(text.charCodeAt(digits))) digits += 1;
      const mark = text.charCodeAt(digits);
      if ((mark !== 0x2e && mark !== 0x29) || !isBlankOrEnd(text.charCodeAt(digits + 1))) break; // . )
      markers += 'l';
      at = afterMarker(digits + 1);
    } else {
      break;
    }
  }
  return { markers, columns, end: at };
}

/** `- - -`, `* * *`, `___`: a thematic break, whose markers open nothing. */
function isThematicBreak(text: string, start: number, lineEnd: number): boolean {
  let mark = 0;
  let count = 0;
  for (let at = start; at < lineEnd; at += 1) {
    const code = text.charCodeAt(at);
    if (code === SPACE || code === TAB) continue;
    if (code !== 0x2d && code !== 0x2a && code !== 0x5f) return false;
    if (mark !== 0 && code !== mark) return false;
    mark = code;
    count += 1;
  }
  return count >= 3;
}

/** A fence (three or more backticks or tildes) opening the line's content, or null. */
function fenceAt(text: string, at: number, lineEnd: number): { mark: number; length: number } | null {
  const mark = text.charCodeAt(at);
  if (mark !== 0x60 && mark !== 0x7e) return null;
  let length = 0;
  while (at + length < lineEnd && text.charCodeAt(at + length) === mark) length += 1;
  return length >= 3 ? { mark, length } : null;
}

function tooComplex(field: string, what: string): never {
  throw new BadRequestError(`${field} ${what}; simplify it or split it into several pages`);
}

/**
 * Refuses, in one pass over the text and before any parser sees it, markdown
 * whose shape would make parsing slow: containers nested too deep, too many
 * quote and list blocks, too many emphasis delimiters in one paragraph.
 * `field` names the input in the message.
 */
export function checkMarkdownBounds(markdown: string, field: string): void {
  let containerBlocks = 0;
  let delimiterRuns = 0;
  let previousMarkers = '';
  let previousColumns = -1;
  let afterBlank = true;
  let fence: { mark: number; length: number } | null = null;

  let lineStart = 0;
  while (lineStart <= markdown.length) {
    let lineEnd = markdown.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = markdown.length;
    const prefix = readPrefix(markdown, lineStart, lineEnd);
    const blank = prefix.end === lineEnd || (prefix.end === lineEnd - 1 && markdown.charCodeAt(prefix.end) === RETURN);

    const fenceHere = fenceAt(markdown, prefix.end, lineEnd);
    if (fence) {
      // Inside fenced code nothing is markdown; the fence ends at a run of its mark as long.
      if (fenceHere && fenceHere.mark === fence.mark && fenceHere.length >= fence.length) fence = null;
    } else if (blank && prefix.markers === '') {
      afterBlank = true;
      delimiterRuns = 0;
    } else {
      const breakLine = prefix.markers !== '' && isThematicBreak(markdown, lineStart, lineEnd);
      const markers = breakLine ? '' : prefix.markers;
      // White space nests only where a marker follows it; indented code opens nothing.
      const depth = markers === '' ? 0 : markers.length + Math.floor(prefix.columns / 4);
      if (depth > MARKDOWN_LIMITS.depth) {
        tooComplex(
          field,
          `nests too deeply: quotes and lists ${depth} deep on one line (at most ${MARKDOWN_LIMITS.depth})`,
        );
      }
      if (markers !== '') {
        // A line like the one before continues its list (a new item) or, without a blank line between, its quote.
        const sameBlocks =
          markers === previousMarkers && prefix.columns === previousColumns && (markers.endsWith('l') || !afterBlank);
        if (!sameBlocks) containerBlocks += markers.length;
        if (containerBlocks > MARKDOWN_LIMITS.containerBlocks) {
          tooComplex(field, `has more than ${MARKDOWN_LIMITS.containerBlocks} quote and list blocks`);
        }
        previousMarkers = markers;
        previousColumns = prefix.columns;
      } else if (prefix.columns < 2) {
        previousMarkers = '';
        previousColumns = -1;
      }
      // A list item, a table row and a heading each start inline content of their own.
      const code = markdown.charCodeAt(prefix.end);
      if (markers !== '' || code === 0x23 || code === 0x7c) delimiterRuns = 0; // # |
      delimiterRuns += countDelimiterRuns(markdown, prefix.end, lineEnd);
      if (delimiterRuns > MARKDOWN_LIMITS.delimiterRuns) {
        tooComplex(
          field,
          `has more than ${MARKDOWN_LIMITS.delimiterRuns} emphasis delimiters (*, _, ~) in one paragraph`,
        );
      }
      // Only a fence at the top level runs to its closing fence whatever follows; one in a container ends with it.
      if (fenceHere && prefix.markers === '' && prefix.columns < 4) fence = fenceHere;
      afterBlank = false;
    }
    lineStart = lineEnd + 1;
  }
}

function countDelimiterRuns(text: string, start: number, end: number): number {
  let runs = 0;
  let previous = 0;
  for (let at = start; at < end; at += 1) {
    const code = text.charCodeAt(at);
    if (isDelimiter(code) && code !== previous) runs += 1;
    previous = code;
  }
  return runs;
}

/**
 * Refuses a JSON document nested deeper or larger than any page, before it
 * is turned into markdown; walked with a stack, so depth costs no recursion.
 * Returns how many objects and arrays it holds.
 */
export function checkDocumentBounds(document: unknown, field: string): number {
  const pending: Array<{ value: unknown; depth: number }> = [{ value: document, depth: 0 }];
  let nodes = 0;
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    nodes += 1;
    if (nodes > DOCUMENT_LIMITS.nodes) tooComplex(field, `has more than ${DOCUMENT_LIMITS.nodes} nodes`);
    if (depth > DOCUMENT_LIMITS.depth)
      tooComplex(field, `nests too deeply: more than ${DOCUMENT_LIMITS.depth} levels of objects and arrays`);
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: depth + 1 });
    }
  }
  return nodes;
}
