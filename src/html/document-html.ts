import type { Element, ElementContent, Root } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { HEADING_ID, HeadingIds } from '../core/heading-anchors.js';
import { cardsTable } from './cards-html.js';
import { codeBlock, promptBlock } from './code-html.js';
import {
  columnsBlock,
  expandableBlock,
  hintBlock,
  ifBlock,
  stepperBlock,
  tabsBlock,
  updatesBlock,
} from './container-html.js';
import { alignClass, classes, ownEntry, plainText, safeUrl, stringField } from './html-helpers.js';
import { drawingBlock, imageFigure, imagesBlock } from './image-html.js';
import { inlineNode } from './inline-html.js';
import { contentRefBlock, embedBlock, fileBlock, openapiBlock } from './link-cards-html.js';
import { MathRenderer } from './math-html.js';
import type { AnyNode, RenderContext, RenderedDocument, RenderedHeading, RenderInput } from './render-types.js';
import { READER_SANITIZE_SCHEMA } from './sanitize-schema.js';
import { gridTable } from './table-html.js';

export type { ReferencedFile, RenderInput, RenderedDocument, RenderedHeading } from './render-types.js';
export { safeUrl };

/**
 * A page's JSON document as HTML, with its headings. Every string of the
 * document lands in a text node or an attribute, which the serializer escapes;
 * URLs keep only the schemes a reader can follow safely, and the sanitizer
 * runs over the result all the same, so that a bug here cannot put a script
 * on a reader's page. Runs on the conversion pool.
 */
export function renderDocument(input: RenderInput): RenderedDocument {
  const renderer = new Renderer(input);
  const body = renderer.blocks(input.document.nodes);
  const tree = sanitize({ type: 'root', children: body } satisfies Root, READER_SANITIZE_SCHEMA);
  return { html: toHtml(tree), headings: renderer.headings };
}

/** The document's renderer: the blocks every page has here, the rest by family in this folder's other files. */
class Renderer implements RenderContext {
  readonly headings: RenderedHeading[] = [];
  insideLink = false;
  insideCard = false;
  private insideReusable = false;
  private readonly headingIds = new HeadingIds();
  // Apart from the headings', as the link checker counts them (document/facts.ts), so that no heading's id moves.
  private readonly expandableIds = new HeadingIds();
  private readonly math = new MathRenderer();
  private readonly ids = new Map<string, number>();

  constructor(readonly input: RenderInput) {}

  blocks(nodes: AnyNode[] | undefined): ElementContent[] {
    return (nodes ?? []).flatMap((node) => this.block(node));
  }

  inlines(nodes: AnyNode[] | undefined): ElementContent[] {
    return (nodes ?? []).flatMap((node) => inlineNode(this, this.math, node));
  }

  uniqueId(prefix: string): string {
    const count = (this.ids.get(prefix) ?? 0) + 1;
    this.ids.set(prefix, count);
    return `${prefix}-${count}`;
  }

  expandableId(title: string): string | undefined {
    if (this.insideReusable || this.insideCard) return undefined;
    const { id } = this.expandableIds.next(title.replace(/\s+/g, ' ').trim());
    // A heading above with the same id keeps it: a link to it lands there, and a page's ids stay unique.
    return this.headings.some((heading) => heading.id === id) ? undefined : id;
  }

  withinCard<T>(linked: boolean, render: () => T): T {
    const [link, card] = [this.insideLink, this.insideCard];
    this.insideLink ||= linked;
    this.insideCard = true;
    try {
      return render();
    } finally {
      [this.insideLink, this.insideCard] = [link, card];
    }
  }

  private block(node: AnyNode): ElementContent[] {
    switch (node.type) {
      case 'paragraph':
        return [h('p', classes(alignClass(node.data?.align)), this.inlines(node.nodes))];
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return [this.heading(node)];
      case 'list-unordered':
        return [h('ul', this.listItems(node, false))];
      case 'list-ordered': {
        const start = node.data?.start;
        return [h('ol', typeof start === 'number' && start !== 1 ? { start } : {}, this.listItems(node, false))];
      }
      case 'list-tasks':
        return [h('ul.task-list', this.listItems(node, true))];
      case 'divider':
        return [h('hr')];
      case 'blockquote':
        return [h('blockquote', this.blocks(node.nodes))];
      case 'hint':
        return [hintBlock(this, node)];
      case 'code':
        return [codeBlock(node)];
      case 'prompt':
        return [promptBlock(node)];
      case 'images':
        return [imagesBlock(this, node)];
      case 'image':
        return [imageFigure(this, node)];
      case 'table':
        return [
          (node.data?.view as { type?: string } | undefined)?.type === 'cards'
            ? cardsTable(this, node)
            : gridTable(this, node),
        ];
      case 'tabs':
        return [tabsBlock(this, node)];
      case 'expandable':
        return [expandableBlock(this, node)];
      case 'stepper':
        return [stepperBlock(this, node)];
      case 'columns':
        return [columnsBlock(this, node)];
      case 'updates':
        return [updatesBlock(this, node)];
      case 'if':
        return ifBlock(this, node);
      case 'file':
        return [fileBlock(this, node)];
      case 'embed':
      case 'integration':
        // An integration block unfurled from a URL keeps it: the reader links there, as for an embed.
        return embedBlock(node);
      case 'drawing':
        return [drawingBlock(this, node)];
      case 'reusable-content':
        return this.reusableContent(node);
      case 'content-ref':
        return contentRefBlock(this, node);
      case 'swagger':
      case 'openapi-operation':
      case 'openapi-schemas':
      case 'openapi-webhook':
        return [openapiBlock(this, node)];
      case 'math':
        return [this.math.render(stringField(node.data, 'formula') ?? '', true)];
      default:
        // A block this renderer does not know yet: its content, if it has any, rather than nothing.
        return node.nodes ? this.blocks(node.nodes) : [];
    }
  }

