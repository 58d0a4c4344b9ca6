import type { Heading, List, ListItem, Paragraph, Root, RootContent } from 'mdast';
import { isEmptyInlineContent, leaf, paragraph, textNode } from './build.js';
import { fitHint, fitListItem, fitQuote, orEmptyParagraph } from './fit.js';
import { githubAlert, groupHints, isolateHintTags, type HintGroup } from './hints.js';
import { inlineContent, type Definitions } from './inline-from-markdown.js';
import { withKeys } from './keys.js';
import { imageRefFromUrl } from './links.js';
import { MAX_NESTING, parseMarkdown, visitTree } from './markdown-tree.js';
import { tableBlock } from './table-from-markdown.js';
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
  return documentOfTree(parseMarkdown(markdown));
}

/** The JSON document of a parsed page; the tree's hint tags are split apart on the way. */
export function documentOfTree(tree: Root): JSONDocument {
  isolateHintTags(tree);
  return withKeys({
    object: 'document',
    data: {},
    nodes: flow(tree.children, { definitions: collectDefinitions(tree), depth: 0 }),
  });
}

/** What the conversion of a block needs from around it. */
interface Scope {
  definitions: Definitions;
  /** Containers around the block; past MAX_NESTING, containers give their content and no nesting. */
  depth: number;
}

function inner(scope: Scope): Scope {
  return { ...scope, depth: scope.depth + 1 };
}

function collectDefinitions(tree: Root): Definitions {
  const definitions: Definitions = new Map();
  visitTree(tree, (node) => {
    // The first definition of a label wins, as in CommonMark.
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
  });
  return definitions;
}

function flow(children: Array<RootContent | HintGroup>, scope: Scope): DocumentTopLevelBlock[] {
  return groupHints(children).flatMap((node) => block(node, scope));
}

function block(node: RootContent | HintGroup, scope: Scope): DocumentTopLevelBlock[] {
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
      return [hint(node.style, node.children, scope)];
    case 'list':
      return [list(node, scope)];
    case 'code':
      return [codeBlock(node.value, node.lang)];
    case 'html':
      // Comments are meant to be unseen; other HTML has no GitBook block, so its source is shown.
      return node.value.trimStart().startsWith('<!--') ? [] : [codeBlock(node.value, 'html')];
    case 'table':
      return [tableBlock(node, definitions)];
    case 'footnoteDefinition':
      return flow(node.children, scope);
    default:
      return [];
  }
}

type Container = Extract<RootContent, { type: 'blockquote' | 'list' | 'listItem' | 'footnoteDefinition' }> | HintGroup;

function isContainer(node: RootContent | HintGroup): node is Container {
  return ['blockquote', 'list', 'listItem', 'footnoteDefinition', 'hint'].includes(node.type);
}

/** The blocks inside a container that are not containers themselves, in order; a loop, however deep they sit. */
function flatContent(container: Container): Array<RootContent | HintGroup> {
  const found: Array<RootContent | HintGroup> = [];
  const pending: Array<RootContent | HintGroup> = [container];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (isContainer(node)) for (let i = node.children.length - 1; i >= 0; i -= 1) pending.push(node.children[i]!);
    else found.push(node);
  }
  return found;
}

const HEADING_TYPES = ['heading-1', 'heading-2', 'heading-3'] as const;

function heading(node: Heading, definitions: Definitions): DocumentBlockHeading {
  const type = HEADING_TYPES[Math.min(node.depth, 3) - 1]!;
  return { object: 'block', type, data: {}, nodes: inlineContent(node.children, definitions) };
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

function hint(style: HintStyle, children: Array<RootContent | HintGroup>, scope: Scope): DocumentBlockHint {
  return {
    object: 'block',
    type: 'hint',
    data: { style },
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
