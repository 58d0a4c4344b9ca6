import type { Nodes, PhrasingContent } from 'mdast';
import { readCodeTag, type CodeOptions } from './code-options.js';
import { readColumnsTag, readColumnTag, type ColumnOptions } from './columns.js';
import { readIfTag } from './conditions.js';
import { readContentRefTag } from './content-ref.js';
import { detailsTagOf, type DetailsTag } from './details.js';
import { readEmbedTag, type EmbedOptions } from './embed.js';
import { hintStyleOf } from './hints.js';
import { readIncludeTag, reusableContentOf } from './include.js';
import { plainText } from './markdown-tree.js';
import {
  readOpenAPITag,
  readOperationTag,
  readSchemasTag,
  type OperationPointer,
  type SchemasOptions,
} from './openapi.js';
import { iconAttribute, readPromptTag, type PromptOptions } from './prompt.js';
import { readAttributes, type TagAttributes } from './tag-attributes.js';
import { readUpdatesTag, readUpdateTag, type UpdateOptions } from './updates.js';
import type { HintStyle, UpdatesFormat } from './types.js';

/**
 * GitBook's blocks that markdown has no syntax for are written as tags:
 * `{% hint %}`, `{% tabs %}`, `{% stepper %}`, `{% code %}` … lines, which the
 * parser reads as lines of text, and the `<details>` and `<summary>` of an
 * expandable, which it reads as HTML blocks. This is what a tag says.
 */

/** Tags that open a block of other blocks, which their closing tag ends. */
export type ContainerKind =
  | 'hint'
  | 'tabs'
  | 'tab'
  | 'details'
  | 'stepper'
  | 'step'
  | 'columns'
  | 'column'
  | 'updates'
  | 'update'
  | 'if';

/**
 * Tags around one block (a code block, a link, a caption) or none, that make
 * one block of it: closed on their own line, after the block, or, for those
 * that can stand alone (`file`, `embed`, `include`), not at all.
 */
export type WrapperKind =
  | 'file'
  | 'embed'
  | 'include'
  | 'content-ref'
  | 'openapi'
  | 'openapi-operation'
  | 'openapi-schemas'
  | 'code'
  | 'prompt';

export type OpenerKind = ContainerKind | WrapperKind;

export type ContainerTag =
  | { kind: 'hint'; style: HintStyle; icon?: string }
  | { kind: 'tabs' }
  | { kind: 'tab'; title: string; icon?: string }
  | { kind: 'stepper' }
  | { kind: 'step' }
  | { kind: 'columns'; fullWidth?: boolean }
  | ({ kind: 'column' } & ColumnOptions)
  | { kind: 'updates'; format: UpdatesFormat }
  | ({ kind: 'update' } & UpdateOptions)
  | { kind: 'if'; expression: string };

export type WrapperTag = (
  | { kind: 'file'; src: string }
  | ({ kind: 'embed' } & EmbedOptions)
  | { kind: 'include'; reusableContent: string }
  | { kind: 'content-ref'; url: string }
  | ({ kind: 'openapi'; src: string } & OperationPointer)
  | ({ kind: 'openapi-operation'; spec: string } & OperationPointer)
  | ({ kind: 'openapi-schemas' } & SchemasOptions)
  | { kind: 'code'; options: CodeOptions }
  | { kind: 'prompt'; options: PromptOptions }
) & {
  /** The text between the tag and its closing tag when both are on one line; null otherwise. */
  caption: string | null;
};

export type BlockTag = ContainerTag | WrapperTag | { kind: 'close'; of: OpenerKind } | DetailsTag;

/** What each wrapper holds between its tags, and whether it is whole without them. */
export const WRAPPERS: Readonly<Record<WrapperKind, { body: 'paragraph' | 'code' | 'none'; standalone: boolean }>> = {
  file: { body: 'paragraph', standalone: true },
  embed: { body: 'paragraph', standalone: true },
  include: { body: 'none', standalone: true },
  'content-ref': { body: 'paragraph', standalone: false },
  openapi: { body: 'paragraph', standalone: false },
  'openapi-operation': { body: 'paragraph', standalone: false },
  'openapi-schemas': { body: 'paragraph', standalone: false },
  code: { body: 'code', standalone: false },
  prompt: { body: 'code', standalone: false },
};

/** Tags that open a block only right inside another: a tab in tabs, a step in a stepper… */
export const PARENT_OF: Readonly<Partial<Record<ContainerKind, ContainerKind>>> = {
  tab: 'tabs',
  step: 'stepper',
  column: 'columns',
  update: 'updates',
};

const CLOSERS: ReadonlySet<string> = new Set<OpenerKind>([
  'hint',
  'tabs',
  'tab',
  'stepper',
  'step',
  'columns',
  'column',
  'updates',
  'update',
  'if',
  'file',
  'embed',
  'content-ref',
  'openapi',
  'openapi-operation',
  'openapi-schemas',
  'code',
  'prompt',
]);

export function isWrapper(tag: BlockTag | null | undefined): tag is WrapperTag {
  return tag !== null && tag !== undefined && Object.hasOwn(WRAPPERS, tag.kind);
}

