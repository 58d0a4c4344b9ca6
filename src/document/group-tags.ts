import type { RootContent } from 'mdast';
import { tagOf, type BlockTag, type OpenerKind } from './block-tags.js';
import { plainText } from './markdown-tree.js';
import type { HintStyle } from './types.js';

/**
 * Pairs the block tags of one level of the tree (isolate-tags.ts put each
 * on a block of its own) and gathers what lies between into groups. Tags
 * that pair with nothing stay what the parser read them as: text, or HTML.
 */

export interface HintGroup {
  type: 'hint';
  style: HintStyle;
  children: FlowNode[];
}

export interface TabsGroup {
  type: 'tabs';
  children: FlowNode[];
  /** The opening and closing tag blocks, for tabs that turn out to hold no tab. */
  tags: [RootContent, RootContent];
}

export interface TabGroup {
  type: 'tab';
  title: string;
  children: FlowNode[];
}

export interface DetailsGroup {
  type: 'details';
  /** The markdown of its `<summary>`, null without one. */
  summary: string | null;
  children: FlowNode[];
}

/** A `{% file %}` tag, with the caption on its line or between it and `{% endfile %}`. */
export interface TaggedFile {
  type: 'file';
  src: string;
  caption: string;
}

export type TagGroup = HintGroup | TabsGroup | TabGroup | DetailsGroup;
export type FlowNode = RootContent | TagGroup | TaggedFile;

function openerOf(tag: BlockTag | null): OpenerKind | null {
  return tag && tag.kind !== 'close' && tag.kind !== 'summary' && tag.kind !== 'file' ? tag.kind : null;
}

/** The index of the last block a file tag takes: `{% endfile %}` right after it, or after one caption paragraph. */
function fileEnd(children: FlowNode[], tags: Array<BlockTag | null>, index: number): number {
  const isEnd = (tag: BlockTag | null | undefined) => tag?.kind === 'close' && tag.of === 'file';
  if (isEnd(tags[index + 1])) return index + 1;
  if (children[index + 1]?.type === 'paragraph' && !tags[index + 1] && isEnd(tags[index + 2])) return index + 2;
  return index;
}

/**
 * Which opening tag each closing tag closes, by index. A closing tag closes
 * the nearest open tag of its kind, and tags opened after that one and still
 * open never close; a closing tag of a kind not open is stray. A tab opens
 * only right inside tabs. Each tag is pushed and popped at most once: one pass.
 */
function pairTags(children: FlowNode[], tags: Array<BlockTag | null>): Map<number, number> {
  const closeOf = new Map<number, number>();
  const stack: number[] = [];
  const open: Record<OpenerKind, number> = { hint: 0, tabs: 0, tab: 0, details: 0, file: 0 };
  for (let index = 0; index < children.length; index += 1) {
    const tag = tags[index];
    if (tag?.kind === 'file' && tag.caption === null) {
      const end = fileEnd(children, tags, index);
      if (end > index) closeOf.set(index, end);
      index = end;
    } else if (tag?.kind === 'close' && open[tag.of] > 0) {
      for (;;) {
        const opened = stack.pop()!;
        const kind = openerOf(tags[opened] ?? null)!;
        open[kind] -= 1;
        if (kind === tag.of) {
          closeOf.set(opened, index);
          break;
        }
      }
    } else {
      const kind = openerOf(tag ?? null);
      if (!kind || (kind === 'tab' && openerOf(tags[stack.at(-1) ?? -1] ?? null) !== 'tabs')) continue;
      stack.push(index);
      open[kind] += 1;
    }
  }
  return closeOf;
}

function groupOf(tag: BlockTag, opening: RootContent, closing: RootContent): TagGroup | null {
  switch (tag.kind) {
    case 'hint':
      return { type: 'hint', style: tag.style, children: [] };
    case 'tabs':
      return { type: 'tabs', children: [], tags: [opening, closing] };
    case 'tab':
      return { type: 'tab', title: tag.title, children: [] };
    case 'details':
      return { type: 'details', summary: null, children: [] };
    default:
      return null;
  }
}

/** The blocks of one level with each pair of tags and what lies between them as a group, nested as they nest. */
export function groupBlockTags(children: FlowNode[]): FlowNode[] {
  const tags = children.map((child) => tagOf(child));
  const closeOf = pairTags(children, tags);
  const top: FlowNode[] = [];
  const open: Array<{ group: TagGroup; close: number }> = [];
  const current = () => open.at(-1)?.group.children ?? top;
  for (let index = 0; index < children.length; index += 1) {
    const child = children[index]!;
    const tag = tags[index];
    const close = closeOf.get(index);
    if (tag?.kind === 'file') {
      const caption = tag.caption ?? (close === index + 2 ? plainText(children[index + 1] as RootContent).trim() : '');
      current().push({ type: 'file', src: tag.src, caption });
      index = close ?? index;
      continue;
    }
    const group =
      tag && close !== undefined ? groupOf(tag, child as RootContent, children[close] as RootContent) : null;
    // A tab whose tabs never closed is text, and so is its closing tag: it never becomes the innermost open group's end.
    if (group && (group.type !== 'tab' || open.at(-1)?.group.type === 'tabs')) {
      open.push({ group, close: close! });
    } else if (open.at(-1)?.close === index) {
      const { group: closed } = open.pop()!;
      current().push(closed);
    } else if (tag?.kind === 'summary' && isEmptyDetails(open.at(-1)?.group)) {
      (open.at(-1)!.group as DetailsGroup).summary = tag.markdown;
    } else {
      current().push(child);
    }
  }
  return top;
}

/** A details group nothing has gone into yet, where a summary is its title. */
function isEmptyDetails(group: TagGroup | undefined): boolean {
  return group?.type === 'details' && group.summary === null && group.children.length === 0;
}
