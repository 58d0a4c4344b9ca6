import { sameColors } from './color-marks.js';
import type {
  DocumentBlockParagraph,
  DocumentFormatMarkType,
  DocumentInlineContent,
  DocumentLeaf,
  DocumentMark,
  DocumentMarkColor,
  DocumentText,
} from './types.js';

/** `target.push(...items)` without the argument-count limit a huge list would hit. */
export function append<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** Marks in one fixed order, the colour last, so the same formatting always gives the same leaf. */
export const MARK_ORDER: readonly DocumentFormatMarkType[] = ['bold', 'italic', 'strikethrough', 'code'];

export function marksOf(
  types: Iterable<DocumentFormatMarkType>,
  color: DocumentMarkColor | null = null,
): DocumentMark[] {
  const present = new Set(types);
  const marks: DocumentMark[] = MARK_ORDER.filter((type) => present.has(type)).map((type) => ({
    object: 'mark',
    type,
  }));
  if (color) marks.push(color);
  return marks;
}

export function leaf(text: string, marks: DocumentMark[] = []): DocumentLeaf {
  return { object: 'leaf', text, marks };
}

export function textNode(leaves: DocumentLeaf[]): DocumentText {
  return { object: 'text', leaves: leaves.length > 0 ? leaves : [leaf('')] };
}

export function paragraph(nodes: DocumentInlineContent[]): DocumentBlockParagraph {
  return { object: 'block', type: 'paragraph', data: {}, nodes: normalizeInlines(nodes) };
}

function sameMark(a: DocumentMark, b: DocumentMark): boolean {
  return a.type === 'color' ? b.type === 'color' && sameColors(a.data, b.data) : a.type === b.type;
}

/** Leaves of one formatting, colours compared by value: two colours side by side stay two leaves. */
function sameMarks(a: DocumentLeaf, b: DocumentLeaf): boolean {
  return a.marks.length === b.marks.length && a.marks.every((mark, index) => sameMark(mark, b.marks[index]!));
}

/** Leaves with empty ones dropped and neighbours of the same marks joined. */
function mergeLeaves(leaves: DocumentLeaf[]): DocumentLeaf[] {
  const merged: DocumentLeaf[] = [];
  for (const next of leaves) {
    if (next.text === '') continue;
    const last = merged.at(-1);
    if (last && sameMarks(last, next)) merged[merged.length - 1] = leaf(last.text + next.text, last.marks);
    else merged.push(next);
  }
  return merged;
}

/**
 * Inline content in the shape GitBook's (Slate) editor keeps it: neighbouring
 * texts joined, and a text, empty if need be, before, between and after inlines.
 * One canonical shape is also what lets a document survive a round trip unchanged.
 */
export function normalizeInlines<T extends DocumentInlineContent>(nodes: T[]): Array<T | DocumentText> {
  const out: Array<T | DocumentText> = [];
  let pending: DocumentLeaf[] = [];
  for (const node of nodes) {
    if (node.object === 'text') {
      append(pending, node.leaves);
      continue;
    }
    out.push(textNode(mergeLeaves(pending)), node);
    pending = [];
  }
  out.push(textNode(mergeLeaves(pending)));
  return out;
}

/**
 * Content without line breaks at its end (a `<br>` closing a paragraph):
 * markdown cannot end a paragraph with a hard break, so they could not be written back.
 */
export function withoutTrailingLineBreaks<T extends DocumentInlineContent>(nodes: T[]): Array<T | DocumentText> {
  const last = nodes.at(-1);
  if (last?.object !== 'text') return nodes;
  const leaves = [...last.leaves];
  while (leaves.length > 0 && leaves.at(-1)!.text.endsWith('\n')) {
    const end = leaves.pop()!;
    const kept = end.text.replace(/(?<!\n)\n+$/, '');
    if (kept !== '') leaves.push(leaf(kept, end.marks));
  }
  return [...nodes.slice(0, -1), textNode(leaves)];
}

/** True when the content shows nothing: no inline nodes and no text. */
export function isEmptyInlineContent(nodes: DocumentInlineContent[]): boolean {
  return nodes.every((node) => node.object === 'text' && node.leaves.every((l) => l.text === ''));
}
