import type { BlockContent, DefinitionContent, Html, RootContent } from 'mdast';
import type { Join } from 'mdast-util-to-markdown';
import { codeTags } from './code-options.js';
import { columnsTag, columnTag } from './columns.js';
import { CLOSE_IF_TAG, ifTag } from './conditions.js';
import { contentRefLines } from './content-ref.js';
import { embedTag } from './embed.js';
import { includeTag } from './include.js';
import { urlFromRef } from './links.js';
import { openAPILines, operationLines, schemasLines } from './openapi.js';
import { promptTags } from './prompt.js';
import { asObject, asString, childObjects, fail, field, type At, type JsonObject } from './read-json.js';
import { CLOSE_STEP_TAG, CLOSE_STEPPER_TAG, OPEN_STEP_TAG, OPEN_STEPPER_TAG } from './stepper.js';
import { closingTag } from './tag-attributes.js';
import { updatesTag, updateTag } from './updates.js';

/**
 * Markdown for the blocks GitBook writes as `{% … %}` tags, beyond hints,
 * tabs and files: steppers, columns, changelogs, conditions, code options,
 * prompts, embeds, content references, OpenAPI blocks and includes.
 */

type FlowContent = BlockContent | DefinitionContent;
/** The markdown of a container's `nodes`, each checked as it is read (to-markdown.ts). */
export type WriteBlocks = (parent: JsonObject, at: At) => FlowContent[];
export type WriteCode = (node: JsonObject, at: At) => FlowContent;

/** Tag lines that open a block and those that close one: the content between them hugs them. */
const OPENING = new WeakSet<RootContent>();
const CLOSING = new WeakSet<RootContent>();

export function openingTag(value: string): Html {
  const node: Html = { type: 'html', value };
  OPENING.add(node);
  return node;
}

export function closingTagNode(value: string): Html {
  const node: Html = { type: 'html', value };
  CLOSING.add(node);
  return node;
}

/** A tag that stands alone (`{% embed %}`, `{% include %}`, `{% file %}`), with blank lines around it. */
export function standaloneTag(value: string): Html {
  return { type: 'html', value };
}

/** What a tag line may follow or precede with no blank line between, and still be read back as it was. */
const HUGGED_AFTER_OPENING = new Set(['paragraph', 'heading', 'code', 'math']);
const HUGGED_BEFORE_CLOSING = new Set(['paragraph', 'heading', 'code', 'math']);

/**
 * GitBook writes the tags of blocks right against what they enclose, and
 * against each other (`{% tabs %}` on the line before the first `{% tab %}`),
 * with no blank line (an empty step is its two tags): paragraphs, headings,
 * fenced code and formulas, which a line of text before them does not change
 * (a paragraph's first line is escaped, so a `3.` or `===` in it is written
 * `3\.`, `\===`), and after which a tag line starts a paragraph of its own.
 * Not lists: a closing tag right after one is a line of its last item, and a
 * list after that tag would be read as more items of the same list.
 */
export const tagsHugContent: Join = (left, right) => {
  if (OPENING.has(left) && (HUGGED_AFTER_OPENING.has(right.type) || OPENING.has(right) || CLOSING.has(right))) return 0;
  if (CLOSING.has(right) && (HUGGED_BEFORE_CLOSING.has(left.type) || CLOSING.has(left))) return 0;
  return undefined;
};

function dataOf(node: JsonObject, at: At): JsonObject {
  return node.data === undefined ? {} : asObject(node.data, field(at, 'data'));
}

/** Each item of `type` between its tags, the whole between the container's; nothing for a container of no item. */
function itemsBetween(
  node: JsonObject,
  at: At,
  type: string,
  outer: [string, string],
  inner: (item: JsonObject, itemAt: At) => [string, string],
  blocks: WriteBlocks,
): FlowContent[] {
  const items = childObjects(node, at, 'nodes').filter(([item]) => item.type === type);
  if (items.length === 0) return [];
  const written = items.flatMap(([item, itemAt]): FlowContent[] => {
    const [open, close] = inner(item, itemAt);
    return [openingTag(open), ...blocks(item, itemAt), closingTagNode(close)];
  });
  return [openingTag(outer[0]), ...written, closingTagNode(outer[1])];
}

export function stepperMarkdown(node: JsonObject, at: At, blocks: WriteBlocks): FlowContent[] {
  const step = (): [string, string] => [OPEN_STEP_TAG, CLOSE_STEP_TAG];
  return itemsBetween(node, at, 'stepper-step', [OPEN_STEPPER_TAG, CLOSE_STEPPER_TAG], step, blocks);
}

export function columnsMarkdown(node: JsonObject, at: At, blocks: WriteBlocks): FlowContent[] {
  const column = (item: JsonObject, itemAt: At): [string, string] => [
    columnTag(dataOf(item, itemAt)),
    closingTag('column'),
  ];
  return itemsBetween(node, at, 'column', [columnsTag(dataOf(node, at)), closingTag('columns')], column, blocks);
}

