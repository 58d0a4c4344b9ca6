import type { BlockContent, DefinitionContent, Html, List, ListItem, PhrasingContent } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { mathToMarkdown } from 'mdast-util-math';
import { toMarkdown } from 'mdast-util-to-markdown';
import { CLOSE_DETAILS, OPEN_DETAILS, summaryTag } from './details.js';
import { fileTag } from './file-block.js';
import { headingIdAnchor } from './heading-ids.js';
import { CLOSE_HINT_TAG, HINT_STYLES, openHintTag } from './hints.js';
import { highlightedCodeHtml } from './html-code.js';
import { imagesMarkdown } from './html-images-write.js';
import { alignedHtml } from './html-write.js';
import { inlinePhrasing, inlineText, withoutTrailingBreaks } from './inline-to-markdown.js';
import { urlFromRef } from './links.js';
import {
  asObject,
  asString,
  childObjects,
  DOCUMENT_ROOT,
  fail,
  field,
  nodeType,
  optionalString,
  type At,
  type JsonObject,
} from './read-json.js';
import { tableMarkdown } from './table-to-markdown.js';
import { MATH_OPTIONS } from './markdown-tree.js';
import { CLOSE_TAB_TAG, CLOSE_TABS_TAG, OPEN_TABS_TAG, openTabTag } from './tabs.js';
import {
  closingTagNode,
  codeWithTags,
  columnsMarkdown,
  contentRefMarkdown,
  embedMarkdown,
  ifMarkdown,
  includeMarkdown,
  openingTag,
  operationMarkdown,
  promptMarkdown,
  schemasMarkdown,
  stepperMarkdown,
  swaggerMarkdown,
  tagsHugContent,
  updatesMarkdown,
} from './to-markdown-tags.js';
import type { HintStyle, JSONDocument } from './types.js';

type FlowContent = BlockContent | DefinitionContent;

/**
 * Markdown for a GitBook JSON document sent by a caller, checked as it is read
 * (a malformed node is a `BadRequestError` naming it). Block types markdown has
 * no form for (drawings, integrations…) are skipped; hints, tabs, files,
 * steppers, columns, embeds and GitBook's other tagged blocks are written in
 * its `{% … %}` tag form (to-markdown-tags.ts), expandables as `<details>`,
 * formulas between `$$`; page and file references as `/pages/<id>` and
 * `/files/<id>` URLs.
 */
export function documentToMarkdown(document: JSONDocument): string {
  const root = asObject(document, DOCUMENT_ROOT);
  if (root.object !== 'document') fail(field(DOCUMENT_ROOT, 'object'), 'must be "document"');
  const children = blocks(root, DOCUMENT_ROOT);
  return toMarkdown(
    { type: 'root', children },
    { extensions: [gfmToMarkdown(), mathToMarkdown(MATH_OPTIONS)], join: [tagsHugContent] },
  );
}

function blocks(parent: JsonObject, at: At): FlowContent[] {
  return childObjects(parent, at, 'nodes').flatMap(([node, nodeAt]) => block(node, nodeAt));
}

function dataOf(node: JsonObject, at: At): JsonObject {
  return node.data === undefined ? {} : asObject(node.data, field(at, 'data'));
}

function block(node: JsonObject, at: At): FlowContent[] {
  if (node.object !== 'block') fail(at, 'must be a block (object "block")');
  const type = nodeType(node, at);
  switch (type) {
    case 'paragraph': {
      const aligned = alignedHtml(node, at, 'p');
      if (aligned) return [aligned];
      const children = withoutTrailingBreaks(inlinePhrasing(node, at, 'break'));
      // An empty paragraph has no markdown; writing nothing keeps the blank line from multiplying.
      return children.length > 0 ? [{ type: 'paragraph', children }] : [];
    }
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const depth = Number(type.slice(-1)) as 1 | 2 | 3;
      const aligned = alignedHtml(node, at, `h${depth}`);
      if (aligned) return [aligned];
      const children = withoutTrailingBreaks(inlinePhrasing(node, at, 'break'));
      // An id GitBook's pattern refuses cannot be written safely into an attribute: it is left out.
      const anchor = headingIdAnchor(dataOf(node, at).id);
      const space: PhrasingContent[] = anchor.length > 0 && children.length > 0 ? [{ type: 'text', value: ' ' }] : [];
      return [{ type: 'heading', depth, children: [...children, ...space, ...anchor] }];
    }
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return [list(node, at, type)];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'blockquote':
      return [{ type: 'blockquote', children: blocks(node, at) }];
    case 'hint':
      return hint(node, at);
    case 'code':
      return codeWithTags(node, at, highlightedCodeHtml(node, at) ?? code(node, at));
    case 'images':
      return imagesMarkdown(node, childObjects(node, at, 'nodes'), at);
    case 'image':
      return imagesMarkdown({}, [[node, at]], at);
    case 'table':
      return [tableMarkdown(node, at)];
    case 'tabs':
      return tabs(node, at);
    case 'expandable':
      return expandable(node, at);
    case 'file':
      return file(node, at);
    case 'math':
      return math(node, at);
    case 'stepper':
      return stepperMarkdown(node, at, blocks);
    case 'columns':
      return columnsMarkdown(node, at, blocks);
    case 'updates':
      return updatesMarkdown(node, at, blocks);
    case 'if':
      return ifMarkdown(node, at, blocks);
    case 'prompt':
      return promptMarkdown(node, at, (fence, fenceAt) => code(fence, fenceAt));
    case 'embed':
      return embedMarkdown(node, at);
    case 'content-ref':
      return contentRefMarkdown(node, at);
    case 'reusable-content':
      return includeMarkdown(node, at);
    case 'swagger':
      return swaggerMarkdown(node, at);
    case 'openapi-operation':
      return operationMarkdown(node, at);
    case 'openapi-schemas':
      return schemasMarkdown(node, at);
    default:
      return [];
  }
}

