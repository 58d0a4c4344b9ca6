import type { PhrasingContent } from 'mdast';
import { append, MARK_ORDER } from './build.js';
import {
  CLOSE_MARK_TAG,
  isCloseMarkTag,
  isOpenMarkTag,
  openMarkTag,
  readColorMark,
  sameColors,
  type ColorParts,
} from './color-marks.js';
import { buttonPhrasing, iconPhrasing, inlineImageHtml } from './inline-html-write.js';
import { urlFromRef } from './links.js';
import {
  asObject,
  asString,
  childObjects,
  fail,
  field,
  nodeType,
  optionalString,
  type At,
  type JsonObject,
} from './read-json.js';
import type { DocumentFormatMarkType } from './types.js';

interface Leaf {
  text: string;
  marks: Set<DocumentFormatMarkType>;
  color: ColorParts | null;
}

/** How a line break inside text is written: `\` + newline, or `<br>` where a newline would end the construct (table cells). */
export type LineBreak = 'break' | 'html';

const KNOWN_MARKS = new Set<string>(MARK_ORDER);

function readLeaves(text: JsonObject, at: At): Leaf[] {
  return childObjects(text, at, 'leaves').map(([leaf, leafAt]) => {
    const marks = new Set<DocumentFormatMarkType>();
    let color: ColorParts | null = null;
    for (const [mark, markAt] of childObjects(leaf, leafAt, 'marks', false)) {
      const type = asString(mark.type, field(markAt, 'type'));
      if (type === 'color') color = readColorMark(mark, markAt);
      // Keyboard keys, super- and subscript have no markdown form; their text stays.
      else if (KNOWN_MARKS.has(type)) marks.add(type as DocumentFormatMarkType);
    }
    return { text: asString(leaf.text, field(leafAt, 'text')), marks, color };
  });
}

function leafPhrasing(leaf: Leaf, lineBreak: LineBreak): PhrasingContent[] {
  return leaf.text.split('\n').flatMap((part, index): PhrasingContent[] => {
    const separator: PhrasingContent[] =
      index === 0 ? [] : [lineBreak === 'html' ? { type: 'html', value: '<br>' } : { type: 'break' }];
    if (part === '') return separator;
    return [...separator, leaf.marks.has('code') ? { type: 'inlineCode', value: part } : { type: 'text', value: part }];
  });
}

const WRAPPERS = [
  ['bold', 'strong'],
  ['italic', 'emphasis'],
  ['strikethrough', 'delete'],
] as const;
const WRAPPED_MARKS: readonly DocumentFormatMarkType[] = WRAPPERS.map(([mark]) => mark);

/** Whether the colour changes inside a run of one of `marks`: colouring first would split that run in two. */
function colorsCutRuns(leaves: Leaf[], marks: readonly DocumentFormatMarkType[]): boolean {
  for (let index = 1; index < leaves.length; index += 1) {
    const [before, after] = [leaves[index - 1]!, leaves[index]!];
    if (sameColors(before.color, after.color)) continue;
    if (marks.some((mark) => before.marks.has(mark) && after.marks.has(mark))) return true;
  }
  return false;
}

/**
 * Leaves as nested mdast: neighbours sharing a mark share one wrapper
 * (`**a _b_**`, not `**a**` `***b***`), bold outermost and code innermost.
 * A colour wraps its run, as GitBook writes it, at the outermost level where
 * it splits no run of formatting: `<mark style="color:red;">**a** b</mark>`,
 * but `**a <mark style="color:red;">b</mark>**`.
 */
function formattedPhrasing(leaves: Leaf[], lineBreak: LineBreak, level = 0, colored = false): PhrasingContent[] {
  if (!colored && !colorsCutRuns(leaves, WRAPPED_MARKS.slice(level))) {
    return coloredPhrasing(leaves, lineBreak, level);
  }
  const wrapper = WRAPPERS[level];
  if (!wrapper) return leaves.flatMap((leaf) => leafPhrasing(leaf, lineBreak));
  const [mark, type] = wrapper;
  const out: PhrasingContent[] = [];
  let index = 0;
  while (index < leaves.length) {
    const marked = leaves[index]!.marks.has(mark);
    let end = index;
    while (end < leaves.length && leaves[end]!.marks.has(mark) === marked) end += 1;
    const inner = formattedPhrasing(leaves.slice(index, end), lineBreak, level + 1, colored);
    if (marked) out.push({ type, children: inner });
    else append(out, inner);
    index = end;
  }
  return out;
}

/** Leaves in runs of one colour, each coloured run between `<mark>` tags (inline HTML), their formatting inside. */
function coloredPhrasing(leaves: Leaf[], lineBreak: LineBreak, level: number): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let index = 0;
  while (index < leaves.length) {
    const color = leaves[index]!.color;
    let end = index;
    while (end < leaves.length && sameColors(leaves[end]!.color, color)) end += 1;
    const inner = formattedPhrasing(leaves.slice(index, end), lineBreak, level, true);
    // A run that shows nothing (empty leaves) needs no tags.
    if (color && inner.length > 0) {
      out.push({ type: 'html', value: openMarkTag(color) });
      append(out, inner);
      out.push({ type: 'html', value: CLOSE_MARK_TAG });
    } else append(out, inner);
    index = end;
  }
  return out;
}