export function updatesMarkdown(node: JsonObject, at: At, blocks: WriteBlocks): FlowContent[] {
  const update = (item: JsonObject, itemAt: At): [string, string] => {
    const tag = updateTag(dataOf(item, itemAt));
    if (tag === null)
      fail(field(field(itemAt, 'data'), 'date'), 'must be a date-time (RFC 3339) or a day (YYYY-MM-DD)');
    return [tag, closingTag('update')];
  };
  return itemsBetween(node, at, 'update', [updatesTag(dataOf(node, at)), closingTag('updates')], update, blocks);
}

/** A condition and its content; a condition no tag can hold is refused, since dropping it would show the content to all. */
export function ifMarkdown(node: JsonObject, at: At, blocks: WriteBlocks): FlowContent[] {
  const tag = ifTag(dataOf(node, at));
  if (tag === null)
    fail(field(field(at, 'data'), 'expression'), 'must be a condition of one line, 1 to 1024 characters');
  return [openingTag(tag), ...blocks(node, at), closingTagNode(CLOSE_IF_TAG)];
}

/** A code block as written, inside `{% code %}` tags when its data sets a title, line numbers or another option. */
export function codeWithTags(node: JsonObject, at: At, written: FlowContent): FlowContent[] {
  const tags = written.type === 'code' ? codeTags(dataOf(node, at)) : null;
  return tags ? [openingTag(tags[0]), written, closingTagNode(tags[1])] : [written];
}

/** A prompt's tags around its code block; a prompt with no code block has nothing to write. */
export function promptMarkdown(node: JsonObject, at: At, code: WriteCode): FlowContent[] {
  const fences = childObjects(node, at, 'nodes').filter(([child]) => child.type === 'code');
  if (fences.length === 0) return [];
  const [open, close] = promptTags(dataOf(node, at));
  return [openingTag(open), code(...fences[0]!), closingTagNode(close)];
}

export function embedMarkdown(node: JsonObject, at: At): FlowContent[] {
  const tag = embedTag(dataOf(node, at));
  return tag === null ? [] : [standaloneTag(tag)];
}

function refOf(node: JsonObject, at: At): JsonObject {
  const dataAt = field(at, 'data');
  return asObject(asObject(node.data, dataAt).ref, field(dataAt, 'ref'));
}

/** A content reference whose target no URL can name (another space, a user…) is left out, as such links are. */
export function contentRefMarkdown(node: JsonObject, at: At): FlowContent[] {
  const url = urlFromRef(refOf(node, at));
  if (url === null || url === '') return [];
  const { open, link, close } = contentRefLines(url);
  return [openingTag(open), link, closingTagNode(close)];
}

export function includeMarkdown(node: JsonObject, at: At): FlowContent[] {
  const tag = includeTag(refOf(node, at));
  return tag === null ? [] : [standaloneTag(tag)];
}

function pointer(node: JsonObject, at: At): { path: string; method: string } {
  const dataAt = field(at, 'data');
  const data = asObject(node.data, dataAt);
  return { path: asString(data.path, field(dataAt, 'path')), method: asString(data.method, field(dataAt, 'method')) };
}

function around([open, body, close]: [string, FlowContent, string]): FlowContent[] {
  return [openingTag(open), body, closingTagNode(close)];
}

export function swaggerMarkdown(node: JsonObject, at: At): FlowContent[] {
  const url = urlFromRef(refOf(node, at));
  const { path, method } = pointer(node, at);
  return url ? around(openAPILines(url, path, method)) : [];
}

function specOf(node: JsonObject, at: At): string | null {
  const ref = refOf(node, at);
  return ref.kind === 'openapi' && typeof ref.spec === 'string' && ref.spec !== '' ? ref.spec : null;
}

export function operationMarkdown(node: JsonObject, at: At): FlowContent[] {
  const spec = specOf(node, at);
  const { path, method } = pointer(node, at);
  return spec ? around(operationLines(spec, path, method)) : [];
}

export function schemasMarkdown(node: JsonObject, at: At): FlowContent[] {
  const spec = specOf(node, at);
  const dataAt = field(at, 'data');
  const data = asObject(node.data, dataAt);
  if (!Array.isArray(data.schemas)) fail(field(dataAt, 'schemas'), 'must be an array');
  const schemas = data.schemas.map((name, index) => asString(name, field(dataAt, `schemas[${index}]`)));
  const names = schemas.map((name) => name.trim()).filter((name) => name !== '' && !name.includes(','));
  const grouped = typeof data.grouped === 'boolean' ? data.grouped : undefined;
  return spec && names.length > 0 ? around(schemasLines(spec, names, grouped)) : [];
}
