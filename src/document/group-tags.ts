import type { RootContent } from 'mdast';
import {
  isWrapper,
  PARENT_OF,
  tagOf,
  WRAPPERS,
  type BlockTag,
  type ContainerKind,
  type ContainerTag,
  type WrapperTag,
} from './block-tags.js';
import type { HintStyle } from './types.js';

/**
 * Pairs the block tags of one level of the tree (isolate-tags.ts put each
 * on a block of its own) and gathers what lies between into groups. Tags
 * that pair with nothing stay what the parser read them as: text, or HTML.
 */

export interface HintGroup {
  type: 'hint';
  style: HintStyle;
  icon?: string;
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
  icon?: string;
  children: FlowNode[];
}

export interface DetailsGroup {
  type: 'details';
  /** The markdown of its `<summary>`, null without one. */
  summary: string | null;
  children: FlowNode[];
}

/** Steppers, columns, changelogs and conditions, and the steps, columns and updates in them. */
export interface ContainerGroup {
  type: 'container';
  tag: Exclude<ContainerTag, { kind: 'hint' | 'tabs' | 'tab' }>;
  children: FlowNode[];
  /** The opening and closing tag blocks, for a group that turns out to hold nothing it can show. */
  tags: [RootContent, RootContent];
}

/** A wrapper tag (`{% code %}`, `{% content-ref %}`, `{% file %}` …) and the one block it wraps, if any. */
export interface WrappedGroup {
  type: 'wrapped';
  tag: WrapperTag;
  /** The code block or the paragraph between the tags; null when there is none. */
  body: RootContent | null;
}

export type TagGroup = HintGroup | TabsGroup | TabGroup | DetailsGroup | ContainerGroup;
export type FlowNode = RootContent | TagGroup | WrappedGroup;

function openerOf(tag: BlockTag | null | undefined): ContainerKind | null {
  return tag && tag.kind !== 'close' && tag.kind !== 'summary' && !isWrapper(tag) ? tag.kind : null;
}

/** The kind of tag a group was opened by. */
function kindOf(group: TagGroup | undefined): ContainerKind | undefined {
  return group?.type === 'container' ? group.tag.kind : group?.type;
}

/**
 * The index of the last block a wrapper tag takes: its own line when it is
 * whole there, its closing tag right after it or after the one block it
 * wraps; -1 when it takes nothing and is text.
 */
function wrapperEnd(children: FlowNode[], tags: Array<BlockTag | null>, index: number): number {
  const tag = tags[index] as WrapperTag;
  const { body, standalone } = WRAPPERS[tag.kind];
  if (tag.caption !== null || body === 'none') return index;
  const isEnd = (next: BlockTag | null | undefined) => next?.kind === 'close' && next.of === tag.kind;
  if (isEnd(tags[index + 1])) return body === 'code' ? -1 : index + 1;
  if (children[index + 1]?.type === body && !tags[index + 1] && isEnd(tags[index + 2])) return index + 2;
  return standalone ? index : -1;
}

/**
 * Which opening tag each closing tag closes, by index, and where each
 * wrapper ends. A closing tag closes the nearest open tag of its kind, and
 * tags opened after that one and still open never close; a closing tag of a
 * kind not open is stray. A tab opens only right inside tabs (a step in a
 * stepper, a column in columns, an update in updates). Each tag is pushed
 * and popped at most once: one pass.
 */
function pairTags(children: FlowNode[], tags: Array<BlockTag | null>): Map<number, number> {
  const closeOf = new Map<number, number>();
  const stack: number[] = [];
  const open = new Map<string, number>();
  for (let index = 0; index < children.length; index += 1) {
    const tag = tags[index];
    if (isWrapper(tag)) {
      const end = wrapperEnd(children, tags, index);
      if (end !== -1) closeOf.set(index, end);
      index = Math.max(index, end);
    } else if (tag?.kind === 'close' && (open.get(tag.of) ?? 0) > 0) {
      for (;;) {
        const opened = stack.pop()!;
        const kind = openerOf(tags[opened])!;
        open.set(kind, open.get(kind)! - 1);
        if (kind === tag.of) {
          closeOf.set(opened, index);
          break;
        }
      }
    } else {
      const kind = openerOf(tag);
      const parent = kind ? PARENT_OF[kind] : undefined;
      if (!kind || (parent && openerOf(tags[stack.at(-1) ?? -1]) !== parent)) continue;
      stack.push(index);
      open.set(kind, (open.get(kind) ?? 0) + 1);
    }
  }
  return closeOf;
}

function groupOf(tag: BlockTag, opening: RootContent, closing: RootContent): TagGroup | null {
  switch (tag.kind) {
    case 'hint':
      return { type: 'hint', style: tag.style, ...(tag.icon ? { icon: tag.icon } : {}), children: [] };
    case 'tabs':
      return { type: 'tabs', children: [], tags: [opening, closing] };
    case 'tab':
      return { type: 'tab', title: tag.title, ...(tag.icon ? { icon: tag.icon } : {}), children: [] };
    case 'details':
      return { type: 'details', summary: null, children: [] };
    case 'stepper':
    case 'step':
    case 'columns':
    case 'column':
    case 'updates':
    case 'update':
    case 'if':
      return { type: 'container', tag, children: [], tags: [opening, closing] };
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
    if (isWrapper(tag) && close !== undefined) {
      const body = close === index + 2 ? (children[index + 1] as RootContent) : null;
      current().push({ type: 'wrapped', tag, body });
      index = close;
      continue;
    }
    const group =
      tag && close !== undefined ? groupOf(tag, child as RootContent, children[close] as RootContent) : null;
    const parent = group ? PARENT_OF[kindOf(group)!] : undefined;
    // A tab whose tabs never closed is text, and so is its closing tag: it never becomes the innermost open group's end.
    if (group && (!parent || kindOf(open.at(-1)?.group) === parent)) {
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
