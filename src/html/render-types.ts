import type { ElementContent } from 'hast';
import type { JSONDocument } from '../document/types.js';

/** A file a document shows or offers for download, with the address the reader serves it at. */
export interface ReferencedFile {
  url: string;
  name: string;
  size: number;
  contentType: string;
  /** An image's own size in pixels, when the space knows it: the reader reserves its room before it loads. */
  width?: number | undefined;
  height?: number | undefined;
}

/** What the renderer needs besides the document: where its page and file references lead. */
export interface RenderInput {
  document: JSONDocument;
  /** The address of each page referenced, keyed `{space or ''}/{page id}`; a page left out is shown as plain text. */
  pages: Record<string, string>;
  files: Record<string, ReferencedFile>;
  /** The title of each page referenced that the reader knows, keyed as `pages`: a content-ref card shows it. */
  pageTitles?: Record<string, string>;
  /** The document of each reusable content the page includes, by its id: shown in place of the include. */
  reusableContents?: Record<string, JSONDocument>;
  /** The reader's address of each OpenAPI spec's reference (a computed page), by the spec's slug. */
  openapiPages?: Record<string, string>;
  /**
   * Whether each `if` block's expression holds for the reader. Without it (the
   * app reader, for members) every conditional block is shown with its
   * condition; with it, a block whose expression is not in it is hidden.
   */
  conditions?: Record<string, boolean>;
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
export interface AnyNode {
  object?: string;
  type?: string;
  key?: string;
  data?: Record<string, unknown>;
  nodes?: AnyNode[];
  fragments?: AnyNode[];
  fragment?: string;
  leaves?: Array<{ text: string; marks?: Array<{ type: string; data?: Record<string, unknown> }> }>;
  isVoid?: boolean;
}

/** What a block family's renderer may ask of the document's renderer. */
export interface RenderContext {
  readonly input: RenderInput;
  blocks(nodes: AnyNode[] | undefined): ElementContent[];
  inlines(nodes: AnyNode[] | undefined): ElementContent[];
  /** Where a content reference leads in the reader, when it leads anywhere a reader may follow. */
  linkTarget(ref: unknown): string | undefined;
  /** The address an image reference is shown from: a file of the space or a URL of a safe scheme. */
  imageSource(ref: unknown): string | undefined;
  /** An id no other control of the page has (tab groups, ...). */
  uniqueId(prefix: string): string;
  /** GitBook's id for an expandable of the page, from its title; none for one in a card or included content. */
  expandableId(title: string): string | undefined;
  /** True while rendering inside a link (a linked card): links inside it become their text. */
  readonly insideLink: boolean;
  /** True while rendering a card: its headings are the card's titles, not sections of the page. */
  readonly insideCard: boolean;
  withinCard<T>(linked: boolean, render: () => T): T;
}
