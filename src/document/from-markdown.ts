import type { Heading, List, ListItem, Paragraph, Root } from 'mdast';
import { isEmptyInlineContent, leaf, paragraph, textNode } from './build.js';
import { expandableBlock, summaryPhrasing } from './expandable.js';
import { fitHint, fitListItem, fitQuote, orEmptyParagraph } from './fit.js';
import { groupBlockTags, type FlowNode, type TabsGroup, type TagGroup } from './group-tags.js';
import { explicitHeadingId } from './heading-ids.js';
import { githubAlert } from './hints.js';
import { htmlBlocks, MAX_HTML_BLOCKS, type HtmlBlocksContext } from './html-blocks.js';
import { inlineContent, type Definitions } from './inline-from-markdown.js';
import { isolateBlockTags } from './isolate-tags.js';
import { withKeys } from './keys.js';
import { imageRefFromUrl } from './links.js';
import { MAX_NESTING, parseMarkdown, visitTree } from './markdown-tree.js';
import { tableBlock } from './table-from-markdown.js';
import { containerBlocks, wrappedBlocks, type TagScope } from './tag-blocks.js';
import { tabsBlock } from './tabs.js';
import type {
  DocumentBlockCode,
  DocumentBlockHeading,
  DocumentBlockHint,
  DocumentBlockImage,
  DocumentBlockImages,
  DocumentBlockListItem,
  DocumentTopLevelBlock,
  HintStyle,
  JSONDocument,
} from './types.js';

/**
 * GitBook's JSON document for a page's markdown. Frontmatter and link
 * definitions have no block of their own; HTML comments are dropped, other
 * HTML blocks shown as `html` code, inline HTML tags dropped around their text.
 * Keys are numbered in document order, so the same markdown gives the same document.
 */
export function markdownToDocument(markdown: string): JSONDocument {
  return documentOfTree(markdownTree(markdown));
}

/** A page's markdown parsed, each block tag (hints, tabs, files, expandables) a block of its own. */
export function markdownTree(markdown: string): Root {
  const tree = parseMarkdown(markdown);
  isolateBlockTags(tree);
  return tree;
}

/** The JSON document of a page's tree as `markdownTree` gives it. */
export function documentOfTree(tree: Root): JSONDocument {
  return withKeys({
    object: 'document',
    data: {},
    nodes: flow(tree.children, {
      definitions: collectDefinitions(tree),
      depth: 0,
      holdsFiles: true,
      htmlBudget: { blocks: MAX_HTML_BLOCKS },
    }),
  });
}

/** What the conversion of a block needs from around it. */
interface Scope {
  definitions: Definitions;
  /** Containers around the block; past MAX_NESTING, containers give their content and no nesting. */
  depth: number;
  /** Whether the container holds file blocks (the page and tabs do); elsewhere a file is a link. */
  holdsFiles: boolean;
  /** Shared by the whole page: how many more HTML blocks may be parsed for GitBook's blocks. */
  htmlBudget: { blocks: number };
}

function inner(scope: Scope, holdsFiles = false): Scope {
  return { ...scope, depth: scope.depth + 1, holdsFiles };
}

function collectDefinitions(tree: Root): Definitions {
  const definitions: Definitions = new Map();
  visitTree(tree, (node) => {
    // The first definition of a label wins, as in CommonMark.
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
  });
  return definitions;
}

function flow(children: FlowNode[], scope: Scope): DocumentTopLevelBlock[] {
  return groupBlockTags(children).flatMap((node) => block(node, scope));
}

