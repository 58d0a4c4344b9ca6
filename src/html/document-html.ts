import type { Element, ElementContent, Root } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { HEADING_ID, HeadingIds } from '../core/heading-anchors.js';
import type { JSONDocument } from '../document/types.js';
import { highlightCode } from './highlight.js';
import { READER_SANITIZE_SCHEMA } from './sanitize-schema.js';

/** A file a document shows or offers for download, with the address the reader serves it at. */
export interface ReferencedFile {
  url: string;
  name: string;
  size: number;
  contentType: string;
}

/** What the renderer needs besides the document: where its page and file references lead. */
export interface RenderInput {
  document: JSONDocument;
  /** The address of each page referenced, keyed `{space or ''}/{page id}`; a page left out is shown as plain text. */
  pages: Record<string, string>;
  files: Record<string, ReferencedFile>;
}

/** A heading of the page, for its table of contents. */
export interface RenderedHeading {
  id: string;
  title: string;
  depth: 1 | 2 | 3;
}

export interface RenderedDocument {
  html: string;
  headings: RenderedHeading[];
}

/** Any node of a document, read loosely: documents may hold block types newer than this renderer. */
interface AnyNode {
  object?: string;
  type?: string;
  key?: string;
  data?: Record<string, unknown>;
  nodes?: AnyNode[];
  fragments?: AnyNode[];
  fragment?: string;
  leaves?: Array<{ text: string; marks?: Array<{ type: string }> }>;
}

const HINT_LABELS: Record<string, string> = { info: 'Info', warning: 'Warning', danger: 'Danger', success: 'Success' };
const MARK_TAGS: Record<string, string> = { bold: 'strong', italic: 'em', strikethrough: 's', code: 'code' };

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

class Renderer {
  readonly headings: RenderedHeading[] = [];
  private readonly headingIds = new HeadingIds();
  private tabsCount = 0;

  constructor(private readonly input: RenderInput) {}

  blocks(nodes: AnyNode[] | undefined): ElementContent[] {
    return (nodes ?? []).flatMap((node) => this.block(node));
  }

  private block(node: AnyNode): ElementContent[] {
    switch (node.type) {
      case 'paragraph':
        return [h('p', this.inlines(node.nodes))];
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
        return [this.hint(node)];
      case 'code':
        return [this.code(node)];
      case 'images':
        return (node.nodes ?? []).map((image) => this.image(image));
      case 'image':
        return [this.image(node)];
      case 'table':
        return [this.table(node)];
      case 'tabs':
        return [this.tabs(node)];
      case 'expandable':
        return [this.expandable(node)];
      case 'file':
        return [this.file(node)];
      default:
        // A block this renderer does not know yet: its content, if it has any, rather than nothing.
        return node.nodes ? this.blocks(node.nodes) : [];
    }
  }

