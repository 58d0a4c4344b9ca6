import type {
  Blockquote,
  BlockContent,
  DefinitionContent,
  FootnoteDefinition,
  ListItem,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
} from 'mdast';
import { MAX_NESTING } from './markdown-tree.js';
import type { HintStyle } from './types.js';

/**
 * Hints in markdown, at the level of the parsed tree. GitBook writes them as
 * `{% hint style="info" %}` … `{% endhint %}` lines, usually with no blank line
 * around the content, so the parser sees the tags as lines of the paragraphs
 * next to them; GitHub writes them as `> [!NOTE]` quotes.
 */

export const HINT_STYLES: readonly HintStyle[] = ['info', 'warning', 'danger', 'success'];

type HintTag = { kind: 'open'; style: HintStyle } | { kind: 'close' };

export function openHintTag(style: HintStyle): string {
  return `{% hint style="${style}" %}`;
}
export const CLOSE_HINT_TAG = '{% endhint %}';

/** `{% hint style="…" %}` or `{% endhint %}` as a whole line; a bare `{% hint %}` is an info hint. */
function parseHintTag(line: string): HintTag | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{%') || !trimmed.endsWith('%}')) return null;
  const words = trimmed.slice(2, -2).trim();
  if (words === 'endhint') return { kind: 'close' };
  if (words === 'hint') return { kind: 'open', style: 'info' };
  if (!words.startsWith('hint ')) return null;
  const attribute = words.slice('hint '.length).trim();
  const style = HINT_STYLES.find((s) => attribute === `style="${s}"` || attribute === `style='${s}'`);
  return style ? { kind: 'open', style } : null;
}

/** The tag a block stands for: a paragraph whose only content is a tag line. */
function tagOf(node: RootContent | HintGroup): HintTag | null {
  if (node.type !== 'paragraph' || node.children.length !== 1) return null;
  const only = node.children[0]!;
  return only.type === 'text' ? parseHintTag(only.value) : null;
}

/** A paragraph's content cut at its soft line breaks. */
function phrasingLines(children: PhrasingContent[]): PhrasingContent[][] {
  const lines: PhrasingContent[][] = [[]];
  for (const child of children) {
    if (child.type !== 'text') {
      lines.at(-1)!.push(child);
      continue;
    }
    child.value.split(/\r\n|\r|\n/).forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== '') lines.at(-1)!.push({ type: 'text', value: part });
    });
  }
  return lines;
}

function isTagLine(line: PhrasingContent[]): boolean {
  return line.length === 1 && line[0]!.type === 'text' && parseHintTag(line[0].value) !== null;
}

/** The paragraph as paragraphs of its own for each tag line and for the text between them. */
function splitAtHintTags(paragraph: Paragraph): Paragraph[] {
  const lines = phrasingLines(paragraph.children);
  if (!lines.some(isTagLine)) return [paragraph];
  const paragraphs: Paragraph[] = [];
  let pending: PhrasingContent[][] = [];
  const flush = () => {
    if (pending.length > 0) {
      const children = pending.flatMap((line, index) =>
        index === 0 ? line : [{ type: 'text', value: '\n' } as const, ...line],
      );
      paragraphs.push({ type: 'paragraph', children });
    }
    pending = [];
  };
  for (const line of lines) {
    if (!isTagLine(line)) {
      pending.push(line);
      continue;
    }
    flush();
    paragraphs.push({ type: 'paragraph', children: line });
  }
  flush();
  return paragraphs;
}

type FlowContent = BlockContent | DefinitionContent;

/**
 * An `{% endhint %}` right after a list or quote is read as a lazy continuation
 * of its last paragraph, and so is any text after it. When it closes no hint
 * opened inside, it ends the container: take it, and what follows it, out.
 */
function liftFromUnmatchedClose(container: { children: FlowContent[] }): FlowContent[] {
  let open = 0;
  for (const [index, child] of container.children.entries()) {
    const tag = tagOf(child);
    if (tag?.kind === 'open') open += 1;
    else if (tag?.kind === 'close' && open > 0) open -= 1;
    else if (tag?.kind === 'close') return container.children.splice(index);
  }
  return [];
}