function block(node: FlowNode, scope: Scope): DocumentTopLevelBlock[] {
  const { definitions } = scope;
  if (scope.depth >= MAX_NESTING && isContainer(node)) {
    // Far past any real page: the content is kept, the nesting that would overflow the stack is not.
    return flatContent(node).flatMap((content) => block(content, scope));
  }
  switch (node.type) {
    case 'paragraph':
      return paragraphBlocks(node, definitions);
    case 'heading':
      return [heading(node, definitions)];
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', data: {}, isVoid: true }];
    case 'blockquote': {
      const alert = githubAlert(node);
      if (alert) return [hint(alert.style, alert.children, scope)];
      return [
        {
          object: 'block',
          type: 'blockquote',
          data: {},
          nodes: orEmptyParagraph(fitQuote(flow(node.children, inner(scope)))),
        },
      ];
    }
    case 'hint':
      return [hint(node.style, node.children, scope, node.icon)];
    case 'tabs':
      return tabs(node, scope);
    case 'tab':
      // Tabs are made whole by `tabs`; a tab is never grouped outside them.
      return flow(node.children, inner(scope, scope.holdsFiles));
    case 'details':
      return [expandableBlock(node, definitions, (children) => flow(children, inner(scope)))];
    case 'container':
      return containerBlocks(node, tagScope(scope));
    case 'wrapped':
      return wrappedBlocks(node, tagScope(scope));
    case 'math':
      return [{ object: 'block', type: 'math', data: { formula: node.value }, isVoid: true }];
    case 'list':
      return [list(node, scope)];
    case 'code':
      return [codeBlock(node.value, node.lang)];
    case 'html':
      // Comments are meant to be unseen; HTML GitBook writes is its blocks; other HTML is shown as its source.
      if (node.value.trimStart().startsWith('<!--')) return [];
      return htmlBlocks(node.value, htmlContext(scope)) ?? [codeBlock(node.value, 'html')];
    case 'table':
      return [tableBlock(node, definitions)];
    case 'footnoteDefinition':
      return flow(node.children, scope);
    default:
      return [];
  }
}

/** How an HTML block's content (a table cell, a caption) is read: as the page's own markdown is, one level deeper. */
function htmlContext(scope: Scope): HtmlBlocksContext {
  return {
    definitions: scope.definitions,
    budget: scope.htmlBudget,
    flow: (children) => flow(children, inner(scope)),
  };
}

type Container = Extract<FlowNode, { type: 'blockquote' | 'list' | 'listItem' | 'footnoteDefinition' }> | TagGroup;

const CONTAINERS = new Set([
  'blockquote',
  'list',
  'listItem',
  'footnoteDefinition',
  'hint',
  'tabs',
  'tab',
  'details',
  'container',
]);

function isContainer(node: FlowNode): node is Container {
  return CONTAINERS.has(node.type);
}

/** What a container shows before its children: a tab's title, an expandable's summary. */
function titleOf(container: Container): FlowNode[] {
  if (container.type === 'tab' && container.title !== '')
    return [{ type: 'paragraph', children: [{ type: 'text', value: container.title }] }];
  if (container.type === 'details' && container.summary !== null)
    return [{ type: 'paragraph', children: summaryPhrasing(container.summary) }];
  return [];
}

/** The blocks inside a container that are not containers themselves, in order; a loop, however deep they sit. */
function flatContent(container: Container): FlowNode[] {
  const found: FlowNode[] = [];
  const pending: FlowNode[] = [container];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (!isContainer(node)) found.push(node);
    else for (const child of [...titleOf(node), ...node.children].reverse()) pending.push(child);
  }
  return found;
}

const HEADING_TYPES = ['heading-1', 'heading-2', 'heading-3'] as const;

/** A heading; an id its author gave it with an anchor (`<a id="x"></a>`) is its `data.id`. */
function heading(node: Heading, definitions: Definitions): DocumentBlockHeading {
  const type = HEADING_TYPES[Math.min(node.depth, 3) - 1]!;
  const explicit = explicitHeadingId(node.children);
  const nodes = inlineContent(explicit?.children ?? node.children, definitions);
  return { object: 'block', type, data: explicit ? { id: explicit.id } : {}, nodes };
}

function paragraphBlocks(node: Paragraph, definitions: Definitions): DocumentTopLevelBlock[] {
  if (isImagesOnly(node, definitions)) return [imagesBlock(node, definitions)];
  const nodes = inlineContent(node.children, definitions);
  // A paragraph of nothing but dropped HTML would be an empty paragraph markdown cannot write back.
  return isEmptyInlineContent(nodes) ? [] : [paragraph(nodes)];
}