  private heading(node: AnyNode): Element {
    const depth = Number(node.type!.slice(-1)) as 1 | 2 | 3;
    const title = plainText(node);
    // The author's id, else GitBook's for the title; the id this reader gave before stays a target too.
    const given = node.data?.id;
    const { id, legacyId } = this.headingIds.next(
      title,
      typeof given === 'string' && HEADING_ID.test(given) ? given : undefined,
    );
    this.headings.push({ id, title, depth });
    // The page's title is its h1; the document's headings sit under it.
    return h(`h${depth + 1}`, { id }, [
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

  private hint(node: AnyNode): Element {
    const style = typeof node.data?.style === 'string' && node.data.style in HINT_LABELS ? node.data.style : 'info';
    return h(`div.hint.hint-${style}`, { role: 'note', ariaLabel: HINT_LABELS[style] }, this.blocks(node.nodes));
  }

  private code(node: AnyNode): Element {
    const code = (node.nodes ?? []).map((line) => plainText(line)).join('\n');
    const syntax = typeof node.data?.syntax === 'string' ? node.data.syntax : undefined;
    const tokens = highlightCode(code, syntax);
    const language = syntax && /^[\w+#-]{1,32}$/.test(syntax) ? syntax.toLowerCase() : undefined;
    const attributes = language ? { className: ['hljs', `language-${language}`] } : { className: ['hljs'] };
    return h('pre', { tabIndex: 0 }, [h('code', attributes, tokens ?? [{ type: 'text', value: code }])]);
  }

  private image(node: AnyNode): Element {
    const source = this.imageSource(node.data?.ref);
    const alt = typeof node.data?.alt === 'string' ? node.data.alt : '';
    const caption = node.fragments?.find((fragment) => fragment.fragment === 'caption');
    const captionContent = caption ? this.blocks(caption.nodes).flatMap(unwrapParagraph) : [];
    const image = source ? h('img', { src: source, alt, loading: 'lazy' }) : h('span.missing', alt || 'image');
    return h('figure', [image, ...(captionContent.length > 0 ? [h('figcaption', captionContent)] : [])]);
  }

  private table(node: AnyNode): Element {
    const data = node.data as {
      view?: { columns?: string[]; hideHeader?: boolean };
      records?: Record<string, { orderIndex: string; values: Record<string, string> }>;
      definition?: Record<string, { title?: string; textAlignment?: string }>;
    };
    const columns = (data.view?.columns ?? []).filter((id) => data.definition?.[id]);
    const fragments = new Map((node.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
    const align = (id: string) => {
      const alignment = data.definition?.[id]?.textAlignment;
      return alignment === 'center' || alignment === 'right' ? { className: [`align-${alignment}`] } : {};
    };
    const records = Object.values(data.records ?? {}).sort((a, b) =>
      a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
    );
    const head = data.view?.hideHeader
      ? []
      : [
          h(
            'thead',
            h(
              'tr',
              columns.map((id) => h('th', { scope: 'col', ...align(id) }, data.definition![id]!.title ?? '')),
            ),
          ),
        ];
    const rows = records.map((record) =>
      h(
        'tr',
        columns.map((id) => {
          const fragment = fragments.get(record.values[id] ?? '');
          return h('td', align(id), fragment ? this.blocks(fragment.nodes).flatMap(unwrapParagraph) : []);
        }),
      ),
    );
    return h('div.table-wrapper', { tabIndex: 0 }, [h('table', [...head, h('tbody', rows)])]);
  }

  /** Tabs that work without script: a radio button per tab, and CSS shows the panel after the checked one. */
  private tabs(node: AnyNode): Element {
    const group = `tabs-${++this.tabsCount}`;
    const items = node.nodes ?? [];
    return h(
      'div.tabs',
      items.flatMap((item, index) => {
        const id = `${group}-${index}`;
        const title = typeof item.data?.title === 'string' && item.data.title ? item.data.title : `Tab ${index + 1}`;
        return [
          h('input.tab-radio', { type: 'radio', name: group, id, checked: index === 0 }),
          h('label.tab-label', { htmlFor: id }, title),
          h('div.tab-panel', this.blocks(item.nodes)),
        ];
      }),
    );
  }

  private expandable(node: AnyNode): Element {
    const title = node.fragments?.find((fragment) => fragment.fragment === 'expandable-title');
    const body = node.fragments?.find((fragment) => fragment.fragment === 'expandable-body');
    const summary = title ? this.blocks(title.nodes).flatMap(unwrapParagraph) : [];
    return h('details.expandable', [
      h('summary', summary.length > 0 ? summary : ['Details']),
      h('div.expandable-body', this.blocks(body?.nodes)),
    ]);
  }

  private file(node: AnyNode): Element {
    const ref = node.data?.ref as { kind?: string; file?: string } | undefined;
    const file = ref?.kind === 'file' && ref.file ? this.input.files[ref.file] : undefined;
    if (!file) return h('p.file.missing', 'A file that is no longer in this space');
    return h('p.file', [
      h('a', { href: file.url, download: file.name }, file.name),
      h('span.file-size', ` (${formatSize(file.size)})`),
    ]);
  }

  inlines(nodes: AnyNode[] | undefined): ElementContent[] {
    return (nodes ?? []).flatMap((node) => this.inline(node));
  }

  private inline(node: AnyNode): ElementContent[] {
    if (node.object === 'text') return (node.leaves ?? []).map(leafContent);
    if (node.type === 'link') {
      const href = this.linkTarget(node.data?.ref);
      const content = this.inlines(node.nodes);
      return href ? [h('a', { href }, content)] : content;
    }
    if (node.type === 'inline-image') {
      const source = this.imageSource(node.data?.ref);
      const alt = typeof node.data?.alt === 'string' ? node.data.alt : '';
      return source ? [h('img', { src: source, alt, loading: 'lazy' })] : [];
    }
    return this.inlines(node.nodes);
  }

  private linkTarget(ref: unknown): string | undefined {
    const value = ref as { kind?: string; url?: string; page?: string; space?: string; anchor?: string; file?: string };
    switch (value?.kind) {
      case 'url':
        return safeUrl(value.url);
      case 'page':
        return value.page ? this.input.pages[`${value.space ?? ''}/${value.page}`] : undefined;
      case 'anchor': {
        const anchor = `#${encodeURIComponent(value.anchor ?? '')}`;
        if (!value.page) return anchor;
        const page = this.input.pages[`${value.space ?? ''}/${value.page}`];
        return page ? `${page}${anchor}` : undefined;
      }
      case 'file':
        return value.file ? this.input.files[value.file]?.url : undefined;
      default:
        return undefined;
    }
  }

  private imageSource(ref: unknown): string | undefined {
    const value = ref as { kind?: string; url?: string; file?: string };
    if (value?.kind === 'url') return safeUrl(value.url);
    if (value?.kind === 'file' && value.file) return this.input.files[value.file]?.url;
    return undefined;
  }
}

/** A leaf's text inside its marks, code innermost. */
function leafContent(leaf: { text: string; marks?: Array<{ type: string }> }): ElementContent {
  let content: ElementContent = { type: 'text', value: leaf.text };
  const marks = [...(leaf.marks ?? [])].sort((a, b) => (a.type === 'code' ? -1 : b.type === 'code' ? 1 : 0));
  for (const mark of marks) {
    const tag = MARK_TAGS[mark.type];
    if (tag) content = h(tag, [content]);
  }
  return content;
}

function plainText(node: AnyNode): string {
  if (node.object === 'text') return (node.leaves ?? []).map((leaf) => leaf.text).join('');
  return (node.nodes ?? []).map(plainText).join('');
}

/** A paragraph's content without the paragraph, where a caption or a cell holds one line. */
function unwrapParagraph(element: ElementContent): ElementContent[] {
  return element.type === 'element' && element.tagName === 'p' ? element.children : [element];
}

/** http(s), mailto and tel addresses, and those relative to the page; anything else (javascript:, data:) is dropped. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const trimmed = url.trim();
  if (/^(?:https?:|mailto:|tel:)/i.test(trimmed)) return trimmed;
  if (/^[/#?.]/.test(trimmed) && !trimmed.startsWith('//')) return trimmed;
  // A scheme-less word ("docs/intro") is relative too, unless it names a scheme before any slash.
  return /^[^:/?#]+(?:[/?#]|$)/.test(trimmed) ? trimmed : undefined;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