/** An `{% endhint %}` line right after a table is read as one more row of it; take it out as the tag it is. */
function liftCloseRow(table: Table): Paragraph[] {
  const last = table.children.at(-1);
  const [first, ...others] = last?.children ?? [];
  if (table.children.length < 2 || !first || others.some((cell) => cell.children.length > 0)) return [];
  const tag: Paragraph = { type: 'paragraph', children: first.children };
  if (tagOf(tag)?.kind !== 'close') return [];
  table.children.pop();
  return [tag];
}

function isolateInFlow<T extends RootContent>(children: T[], depth: number): Array<T | FlowContent> {
  return children.flatMap((child): Array<T | FlowContent> => {
    if (child.type === 'paragraph') return splitAtHintTags(child);
    if (child.type === 'table') return [child, ...liftCloseRow(child)];
    // The document keeps no nesting deeper than MAX_NESTING, so hints are not looked for there either.
    if (depth >= MAX_NESTING) return [child];
    if (child.type === 'blockquote' || child.type === 'footnoteDefinition') {
      isolateHintTags(child, depth + 1);
      return [child, ...liftFromUnmatchedClose(child)];
    }
    if (child.type === 'list') {
      for (const item of child.children) isolateHintTags(item, depth + 1);
      const last = child.children.at(-1);
      return [child, ...(last ? liftFromUnmatchedClose(last) : [])];
    }
    return [child];
  });
}

/** Rewrites the tree so that every hint tag is a paragraph of its own at the level it applies to. */
export function isolateHintTags(parent: Root | Blockquote | ListItem | FootnoteDefinition, depth = 0): void {
  // Two branches because the root holds more kinds of nodes than the containers do.
  if (parent.type === 'root') parent.children = isolateInFlow(parent.children, depth);
  else parent.children = isolateInFlow(parent.children, depth);
}

/** A hint found in the tree, with the blocks between its tags. */
export interface HintGroup {
  type: 'hint';
  style: HintStyle;
  children: Array<RootContent | HintGroup>;
}

/** Blocks with each matched pair of hint tags and what lies between them turned into a hint; unmatched tags stay text. */
export function groupHints(children: Array<RootContent | HintGroup>): Array<RootContent | HintGroup> {
  const top: Array<RootContent | HintGroup> = [];
  const open: Array<{ opener: RootContent | HintGroup; group: HintGroup }> = [];
  const current = () => open.at(-1)?.group.children ?? top;
  for (const child of children) {
    const tag = tagOf(child);
    if (tag?.kind === 'open') open.push({ opener: child, group: { type: 'hint', style: tag.style, children: [] } });
    else if (tag?.kind === 'close' && open.length > 0) {
      const { group } = open.pop()!;
      current().push(group);
    } else current().push(child);
  }
  // A hint never closed was not a hint: its tag is text again, followed by what it would have held.
  while (open.length > 0) {
    const { opener, group } = open.pop()!;
    current().push(opener, ...group.children);
  }
  return top;
}

const ALERT_STYLES: Record<string, HintStyle> = {
  NOTE: 'info',
  TIP: 'success',
  IMPORTANT: 'info',
  WARNING: 'warning',
  CAUTION: 'danger',
};

/**
 * A GitHub alert (`> [!NOTE]` alone on the quote's first line) as a hint
 * style and the quote's content without the marker; null for other quotes.
 */
export function githubAlert(quote: Blockquote): { style: HintStyle; children: FlowContent[] } | null {
  const [first, ...rest] = quote.children;
  const text = first?.type === 'paragraph' ? first.children[0] : undefined;
  if (first?.type !== 'paragraph' || text?.type !== 'text' || !text.value.startsWith('[!')) return null;
  const end = text.value.indexOf(']');
  const style = end === -1 ? undefined : ALERT_STYLES[text.value.slice(2, end).toUpperCase()];
  if (!style) return null;
  const lines = text.value.slice(end + 1).split(/\r\n|\r|\n/);
  if (lines[0]!.trim() !== '') return null;
  const after = first.children.slice(1);
  if (lines.length > 1) {
    const paragraph: Paragraph = {
      type: 'paragraph',
      children: [{ type: 'text', value: lines.slice(1).join('\n') }, ...after],
    };
    return { style, children: [paragraph, ...rest] };
  }
  // `[!NOTE]` ending in two spaces is followed by a hard break rather than a soft one.
  if (after.length > 0 && after[0]!.type !== 'break') return null;
  const remaining = after.slice(1);
  return { style, children: remaining.length > 0 ? [{ type: 'paragraph', children: remaining }, ...rest] : rest };
}
