import type { Code } from 'mdast';
import { withCodeOptions } from './code-options.js';
import { columnsBlock, type ColumnOptions } from './columns.js';
import { ifBlock } from './conditions.js';
import { contentRefBlock, linkUrlOf } from './content-ref.js';
import { embedBlock } from './embed.js';
import { fileBlock } from './file-block.js';
import { fitColumn, fitTab, fitUpdate, orEmptyParagraph } from './fit.js';
import type { ContainerGroup, FlowNode, WrappedGroup } from './group-tags.js';
import { reusableContentBlock } from './include.js';
import { plainText } from './markdown-tree.js';
import { openAPIBlock, operationBlock, schemasBlock } from './openapi.js';
import { promptBlock } from './prompt.js';
import { stepperBlock } from './stepper.js';
import type { DocumentBlockCode, DocumentTopLevelBlock } from './types.js';
import { updatesBlock, type UpdateOptions } from './updates.js';

/**
 * The blocks of GitBook's tags beyond hints, tabs and expandables (those are
 * made in from-markdown.ts): steppers, columns, changelogs and conditions,
 * which hold blocks, and the wrappers around one block or none (code
 * options, prompts, embeds, content references, OpenAPI blocks, includes).
 */

/** What building a tag's block needs from the page conversion around it. */
export interface TagScope {
  /** The blocks of markdown one level deeper; `holdsFiles` where the container takes file blocks. */
  content: (children: FlowNode[], holdsFiles: boolean) => DocumentTopLevelBlock[];
  /** The blocks of markdown at this level, for tags kept as the text they were written as. */
  asText: (children: FlowNode[]) => DocumentTopLevelBlock[];
  code: (node: Code) => DocumentBlockCode;
  holdsFiles: boolean;
}

type ItemGroup = ContainerGroup & { tag: { kind: 'step' | 'column' | 'update' } };

/**
 * The items (steps, columns, updates) of a group, each with its content.
 * Anything between them rather than in one (a stray line) is kept, in the
 * item before it, or in the first item when it comes before any.
 */
function itemsOf(
  group: ContainerGroup,
  kind: 'step' | 'column' | 'update',
): Array<{ item: ItemGroup; children: FlowNode[] }> {
  const items: Array<{ item: ItemGroup; children: FlowNode[] }> = [];
  const leading: FlowNode[] = [];
  for (const child of group.children) {
    if (child.type === 'container' && child.tag.kind === kind)
      items.push({ item: child as ItemGroup, children: [...child.children] });
    else if (items.length === 0) leading.push(child);
    else items.at(-1)!.children.push(child);
  }
  if (items.length > 0 && leading.length > 0) items[0]!.children = [...leading, ...items[0]!.children];
  return items;
}

/** The group's tags as the text they are and its content, for a group of no item. */
function groupAsText(group: ContainerGroup, scope: TagScope): DocumentTopLevelBlock[] {
  const [open, close] = group.tags;
  return [...scope.asText([open]), ...scope.content(group.children, scope.holdsFiles), ...scope.asText([close])];
}

function columnOptions({ width, verticalAlignment }: ColumnOptions): ColumnOptions {
  return { ...(width === undefined ? {} : { width }), ...(verticalAlignment ? { verticalAlignment } : {}) };
}

export function containerBlocks(group: ContainerGroup, scope: TagScope): DocumentTopLevelBlock[] {
  const { tag } = group;
  switch (tag.kind) {
    case 'stepper': {
      const steps = itemsOf(group, 'step');
      if (steps.length === 0) return groupAsText(group, scope);
      return [stepperBlock(steps.map(({ children }) => orEmptyParagraph(fitTab(scope.content(children, true)))))];
    }
    case 'columns': {
      const columns = itemsOf(group, 'column');
      if (columns.length === 0) return groupAsText(group, scope);
      const options = tag.fullWidth === undefined ? {} : { fullWidth: tag.fullWidth };
      return [
        columnsBlock(
          options,
          columns.map(({ item, children }) => ({
            options: columnOptions(item.tag as { kind: 'column' } & ColumnOptions),
            nodes: orEmptyParagraph(fitColumn(scope.content(children, true))),
          })),
        ),
      ];
    }
    case 'updates': {
      const updates = itemsOf(group, 'update');
      if (updates.length === 0) return groupAsText(group, scope);
      return [
        updatesBlock(
          tag.format,
          updates.map(({ item, children }) => {
            const { date, tags } = item.tag as { kind: 'update' } & UpdateOptions;
            return { options: { date, tags }, nodes: orEmptyParagraph(fitUpdate(scope.content(children, true))) };
          }),
        ),
      ];
    }
    case 'if':
      return [ifBlock(tag.expression, orEmptyParagraph(scope.content(group.children, true)))];
    default:
      // Steps, columns and updates are made whole by their parent; they are never grouped outside it.
      return scope.content(group.children, scope.holdsFiles);
  }
}

export function wrappedBlocks(group: WrappedGroup, scope: TagScope): DocumentTopLevelBlock[] {
  const { tag, body } = group;
  switch (tag.kind) {
    case 'file': {
      const caption = tag.caption ?? (body ? plainText(body).trim() : '');
      return [fileBlock({ src: tag.src, caption }, scope.holdsFiles)];
    }
    case 'embed':
      return [embedBlock({ url: tag.url, ...(tag.fullWidth === undefined ? {} : { fullWidth: tag.fullWidth }) })];
    case 'include':
      return [reusableContentBlock(tag.reusableContent)];
    case 'content-ref':
      return [contentRefBlock(linkUrlOf(body) ?? tag.url)];
    case 'openapi':
      return [openAPIBlock(tag, linkUrlOf(body))];
    case 'openapi-operation':
      return [operationBlock(tag)];
    case 'openapi-schemas':
      return [schemasBlock(tag)];
    case 'code':
      return [withCodeOptions(scope.code(body as Code), tag.options)];
    case 'prompt':
      return [promptBlock(tag.options, scope.code(body as Code))];
  }
}