/** The tag a container tag's name and attributes make, or null when they say nothing it can be. */
function containerTag(name: string, attributes: TagAttributes): ContainerTag | null {
  const icon = iconAttribute(attributes);
  if (icon === null) return null;
  const withIcon = icon === undefined ? {} : { icon };
  switch (name) {
    case 'hint': {
      // A hint without a style is an info hint.
      const style = attributes.has('style') ? hintStyleOf(attributes.get('style')!) : 'info';
      return style ? { kind: 'hint', style, ...withIcon } : null;
    }
    case 'tabs':
      return { kind: 'tabs' };
    case 'tab':
      return { kind: 'tab', title: attributes.get('title') ?? '', ...withIcon };
    case 'stepper':
      return { kind: 'stepper' };
    case 'step':
      return { kind: 'step' };
    case 'columns': {
      const options = readColumnsTag(attributes);
      return options && { kind: 'columns', ...options };
    }
    case 'column': {
      const options = readColumnTag(attributes);
      return options && { kind: 'column', ...options };
    }
    case 'updates': {
      const options = readUpdatesTag(attributes);
      return options && { kind: 'updates', ...options };
    }
    case 'update': {
      const options = readUpdateTag(attributes);
      return options && { kind: 'update', ...options };
    }
    default:
      return null;
  }
}

type WrapperWithoutCaption = WrapperTag extends infer T ? (T extends unknown ? Omit<T, 'caption'> : never) : never;

function wrapperTag(name: string, attributes: TagAttributes): WrapperWithoutCaption | null {
  switch (name) {
    case 'file': {
      const src = attributes.get('src');
      return src ? { kind: 'file', src } : null;
    }
    case 'embed': {
      const options = readEmbedTag(attributes);
      return options && { kind: 'embed', ...options };
    }
    case 'content-ref': {
      const options = readContentRefTag(attributes);
      return options && { kind: 'content-ref', ...options };
    }
    case 'openapi': {
      const options = readOpenAPITag(attributes);
      return options && { kind: 'openapi', ...options };
    }
    case 'openapi-operation': {
      const options = readOperationTag(attributes);
      return options && { kind: 'openapi-operation', ...options };
    }
    case 'openapi-schemas': {
      const options = readSchemasTag(attributes);
      return options && { kind: 'openapi-schemas', ...options };
    }
    case 'code': {
      const options = readCodeTag(attributes);
      return options && { kind: 'code', options };
    }
    case 'prompt': {
      const options = readPromptTag(attributes);
      return options && { kind: 'prompt', options };
    }
    default:
      return null;
  }
}

/** `{% name … %}` and what follows it on the line: nothing, or a caption and the tag's own `{% endname %}`. */
function withCaption(tag: WrapperWithoutCaption, rest: string): WrapperTag | null {
  if (rest.trim() === '') return { ...tag, caption: null };
  if (WRAPPERS[tag.kind].body !== 'paragraph') return null;
  const close = rest.lastIndexOf('{%');
  if (close === -1 || !rest.endsWith('%}') || rest.slice(close + 2, -2).trim() !== `end${tag.kind}`) return null;
  return { ...tag, caption: rest.slice(0, close).trim() };
}

/** The name of a `{% … %}` tag and the text after it, up to the tag's `%}`. */
function splitTag(body: string): { name: string; rest: string } {
  const space = body.search(/[\t ]/);
  return space === -1 ? { name: body, rest: '' } : { name: body.slice(0, space), rest: body.slice(space) };
}

/** A `{% … %}` line as the tag it is, or null for any other text. */
export function parseLiquidTag(text: string): BlockTag | null {
  const line = text.trim();
  if (!line.startsWith('{%') || !line.endsWith('%}') || line.includes('\n') || line.includes('\r')) return null;
  // The tag ends at its first `%}`, except in the values of a title or a description, which may hold one.
  const end = line.indexOf('%}');
  const whole = line.slice(2, -2).trim();
  if (whole.startsWith('end')) {
    const of = whole.slice(3);
    return CLOSERS.has(of) ? { kind: 'close', of: of as OpenerKind } : null;
  }
  const { name, rest } = splitTag(whole);
  if (name === 'if') {
    const condition = readIfTag(rest);
    return condition && { kind: 'if', ...condition };
  }
  if (name === 'include') {
    const path = readIncludeTag(rest);
    const id = path && reusableContentOf(path.path);
    return id ? { kind: 'include', reusableContent: id, caption: null } : null;
  }
  const attributes = readAttributes(rest);
  if (attributes) {
    const container = containerTag(name, attributes);
    if (container) return container;
    const wrapper = wrapperTag(name, attributes);
    if (wrapper) return withCaption(wrapper, '');
  }
  // A caption and a closing tag on the tag's line: the attributes end at the first `%}`.
  const opening = splitTag(line.slice(2, end).trim());
  const openingAttributes = end === line.length - 2 ? null : readAttributes(opening.rest);
  const captioned = openingAttributes ? wrapperTag(opening.name, openingAttributes) : null;
  return captioned && withCaption(captioned, line.slice(end + 2));
}

/**
 * The tag a line of a paragraph is. The line is read as the reader sees it:
 * a URL in a tag is an autolink to the parser, and the escapes tag values are
 * written with (see `escapeTagValue`) are gone.
 */
export function tagOfLine(line: PhrasingContent[]): BlockTag | null {
  const first = line[0];
  if (first?.type !== 'text' || !first.value.trimStart().startsWith('{%')) return null;
  return parseLiquidTag(line.length === 1 ? first.value : plainText({ type: 'paragraph', children: line }));
}

/** The tag a block stands for: a paragraph that is one tag line, or an HTML block that is one `<details>` tag. */
export function tagOf(node: { type: string }): BlockTag | null {
  const block = node as Nodes;
  if (block.type === 'paragraph') return tagOfLine(block.children);
  if (block.type === 'html') return detailsTagOf(block.value);
  return null;
}
