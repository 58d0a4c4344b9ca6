import type { Nodes, PhrasingContent } from 'mdast';
import { detailsTagOf, type DetailsTag } from './details.js';
import { hintStyleOf } from './hints.js';
import { plainText } from './markdown-tree.js';
import type { HintStyle } from './types.js';

/**
 * GitBook's blocks that markdown has no syntax for are written as tags:
 * `{% hint %}`, `{% tabs %}`, `{% tab %}` and `{% file %}` lines, which the
 * parser reads as lines of text, and the `<details>` and `<summary>` of an
 * expandable, which it reads as HTML blocks. This is what a tag says.
 */

/** The tags that open a block another tag closes. */
export type OpenerKind = 'hint' | 'tabs' | 'tab' | 'details' | 'file';

export type BlockTag =
  | { kind: 'hint'; style: HintStyle }
  | { kind: 'tabs' }
  | { kind: 'tab'; title: string }
  /** `caption` is null unless `{% endfile %}` closes the tag on its own line. */
  | { kind: 'file'; src: string; caption: string | null }
  | { kind: 'close'; of: OpenerKind }
  | DetailsTag;

const CLOSERS: Readonly<Record<string, OpenerKind>> = {
  endhint: 'hint',
  endtabs: 'tabs',
  endtab: 'tab',
  endfile: 'file',
};

/**
 * The value of the one attribute `name="value"` (or `'value'`). A title may
 * hold its own quote marks, as GitBook writes them unescaped, so only `title`
 * reads to the last quote; other values end at their first.
 */
function attributeValue(attributes: string, name: string): string | null {
  const quote = attributes[name.length + 1];
  if (!attributes.startsWith(`${name}=`) || (quote !== '"' && quote !== "'")) return null;
  if (attributes.length < name.length + 3 || !attributes.endsWith(quote)) return null;
  const value = attributes.slice(name.length + 2, -1);
  return name === 'title' || !value.includes(quote) ? value : null;
}

/** `{% file src="…" %}`, alone or followed on its line by a caption and `{% endfile %}`. */
function fileTag(line: string): BlockTag | null {
  const end = line.indexOf('%}');
  const src = attributeValue(line.slice(2, end).trim().slice('file'.length).trim(), 'src');
  if (src === null || src === '') return null;
  const rest = line.slice(end + 2);
  if (rest.trim() === '') return { kind: 'file', src, caption: null };
  const close = rest.lastIndexOf('{%');
  if (close === -1 || rest.slice(close + 2, -2).trim() !== 'endfile') return null;
  return { kind: 'file', src, caption: rest.slice(0, close).trim() };
}

/** A `{% … %}` line as the tag it is, or null for any other text. */
export function parseLiquidTag(text: string): BlockTag | null {
  const line = text.trim();
  if (!line.startsWith('{%') || !line.endsWith('%}') || line.includes('\n') || line.includes('\r')) return null;
  const body = line.slice(2, -2).trim();
  if (Object.hasOwn(CLOSERS, body)) return { kind: 'close', of: CLOSERS[body]! };
  const space = body.search(/[\t ]/);
  const name = space === -1 ? body : body.slice(0, space);
  const attributes = space === -1 ? '' : body.slice(space).trim();
  switch (name) {
    case 'hint': {
      // A bare `{% hint %}` is an info hint.
      const style = attributes === '' ? 'info' : hintStyleOf(attributeValue(attributes, 'style'));
      return style ? { kind: 'hint', style } : null;
    }
    case 'tabs':
      return attributes === '' ? { kind: 'tabs' } : null;
    case 'tab': {
      const title = attributes === '' ? '' : attributeValue(attributes, 'title');
      return title === null ? null : { kind: 'tab', title };
    }
    case 'file':
      return fileTag(line);
    default:
      return null;
  }
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

/**
 * A value (a title, a URL) as written into a tag line: the characters a
 * paragraph would read as formatting, a link or an entity escaped, so the
 * line reads back as the same text; a tag is one line, so breaks are spaces.
 */
export function escapeTagValue(value: string): string {
  return value.replace(/[\n\r]+/g, ' ').replace(/[\\`*_~[\]<&]/g, '\\$&');
}