  /** An included reusable content: its blocks in place, once deep (an include inside one is not followed). */
  private reusableContent(node: AnyNode): ElementContent[] {
    const ref = node.data?.ref as { reusableContent?: unknown } | undefined;
    const id = typeof ref?.reusableContent === 'string' ? ref.reusableContent : undefined;
    const included = id ? ownEntry(this.input.reusableContents, id) : undefined;
    if (!included || this.insideReusable) return [];
    this.insideReusable = true;
    try {
      return this.blocks(included.nodes);
    } finally {
      this.insideReusable = false;
    }
  }

  /** A heading, anchored by its explicit id when it has one; in a card, the card's title rather than a section. */
  private heading(node: AnyNode): Element {
    const depth = Number(node.type!.slice(-1)) as 1 | 2 | 3;
    const title = plainText(node);
    const align = alignClass(node.data?.align);
    if (this.insideCard) return h('p', { className: ['card-title', ...align] }, this.inlines(node.nodes));
    // An explicit anchor is the author's (`## Title {#id}`); it is taken, so no later slug repeats it.
    const explicit = stringField(node.data, 'id');
    // Else GitBook's id for the title (core/heading-anchors.ts); the id this reader gave before stays a target too.
    const { id, legacyId } = this.headingIds.next(
      title,
      explicit !== undefined && HEADING_ID.test(explicit) ? explicit : undefined,
    );
    this.headings.push({ id, title, depth });
    // The page's title is its h1; the document's headings sit under it.
    return h(`h${depth + 1}`, { id, ...classes(align) }, [
      ...(legacyId === id ? [] : [h('span', { id: legacyId })]),
      ...this.inlines(node.nodes),
      h('a.anchor', { href: `#${id}`, ariaLabel: `Link to ${title || 'this section'}` }, '#'),
    ]);
  }

  private listItems(node: AnyNode, tasks: boolean): Element[] {
    return (node.nodes ?? []).map((item) => {
      const content = this.listItemContent(item);
      if (!tasks) return h('li', content);
      const checked = item.data?.checked === true;
      return h('li.task', [
        h('input', { type: 'checkbox', disabled: true, checked, ariaLabel: checked ? 'done' : 'to do' }),
        ...content,
      ]);
    });
  }

  /** A list item whose only child is a paragraph reads as a tight item: its text, not a paragraph. */
  private listItemContent(item: AnyNode): ElementContent[] {
    const children = item.nodes ?? [];
    if (children.length === 1 && children[0]!.type === 'paragraph') return this.inlines(children[0]!.nodes);
    return this.blocks(children);
  }

  linkTarget(ref: unknown): string | undefined {
    const value = ref as { kind?: string; url?: string; page?: string; space?: string; anchor?: string; file?: string };
    switch (value?.kind) {
      case 'url':
        return safeUrl(value.url);
      case 'page':
        return value.page ? ownEntry(this.input.pages, `${value.space ?? ''}/${value.page}`) : undefined;
      case 'anchor': {
        const anchor = `#${encodeURIComponent(value.anchor ?? '')}`;
        if (!value.page) return anchor;
        const page = ownEntry(this.input.pages, `${value.space ?? ''}/${value.page}`);
        return page ? `${page}${anchor}` : undefined;
      }
      case 'file':
        return value.file ? ownEntry(this.input.files, value.file)?.url : undefined;
      default:
        return undefined;
    }
  }

  imageSource(ref: unknown): string | undefined {
    const value = ref as { kind?: string; url?: string; file?: string };
    if (value?.kind === 'url') return safeUrl(value.url);
    if (value?.kind === 'file' && value.file) return ownEntry(this.input.files, value.file)?.url;
    return undefined;
  }
}
