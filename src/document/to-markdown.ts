import type {
  AlignType,
  BlockContent,
  DefinitionContent,
  Html,
  List,
  ListItem,
  PhrasingContent,
  RootContent,
  TableCell,
  TableRow,
} from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown, type Join } from 'mdast-util-to-markdown';
import { CLOSE_DETAILS, OPEN_DETAILS, summaryTag } from './details.js';
import { fileTag } from './file-block.js';
import { headingIdAnchor } from './heading-ids.js';
import { CLOSE_HINT_TAG, HINT_STYLES, openHintTag } from './hints.js';
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
import { CLOSE_TAB_TAG, CLOSE_TABS_TAG, OPEN_TABS_TAG, openTabTag } from './tabs.js';
import type { HintStyle, JSONDocument } from './types.js';

type FlowContent = BlockContent | DefinitionContent;

/**
 * Markdown for a GitBook JSON document sent by a caller, checked as it is read
 * (a malformed node is a `BadRequestError` naming it). Block types markdown has
 * no form for (embeds, drawings, OpenAPI blocks…) are skipped; hints, tabs and
 * files are written in GitBook's `{% … %}` tag form, expandables as
 * `<details>`; page and file references as `/pages/<id>` and `/files/<id>` URLs.
 */
export function documentToMarkdown(document: JSONDocument): string {
  const root = asObject(document, DOCUMENT_ROOT);
  if (root.object !== 'document') fail(field(DOCUMENT_ROOT, 'object'), 'must be "document"');
  const children = blocks(root, DOCUMENT_ROOT);
  return toMarkdown({ type: 'root', children }, { extensions: [gfmToMarkdown()], join: [tagsHugContent] });
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
      const children = withoutTrailingBreaks(inlinePhrasing(node, at, 'break'));
      // An empty paragraph has no markdown; writing nothing keeps the blank line from multiplying.
      return children.length > 0 ? [{ type: 'paragraph', children }] : [];
    }
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const depth = Number(type.slice(-1)) as 1 | 2 | 3;
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
      return [code(node, at)];
    case 'images':
      return images(childObjects(node, at, 'nodes'));
    case 'image':
      return images([[node, at]]);
    case 'table':
      return [table(node, at)];
    case 'tabs':
      return tabs(node, at);
    case 'expandable':
      return expandable(node, at);
    case 'file':
      return file(node, at);
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
  return [tag(openHintTag(style as HintStyle)), ...blocks(node, at), tag(CLOSE_HINT_TAG)];
}

/** Each tab between its tags, inside the tabs' own; a tab's title is optional in the spec. */
function tabs(node: JsonObject, at: At): FlowContent[] {
  const items = childObjects(node, at, 'nodes').filter(([item]) => item.type === 'tabs-item');
  if (items.length === 0) return [];
  const written = items.flatMap(([item, itemAt]): FlowContent[] => {
    const title = optionalString(dataOf(item, itemAt).title, field(field(itemAt, 'data'), 'title')) ?? '';
    return [tag(openTabTag(title)), ...blocks(item, itemAt), tag(CLOSE_TAB_TAG)];
  });
  return [tag(OPEN_TABS_TAG), ...written, tag(CLOSE_TABS_TAG)];
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
  let summary = toMarkdown({ type: 'paragraph', children: phrasing }, { extensions: [gfmToMarkdown()] });
  while (summary.endsWith('\n')) summary = summary.slice(0, -1);
  return [tag(OPEN_DETAILS), tag(summaryTag(summary)), ...(body ? blocks(...body) : []), tag(CLOSE_DETAILS)];
}

/** A file as `{% file src="/files/<id>" %}`; one whose reference has no URL is left out. */
function file(node: JsonObject, at: At): FlowContent[] {
  const dataAt = field(at, 'data');
  const url = urlFromRef(asObject(asObject(node.data, dataAt).ref, field(dataAt, 'ref')));
  return url === null ? [] : [tag(fileTag(url))];
}