const tag = (value: string): Html => ({ type: 'html', value });

/** A hint's content between its tags, each tag on a line of its own. */
function hint(node: JsonObject, at: At): FlowContent[] {
  const style = dataOf(node, at).style;
  if (!HINT_STYLES.includes(style as HintStyle))
    fail(field(field(at, 'data'), 'style'), `must be one of: ${HINT_STYLES.join(', ')}`);
  const icon = optionalString(dataOf(node, at).icon, field(field(at, 'data'), 'icon'));
  return [openingTag(openHintTag(style as HintStyle, icon)), ...blocks(node, at), closingTagNode(CLOSE_HINT_TAG)];
}

/** Each tab between its tags, inside the tabs' own; a tab's title is optional in the spec. */
function tabs(node: JsonObject, at: At): FlowContent[] {
  const items = childObjects(node, at, 'nodes').filter(([item]) => item.type === 'tabs-item');
  if (items.length === 0) return [];
  const written = items.flatMap(([item, itemAt]): FlowContent[] => {
    const title = optionalString(dataOf(item, itemAt).title, field(field(itemAt, 'data'), 'title')) ?? '';
    const icon = optionalString(dataOf(item, itemAt).icon, field(field(itemAt, 'data'), 'icon'));
    return [openingTag(openTabTag(title, icon)), ...blocks(item, itemAt), closingTagNode(CLOSE_TAB_TAG)];
  });
  return [openingTag(OPEN_TABS_TAG), ...written, closingTagNode(CLOSE_TABS_TAG)];
}

/** An expandable as `<details>`: its title's paragraphs as the summary's one line, then its body. */
function expandable(node: JsonObject, at: At): FlowContent[] {
  const fragments = childObjects(node, at, 'fragments');
  const fragment = (name: string) => fragments.find(([f]) => f.fragment === name);
  const title = fragment('expandable-title');
  const body = fragment('expandable-body');
  const paragraphs = title
    ? childObjects(...title, 'nodes').map(([p, pAt]) => withoutTrailingBreaks(inlinePhrasing(p, pAt, 'html')))
    : [];
  const phrasing = paragraphs
    .filter((p) => p.length > 0)
    .flatMap((p, index): PhrasingContent[] => (index === 0 ? p : [{ type: 'text', value: ' ' }, ...p]));
  let summary = toMarkdown(
    { type: 'paragraph', children: phrasing },
    { extensions: [gfmToMarkdown(), mathToMarkdown(MATH_OPTIONS)] },
  );
  while (summary.endsWith('\n')) summary = summary.slice(0, -1);
  return [tag(OPEN_DETAILS), tag(summaryTag(summary)), ...(body ? blocks(...body) : []), tag(CLOSE_DETAILS)];
}

/** A file as `{% file src="/files/<id>" %}`; one whose reference has no URL is left out. */
function file(node: JsonObject, at: At): FlowContent[] {
  const dataAt = field(at, 'data');
  const url = urlFromRef(asObject(asObject(node.data, dataAt).ref, field(dataAt, 'ref')));
  return url === null ? [] : [tag(fileTag(url))];
}

/** A formula on lines of its own, between `$$` fences; an empty one has no markdown. */
function math(node: JsonObject, at: At): FlowContent[] {
  const dataAt = field(at, 'data');
  const formula = asString(asObject(node.data, dataAt).formula, field(dataAt, 'formula'));
  return formula.trim() === '' ? [] : [{ type: 'math', value: formula }];
}

function list(node: JsonObject, at: At, type: 'list-unordered' | 'list-ordered' | 'list-tasks'): List {
  const start = dataOf(node, at).start;
  const items = childObjects(node, at, 'nodes')
    .filter(([item]) => item.type === 'list-item')
    .map(([item, itemAt]): ListItem => {
      const children = blocks(item, itemAt);
      const checked = type === 'list-tasks' ? dataOf(item, itemAt).checked === true : null;
      return { type: 'listItem', spread: !isTightItem(children), checked, children };
    });
  const ordered = type === 'list-ordered';
  return {
    type: 'list',
    ordered,
    start: ordered && typeof start === 'number' ? start : null,
    spread: false,
    children: items,
  };
}

/**
 * Only `text` and `text` + nested list are written without blank lines: in a
 * tight item, a paragraph after a quote, list or table would be read as part of it.
 */
function isTightItem(children: FlowContent[]): boolean {
  const [first, second, ...rest] = children;
  return !second || (first?.type === 'paragraph' && second.type === 'list' && rest.length === 0);
}

function code(node: JsonObject, at: At): FlowContent {
  const lines = childObjects(node, at, 'nodes').map(([line, lineAt]) => inlineText(line, lineAt));
  const syntax = optionalString(dataOf(node, at).syntax, field(field(at, 'data'), 'syntax'));
  return { type: 'code', lang: syntax || null, meta: null, value: lines.join('\n') };
}