/** A paragraph of images and the spaces between them is GitBook's image block. */
function isImagesOnly(node: Paragraph, definitions: Definitions): boolean {
  const isImage = (child: Paragraph['children'][number]) =>
    child.type === 'image' || (child.type === 'imageReference' && definitions.has(child.identifier));
  return (
    node.children.some(isImage) &&
    node.children.every(
      (child) => isImage(child) || child.type === 'break' || (child.type === 'text' && child.value.trim() === ''),
    )
  );
}

function imagesBlock(node: Paragraph, definitions: Definitions): DocumentBlockImages {
  const images = node.children.flatMap((child) => {
    if (child.type === 'image') return [image(child.url, child.alt, child.title)];
    if (child.type !== 'imageReference') return [];
    const definition = definitions.get(child.identifier);
    return definition ? [image(definition.url, child.alt, definition.title)] : [];
  });
  return { object: 'block', type: 'images', data: {}, nodes: images, isVoid: false };
}

/** An image; its markdown title is its caption. */
function image(url: string, alt: string | null | undefined, title: string | null | undefined): DocumentBlockImage {
  return {
    object: 'block',
    type: 'image',
    data: { ref: imageRefFromUrl(url), ...(alt ? { alt } : {}) },
    fragments: title
      ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([textNode([leaf(title)])])] }]
      : [],
    isVoid: true,
  };
}

/** Tabs, or, when they hold no tab, their tags as the text they are and their content. */
function tabs(group: TabsGroup, scope: Scope): DocumentTopLevelBlock[] {
  const block = tabsBlock(group, (children) => flow(children, inner(scope, true)));
  if (block) return [block];
  const [open, close] = group.tags;
  // One level deeper all the same, so that tabs of no tab nested past MAX_NESTING are flattened, not recursed into.
  return [
    ...paragraphBlocks(open as Paragraph, scope.definitions),
    ...flow(group.children, inner(scope, scope.holdsFiles)),
    ...paragraphBlocks(close as Paragraph, scope.definitions),
  ];
}

/** What the blocks of other tags (tag-blocks.ts) need from the conversion. */
function tagScope(scope: Scope): TagScope {
  return {
    content: (children, holdsFiles) => flow(children, inner(scope, holdsFiles)),
    asText: (children) => children.flatMap((child) => block(child, scope)),
    code: (node) => codeBlock(node.value, node.lang),
    holdsFiles: scope.holdsFiles,
  };
}

function hint(style: HintStyle, children: FlowNode[], scope: Scope, icon?: string): DocumentBlockHint {
  return {
    object: 'block',
    type: 'hint',
    data: icon === undefined ? { style } : { style, icon },
    nodes: orEmptyParagraph(fitHint(flow(children, inner(scope)))),
  };
}

/** A list with any checkbox is a task list, numbered or not: GitBook has no numbered task list. */
function list(node: List, scope: Scope): DocumentTopLevelBlock {
  const tasks = node.children.some((item) => item.checked !== null && item.checked !== undefined);
  const nodes = node.children.map((item) => listItem(item, tasks, inner(scope)));
  if (tasks) return { object: 'block', type: 'list-tasks', data: {}, nodes };
  if (!node.ordered) return { object: 'block', type: 'list-unordered', data: {}, nodes };
  const start = node.start ?? 1;
  return { object: 'block', type: 'list-ordered', data: start === 1 ? {} : { start }, nodes };
}

function listItem(item: ListItem, tasks: boolean, scope: Scope): DocumentBlockListItem {
  return {
    object: 'block',
    type: 'list-item',
    data: tasks ? { checked: item.checked === true } : {},
    nodes: orEmptyParagraph(fitListItem(flow(item.children, scope))),
  };
}

function codeBlock(value: string, syntax: string | null | undefined): DocumentBlockCode {
  const lines = value.split(/\r\n|\r|\n/).map((line) => ({
    object: 'block' as const,
    type: 'code-line' as const,
    data: {},
    nodes: [textNode([leaf(line)])],
  }));
  return { object: 'block', type: 'code', data: syntax ? { syntax } : {}, nodes: lines };
}