const OPENING_TAG = /^\{% (?:hint|tabs|tab) /;
const CLOSING_TAGS = new Set([CLOSE_HINT_TAG, CLOSE_TAB_TAG, CLOSE_TABS_TAG]);

const isOpeningTag = (node: RootContent) =>
  node.type === 'html' && (node.value === OPEN_TABS_TAG || OPENING_TAG.test(node.value));
const isClosingTag = (node: RootContent) => node.type === 'html' && CLOSING_TAGS.has(node.value);

/**
 * GitBook writes the tags of hints and tabs right against the paragraphs they
 * enclose, and against each other (`{% tabs %}` on the line before the first
 * `{% tab %}`), with no blank line. Only paragraphs and tags: a paragraph's
 * first line is escaped as one (a `3.` or `===` in it is written `3\.`,
 * `\===`), so a tag line stays a line of text, and the parser reads it back
 * wherever it ends up.
 */
const tagsHugContent: Join = (left, right) => {
  if (isOpeningTag(left) && (right.type === 'paragraph' || isOpeningTag(right))) return 0;
  if (isClosingTag(right) && (left.type === 'paragraph' || isClosingTag(left))) return 0;
  return undefined;
};

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

/** Images side by side in one paragraph, which is how markdown reads back an image block. */
function images(nodes: Array<[JsonObject, At]>): FlowContent[] {
  const children = nodes.flatMap(([image, imageAt]): PhrasingContent[] => {
    const data = asObject(image.data, field(imageAt, 'data'));
    const url = urlFromRef(asObject(data.ref, field(field(imageAt, 'data'), 'ref')));
    if (url === null) return [];
    const alt = optionalString(data.alt, field(field(imageAt, 'data'), 'alt')) ?? '';
    return [{ type: 'image', url, alt, title: caption(image, imageAt) }];
  });
  const spaced = children.flatMap((child, index): PhrasingContent[] =>
    index === 0 ? [child] : [{ type: 'text', value: ' ' }, child],
  );
  return spaced.length > 0 ? [{ type: 'paragraph', children: spaced }] : [];
}

function caption(image: JsonObject, at: At): string | null {
  const fragment = childObjects(image, at, 'fragments', false).find(([f]) => f.fragment === 'caption');
  if (!fragment) return null;
  const text = childObjects(...fragment, 'nodes')
    .map(([paragraph, paragraphAt]) => inlineText(paragraph, paragraphAt))
    .join(' ');
  return text === '' ? null : text;
}

const ALIGNMENTS = new Set<AlignType>(['left', 'center', 'right']);

/** A GitBook table as a GitHub table: the header from the column titles, rows in `orderIndex` order. */
function table(node: JsonObject, at: At): FlowContent {
  const dataAt = field(at, 'data');
  const data = asObject(node.data, dataAt);
  const viewAt = field(dataAt, 'view');
  const columns = childStrings(asObject(data.view, viewAt).columns, field(viewAt, 'columns'));
  const definition = asObject(data.definition, field(dataAt, 'definition'));
  const fragments = new Map(
    childObjects(node, at, 'fragments', false).map(([f, fAt]) => [f.fragment, [f, fAt] as const]),
  );
  const column = (id: string) =>
    typeof definition[id] === 'object' && definition[id] !== null ? (definition[id] as JsonObject) : {};
  const header: TableRow = {
    type: 'tableRow',
    children: columns.map((id) => ({ type: 'tableCell', children: textCell(column(id).title) })),
  };
  const rows = records(data, dataAt).map(([record, recordAt]): TableRow => ({
    type: 'tableRow',
    children: columns.map((id) => cell(asObject(record.values ?? {}, field(recordAt, 'values'))[id], fragments)),
  }));
  // Left is the default; writing it would add `:` to every delimiter for nothing.
  const align = columns.map((id) => {
    const alignment = column(id).textAlignment as AlignType;
    return ALIGNMENTS.has(alignment) && alignment !== 'left' ? alignment : null;
  });
  return { type: 'table', align, children: [header, ...rows] };
}

function childStrings(value: unknown, at: At): string[] {
  if (!Array.isArray(value)) fail(at, 'must be an array');
  return value.map((entry, index) => asString(entry, { path: `${at.path}[${index}]`, depth: at.depth }));
}

/** The table's records, sorted the way GitBook shows them. */
function records(data: JsonObject, dataAt: At): Array<[JsonObject, At]> {
  const recordsAt = field(dataAt, 'records');
  const all = Object.entries(asObject(data.records ?? {}, recordsAt)).map(([id, record]): [JsonObject, At] => [
    asObject(record, field(recordsAt, id)),
    field(recordsAt, id),
  ]);
  const order = (record: JsonObject) => (typeof record.orderIndex === 'string' ? record.orderIndex : '');
  // Fractional-indexing keys compare as plain strings, not by locale.
  return all.sort(([a], [b]) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** A title or plain value as cell text; a cell is one line, so line breaks become spaces. */
function textCell(value: unknown): PhrasingContent[] {
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  return [{ type: 'text', value: String(value).replaceAll('\r\n', ' ').replaceAll('\n', ' ').replaceAll('\r', ' ') }];
}

/** A cell's value: the name of the fragment holding its text, or a plain number or string. */
function cell(value: unknown, fragments: Map<unknown, readonly [JsonObject, At]>): TableCell {
  const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
  if (!fragment) return { type: 'tableCell', children: textCell(value) };
  const paragraphs = childObjects(...fragment, 'nodes')
    .filter(
      ([block]) => block.type === 'paragraph' || (typeof block.type === 'string' && block.type.startsWith('heading-')),
    )
    .map(([block, blockAt]) => withoutTrailingBreaks(inlinePhrasing(block, blockAt, 'html')));
  // A cell is one line: its paragraphs are joined by `<br>`; lists and other blocks a GitHub table cannot hold are left out.
  const children = paragraphs.flatMap((p, index): PhrasingContent[] =>
    index === 0 ? p : [{ type: 'html', value: '<br>' }, ...p],
  );
  return { type: 'tableCell', children };
}