function linkPhrasing(node: JsonObject, at: At, lineBreak: LineBreak, inLink: boolean): PhrasingContent[] {
  const dataAt = field(at, 'data');
  const ref = asObject(asObject(node.data, dataAt).ref, field(dataAt, 'ref'));
  const children = inlinePhrasing(node, at, lineBreak, true);
  const url = urlFromRef(ref);
  // A link markdown cannot point anywhere, or one inside another, keeps its text only.
  if (url === null || inLink) return children;
  return [{ type: 'link', url, title: null, children }];
}

function imagePhrasing(node: JsonObject, at: At): PhrasingContent[] {
  const dataAt = field(at, 'data');
  const data = asObject(node.data, dataAt);
  const url = urlFromRef(asObject(data.ref, field(dataAt, 'ref')));
  if (url === null) return [];
  const alt = optionalString(data.alt, field(dataAt, 'alt')) ?? '';
  const title = optionalString(data.caption, field(dataAt, 'caption')) ?? null;
  // A dark variant or a size has no markdown form; GitBook writes those images as HTML.
  const html = inlineImageHtml(url, alt, data, dataAt);
  if (html !== null) return [{ type: 'html', value: html }];
  return [{ type: 'image', url, alt, title }];
}

/** GitBook names an emoji by its code points in hex (`1f600`, `1f1eb-1f1f7`); markdown has the character itself. */
function emojiPhrasing(node: JsonObject): PhrasingContent[] {
  const code = typeof node.data === 'object' && node.data !== null ? (node.data as JsonObject).code : undefined;
  // The longest emoji sequences (families, flags of regions) have under a dozen code points.
  if (typeof code !== 'string' || code.length > 100) return [];
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((point) => !Number.isInteger(point) || point < 0 || point > 0x10ffff)) return [];
  return [{ type: 'text', value: String.fromCodePoint(...points) }];
}

/** A formula as `$$…$$`; an empty one has no markdown. */
function mathPhrasing(node: JsonObject, at: At): PhrasingContent[] {
  const dataAt = field(at, 'data');
  const formula = asString(asObject(node.data, dataAt).formula, field(dataAt, 'formula'));
  return formula.trim() === '' ? [] : [{ type: 'inlineMath', value: formula }];
}

function inlineNodePhrasing(node: JsonObject, at: At, lineBreak: LineBreak, inLink: boolean): PhrasingContent[] {
  switch (nodeType(node, at)) {
    case 'link':
      return linkPhrasing(node, at, lineBreak, inLink);
    case 'inline-image':
      return imagePhrasing(node, at);
    case 'emoji':
      return emojiPhrasing(node);
    case 'inline-math':
      return mathPhrasing(node, at);
    case 'button':
      return buttonPhrasing(node, at);
    case 'icon':
      return iconPhrasing(node, at);
    default:
      // Other inlines (annotations, mentions, emoji…) keep whatever text they hold.
      return Array.isArray(node.nodes) ? inlinePhrasing(node, at, lineBreak, inLink) : [];
  }
}

/**
 * The `nodes` of a paragraph, heading, link or cell as mdast phrasing. Texts
 * next to each other are formatted as one run, so their marks nest cleanly.
 */
export function inlinePhrasing(parent: JsonObject, at: At, lineBreak: LineBreak, inLink = false): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let run: Leaf[] = [];
  const flush = () => {
    append(out, formattedPhrasing(run, lineBreak));
    run = [];
  };
  for (const [node, nodeAt] of childObjects(parent, at, 'nodes')) {
    if (node.object === 'text') append(run, readLeaves(node, nodeAt));
    else if (node.object === 'inline') {
      flush();
      append(out, inlineNodePhrasing(node, nodeAt, lineBreak, inLink));
    } else fail(nodeAt, 'must be a text or an inline node (object "text" or "inline")');
  }
  flush();
  return out;
}

/** The text of a block's inline content, marks and links ignored: for code lines and captions. */
export function inlineText(parent: JsonObject, at: At): string {
  return childObjects(parent, at, 'nodes')
    .map(([node, nodeAt]) => {
      if (node.object === 'text')
        return readLeaves(node, nodeAt)
          .map((leaf) => leaf.text)
          .join('');
      return Array.isArray(node.nodes) ? inlineText(node, nodeAt) : '';
    })
    .join('');
}

/**
 * A paragraph cannot end in a line break (markdown would read a stray `\`),
 * so trailing ones are dropped, also from inside a closing `**…**` or
 * coloured run (whose tags go too when nothing is left between them).
 */
export function withoutTrailingBreaks(phrasing: PhrasingContent[]): PhrasingContent[] {
  const out = [...phrasing];
  // The closing `</mark>` tags met at the end, put back after what their runs keep.
  const closes: PhrasingContent[] = [];
  while (out.length > 0) {
    const last = out.at(-1)!;
    if (last.type === 'break') out.pop();
    else if (last.type === 'html' && isCloseMarkTag(last.value)) closes.push(out.pop()!);
    else if (last.type === 'html' && isOpenMarkTag(last.value) && closes.length > 0) {
      out.pop();
      closes.pop();
    } else if (last.type === 'strong' || last.type === 'emphasis' || last.type === 'delete') {
      const children = withoutTrailingBreaks(last.children);
      if (children.length > 0) {
        out[out.length - 1] = { ...last, children };
        break;
      }
      out.pop();
    } else break;
  }
  return [...out, ...closes.reverse()];
}
