/**
 * GitBook's JSON document model, as @gitbook/api@0.143.2 describes it
 * (`JSONDocument` and the `DocumentBlock*`, `DocumentInline*`, `DocumentText`
 * and `DocumentMark*` schemas), narrowed to the nodes this service reads and writes.
 * `key` is optional in the spec; documents built here always carry one.
 */

/** The marks that only say how text is set; they carry no data. */
export type DocumentFormatMarkType = 'bold' | 'italic' | 'strikethrough' | 'code';

export interface DocumentFormatMark {
  object: 'mark';
  type: DocumentFormatMarkType;
}

/**
 * The colours both specs' `DocumentMarkColor` takes for text and background:
 * GitBook's palette and, with `$`, the site's own colours. The newest spec
 * also has pink, violet, cyan and `$tint`, which the conformance one refuses.
 */
export type DocumentColor =
  | 'default'
  | 'green'
  | 'blue'
  | 'red'
  | 'orange'
  | 'yellow'
  | 'purple'
  | '$primary'
  | '$info'
  | '$success'
  | '$warning'
  | '$danger';

/** Coloured text, a coloured background or both (GitBook's `<mark style="color:…;background-color:…;">`). */
export interface DocumentMarkColor {
  object: 'mark';
  type: 'color';
  data: { text: DocumentColor; background: DocumentColor };
}

export type DocumentMark = DocumentFormatMark | DocumentMarkColor;
export type DocumentMarkType = DocumentMark['type'];

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks: DocumentMark[];
}

export interface DocumentText {
  object: 'text';
  key?: string;
  leaves: DocumentLeaf[];
}

export interface ContentRefUrl {
  kind: 'url';
  url: string;
}
export interface ContentRefFile {
  kind: 'file';
  file: string;
}
export interface ContentRefPage {
  kind: 'page';
  page: string;
  space?: string;
}
export interface ContentRefAnchor {
  kind: 'anchor';
  anchor: string;
  page?: string;
  space?: string;
}
/** The references a markdown link can express; the spec has more kinds (user, space, ...). */
export type ContentRef = ContentRefUrl | ContentRefFile | ContentRefPage | ContentRefAnchor;
/** Images point at an uploaded file or at a URL, nothing else. */
export type ImageRef = ContentRefUrl | ContentRefFile;

export interface DocumentInlineImage {
  object: 'inline';
  type: 'inline-image';
  key?: string;
  /** `size: 'line'` is an image as tall as the text (GitBook's `data-size="line"`). */
  data: { ref: ImageRef; refDark?: ImageRef; alt?: string; caption?: string; size?: 'original' | 'line' };
  isVoid: true;
}

export interface DocumentInlineLink {
  object: 'inline';
  type: 'link';
  key?: string;
  data: { ref: ContentRef };
  nodes: Array<DocumentText | DocumentInlineImage>;
}

export type ButtonKind = 'primary' | 'secondary';

/** What a button without a target does (the spec's `DocumentAction`, 0.202.0). */
export type DocumentAction = { action: 'search' | 'ask'; query?: string } | { action: 'select'; slug: string };

/** A button standing in text (0.202.0's `DocumentInlineButton`): it points at content or runs an action. */
export interface DocumentInlineButton {
  object: 'inline';
  type: 'button';
  key?: string;
  data: { label: string; kind: ButtonKind; icon?: string } & ({ ref: ContentRef } | { action: DocumentAction });
  isVoid: true;
}

/** One of GitBook's icons in text (Font Awesome's names: `github`, `globe`), as `<i class="fa-github">:github:</i>`. */
export interface DocumentInlineIcon {
  object: 'inline';
  type: 'icon';
  key?: string;
  data: { icon: string };
  isVoid: true;
}

/** A TeX formula within a line of text (`$$…$$` in a paragraph). */
export interface DocumentInlineMath {
  object: 'inline';
  type: 'inline-math';
  key?: string;
  data: { formula: string };
  isVoid: true;
}

export type DocumentInline =
  | DocumentInlineLink
  | DocumentInlineImage
  | DocumentInlineButton
  | DocumentInlineIcon
  | DocumentInlineMath;
/** What paragraphs, headings and links hold. */
export type DocumentInlineContent = DocumentText | DocumentInline;

/** The spec's `TextAlignment` of paragraphs and headings (images have their own: left, center, right). */
export type TextAlignment = 'start' | 'center' | 'end';

export interface DocumentBlockParagraph {
  object: 'block';
  type: 'paragraph';
  key?: string;
  data: { align?: TextAlignment };
  nodes: DocumentInlineContent[];
}

export interface DocumentBlockHeading {
  object: 'block';
  type: 'heading-1' | 'heading-2' | 'heading-3';
  key?: string;
  /** `id`: the anchor its author gave it. */
  data: { align?: TextAlignment; id?: string };
  nodes: DocumentInlineContent[];
}

export interface DocumentBlockListItem {
  object: 'block';
  type: 'list-item';
  key?: string;
  /** `checked` only in `list-tasks`. */
  data: { checked?: boolean };
  nodes: DocumentListItemChild[];
}

export interface DocumentBlockListOrdered {
  object: 'block';
  type: 'list-ordered';
  key?: string;
  /** `start` only when the list does not count from 1. */
  data: { start?: number };
  nodes: DocumentBlockListItem[];
}

export interface DocumentBlockListUnordered {
  object: 'block';
  type: 'list-unordered';
  key?: string;
  data: Record<string, never>;
  nodes: DocumentBlockListItem[];
}

export interface DocumentBlockListTasks {
  object: 'block';
  type: 'list-tasks';
  key?: string;
  data: Record<string, never>;
  nodes: DocumentBlockListItem[];
}

export interface DocumentBlockDivider {
  object: 'block';
  type: 'divider';
  key?: string;
  data: Record<string, never>;
  isVoid: true;
}

export interface DocumentBlockQuote {
  object: 'block';
  type: 'blockquote';
  key?: string;
  data: Record<string, never>;
  nodes: DocumentQuoteChild[];
}

export type HintStyle = 'info' | 'warning' | 'danger' | 'success';

export interface DocumentBlockHint {
  object: 'block';
  type: 'hint';
  key?: string;
  /** `icon` is the newest spec's; the older one lets the data hold it all the same. */
  data: { style: HintStyle; icon?: string };
  nodes: DocumentEssentialBlock[];
}

export interface DocumentBlockCodeLine {
  object: 'block';
  type: 'code-line';
  key?: string;
  /** A highlighted line is what GitBook writes as `<strong>` around a line of a `<pre>` block. */
  data: { highlighted?: boolean };
  nodes: DocumentText[];
}

export type CodeOverflow = 'scroll' | 'wrap';

export interface DocumentBlockCode {
  object: 'block';
  type: 'code';
  key?: string;
  /** `syntax` only when the fence names a language; the rest only when a `{% code %}` tag set them. */
  data: {
    syntax?: string;
    title?: string;
    overflow?: CodeOverflow;
    lineNumbers?: boolean;
    fullWidth?: boolean;
    expandable?: boolean;
  };
  nodes: DocumentBlockCodeLine[];
}

/** A named piece of rich content a void block points at (a table cell, an image caption). */
export interface DocumentFragment {
  object: 'fragment';
  key?: string;
  fragment: string;
  nodes: DocumentBlockParagraph[];
}

/** A table cell's content: text, headings and lists (GitBook's cards hold `<h4>` titles and lists). */
export interface DocumentTableCellFragment {
  object: 'fragment';
  key?: string;
  fragment: string;
  nodes: DocumentEssentialBlock[];
}

/** The spec's `Length`: pixels, or a value in a unit (`{ unit: '%', value: 50 }`). */
export type DocumentLength = number | { unit: string; value: number };

export interface DocumentBlockImage {
  object: 'block';
  type: 'image';
  key?: string;
  /** `refDark` is shown in dark mode (a `<picture>` source for `prefers-color-scheme: dark`). */
  data: { ref: ImageRef; refDark?: ImageRef; alt?: string; width?: DocumentLength; height?: DocumentLength };
  /** At most one, named `caption`. */
  fragments: DocumentFragment[];
  isVoid: true;
}

export interface DocumentBlockImages {
  object: 'block';
  type: 'images';
  key?: string;
  data: { align?: 'left' | 'center' | 'right'; fullWidth?: boolean; withFrame?: boolean };
  nodes: DocumentBlockImage[];
  isVoid: false;
}

export type TableTextAlignment = 'left' | 'center' | 'right';

export interface DocumentTableDefinitionText {
  id: string;
  title: string;
  type: 'text';
  textAlignment: TableTextAlignment;
}

/** A column of links to content (a card's target), of uploaded files, or of images (a card's cover). */
export interface DocumentTableDefinitionRef {
  id: string;
  title: string;
  type: 'content-ref' | 'files' | 'image';
}

export type DocumentTableDefinition = DocumentTableDefinitionText | DocumentTableDefinitionRef;

/**
 * A cell's value: in a text column the name of the fragment that holds it;
 * in a content-ref column the reference; in a files column the files' ids
 * (or, for a file not uploaded, its URL as a reference); in an image column
 * the image's reference.
 */
export type DocumentTableValue = string | string[] | ContentRef | { ref: ImageRef };

export interface DocumentTableRecord {
  /** A fractional-indexing key: records sort by it, as plain strings. */
  orderIndex: string;
  /** Column id → the cell's value; a cell left empty has none. */
  values: Record<string, DocumentTableValue>;
}

export interface DocumentTableViewGrid {
  type: 'grid';
  columns: string[];
  hideHeader: boolean;
  /** Column id → width, as GitBook's `<th width>` gives it. */
  columnWidths?: Record<string, number>;
}

export interface DocumentTableViewCards {
  type: 'cards';
  /** The visible columns, in order; the target and cover columns are hidden. */
  columns: string[];
  cardSize: 'medium' | 'large';
  targetDefinition?: string;
  coverDefinition?: string;
  coverDefinitionDark?: string;
  /** false: one row scrolled sideways (0.202.0). */
  wrap?: boolean;
}

export interface DocumentBlockTable {
  object: 'block';
  type: 'table';
  key?: string;
  data: {
    view: DocumentTableViewGrid | DocumentTableViewCards;
    records: Record<string, DocumentTableRecord>;
    definition: Record<string, DocumentTableDefinition>;
    fullWidth?: boolean;
    /** Whether readers get a search box (0.202.0). */
    search?: boolean;
  };
  fragments: DocumentTableCellFragment[];
  isVoid: true;
}

/** An uploaded file of the space, shown as a download; the spec's file block names nothing but a file. */
export interface DocumentBlockFile {
  object: 'block';
  type: 'file';
  key?: string;
  data: { ref: ContentRefFile };
  isVoid: true;
}

/**
 * What a tab or a step holds: the children both specs' `DocumentBlockTabsItem`
 * and `DocumentBlockStepperStep` take that markdown can express (no table, no
 * expandable, no prompt: the older spec has none there).
 */
export type DocumentTabsItemChild =
  | DocumentEssentialBlock
  | DocumentBlockContentRef
  | DocumentBlockCode
  | DocumentBlockEmbed
  | DocumentBlockFile
  | DocumentBlockImages
  | DocumentBlockHint
  | DocumentBlockQuote
  | DocumentBlockMath;

export interface DocumentBlockTabsItem {
  object: 'block';
  type: 'tabs-item';
  key?: string;
  data: { title: string; icon?: string };
  nodes: DocumentTabsItemChild[];
}

export interface DocumentBlockTabs {
  object: 'block';
  type: 'tabs';
  key?: string;
  data: Record<string, never>;
  nodes: DocumentBlockTabsItem[];
}

/** What an expandable's body holds: the spec's `expandable-body` children that markdown can express. */
export type DocumentExpandableBodyChild =
  | DocumentEssentialBlock
  | DocumentBlockImages
  | DocumentBlockCode
  | DocumentBlockTable
  | DocumentBlockHint
  | DocumentBlockQuote;

export interface DocumentFragmentExpandableTitle {
  object: 'fragment';
  key?: string;
  fragment: 'expandable-title';
  type: 'expandable-title';
  /** Exactly one. */
  nodes: [DocumentBlockParagraph];
}

export interface DocumentFragmentExpandableBody {
  object: 'fragment';
  key?: string;
  fragment: 'expandable-body';
  type: 'expandable-body';
  /** At least one. */
  nodes: DocumentExpandableBodyChild[];
}

/** A block shown folded: its title, and its body once opened. */
export interface DocumentBlockExpandable {
  object: 'block';
  type: 'expandable';
  key?: string;
  data: Record<string, never>;
  fragments: [DocumentFragmentExpandableTitle, DocumentFragmentExpandableBody];
  isVoid: true;
}

/** `DocumentBlocksEssentials`: what a hint holds. */
export type DocumentEssentialBlock =
  | DocumentBlockParagraph
  | DocumentBlockHeading
  | DocumentBlockListOrdered
  | DocumentBlockListUnordered
  | DocumentBlockListTasks
  | DocumentBlockDivider;

export type DocumentQuoteChild = DocumentEssentialBlock | DocumentBlockQuote;

export type DocumentListItemChild =
  | DocumentEssentialBlock
  | DocumentBlockCode
  | DocumentBlockHint
  | DocumentBlockQuote
  | DocumentBlockTable
  | DocumentBlockMath;

/** `DocumentBlocksTopLevels`, for the block types markdown can express. */
export type DocumentTopLevelBlock =
  | DocumentListItemChild
  | DocumentBlockImages
  | DocumentBlockFile
  | DocumentBlockTabs
  | DocumentBlockExpandable
  | DocumentBlockEmbed
  | DocumentBlockContentRef
  | DocumentBlockStepper
  | DocumentBlockColumns
  | DocumentBlockUpdates
  | DocumentBlockIf
  | DocumentBlockReusableContent
  | DocumentBlockOpenAPI
  | DocumentBlockOpenAPIOperation
  | DocumentBlockOpenAPISchemas
  | DocumentBlockPrompt;

export type DocumentBlock =
  | DocumentTopLevelBlock
  | DocumentBlockListItem
  | DocumentBlockCodeLine
  | DocumentBlockImage
  | DocumentBlockTabsItem
  | DocumentBlockStepperStep
  | DocumentBlockColumn
  | DocumentBlockUpdate;

export interface JSONDocument {
  object: 'document';
  data: { schemaVersion?: number; [name: string]: unknown };
  nodes: DocumentTopLevelBlock[];
}

/** A TeX formula shown as a block of its own (`$$` fences on lines of their own). */
export interface DocumentBlockMath {
  object: 'block';
  type: 'math';
  key?: string;
  data: { formula: string };
  isVoid: true;
}

/** A page of another site shown in a frame, or a rich preview of it. */
export interface DocumentBlockEmbed {
  object: 'block';
  type: 'embed';
  key?: string;
  data: { url: string; fullWidth?: boolean };
  isVoid: true;
}

/** A card that links to a page, an anchor, a file or a URL. */
export interface DocumentBlockContentRef {
  object: 'block';
  type: 'content-ref';
  key?: string;
  data: { ref: ContentRef };
  isVoid: true;
}

export interface DocumentBlockStepperStep {
  object: 'block';
  type: 'stepper-step';
  key?: string;
  data: { icon?: string };
  nodes: DocumentTabsItemChild[];
}

/** Numbered steps shown one under the other. */
export interface DocumentBlockStepper {
  object: 'block';
  type: 'stepper';
  key?: string;
  data: Record<string, never>;
  nodes: DocumentBlockStepperStep[];
}

/** A column's width, the spec's `Length`: pixels, or a value in a unit (`{ unit: '%', value: 50 }`). */
export type ColumnWidth = number | { unit: string; value: number };
export type VerticalAlignment = 'top' | 'middle' | 'bottom';

/** What a column holds: the newest spec's `DocumentBlockColumn` children that markdown can express. */
export type DocumentColumnChild =
  | DocumentEssentialBlock
  | DocumentBlockImages
  | DocumentBlockCode
  | DocumentBlockHint
  | DocumentBlockPrompt
  | DocumentBlockContentRef
  | DocumentBlockEmbed
  | DocumentBlockFile
  | DocumentBlockMath
  | DocumentBlockQuote
  | DocumentBlockTable
  | DocumentBlockExpandable
  | DocumentBlockStepper;

export interface DocumentBlockColumn {
  object: 'block';
  type: 'column';
  key?: string;
  data: { width?: ColumnWidth; verticalAlignment?: VerticalAlignment };
  nodes: DocumentColumnChild[];
}

/** Blocks side by side (only in the newest spec's top level). */
export interface DocumentBlockColumns {
  object: 'block';
  type: 'columns';
  key?: string;
  data: { fullWidth?: boolean };
  nodes: DocumentBlockColumn[];
  isVoid: false;
}

export interface ContentRefTag {
  kind: 'tag';
  tag: string;
}

/** What an update holds: the newest spec's `DocumentBlockUpdate` children that markdown can express. */
export type DocumentUpdateChild =
  | DocumentTabsItemChild
  | DocumentBlockPrompt
  | DocumentBlockTabs
  | DocumentBlockExpandable;

export interface DocumentBlockUpdate {
  object: 'block';
  type: 'update';
  key?: string;
  /** `date` is an RFC 3339 date-time. */
  data: { date: string; tags?: ContentRefTag[] };
  nodes: DocumentUpdateChild[];
}

export type UpdatesFormat = 'numeric' | 'full' | 'short';

/** A changelog: dated entries in the order written (only in the newest spec). */
export interface DocumentBlockUpdates {
  object: 'block';
  type: 'updates';
  key?: string;
  data: { format: UpdatesFormat };
  nodes: DocumentBlockUpdate[];
}

/** Content shown only to the visitors its adaptive-content expression holds for (only in the newest spec). */
export interface DocumentBlockIf {
  object: 'block';
  type: 'if';
  key?: string;
  data: { expression: string };
  nodes: DocumentTopLevelBlock[];
}

export interface ContentRefReusableContent {
  kind: 'reusable-content';
  reusableContent: string;
}

/** A reusable content of the space, shown where it is included. */
export interface DocumentBlockReusableContent {
  object: 'block';
  type: 'reusable-content';
  key?: string;
  data: { ref: ContentRefReusableContent };
  isVoid: true;
}

/** An operation of an OpenAPI document named by its URL or uploaded file (GitBook's `swagger` block). */
export interface DocumentBlockOpenAPI {
  object: 'block';
  type: 'swagger';
  key?: string;
  data: { ref: ImageRef; path: string; method: string };
  isVoid: true;
}

/** An OpenAPI specification of the organization, by its slug. */
export interface ContentRefOpenAPI {
  kind: 'openapi';
  spec: string;
}

export interface DocumentBlockOpenAPIOperation {
  object: 'block';
  type: 'openapi-operation';
  key?: string;
  data: { ref: ContentRefOpenAPI; path: string; method: string };
  isVoid: true;
}

export interface DocumentBlockOpenAPISchemas {
  object: 'block';
  type: 'openapi-schemas';
  key?: string;
  data: { ref: ContentRefOpenAPI; schemas: string[]; grouped?: boolean };
  isVoid: true;
}

export type PromptExpansion = 'hidden' | 'partial' | 'full';

/** A prompt for an AI assistant: a description and the prompt's text as one code block (only in the newest spec). */
export interface DocumentBlockPrompt {
  object: 'block';
  type: 'prompt';
  key?: string;
  data: { description: string; icon?: string; openInAIProviders?: boolean; defaultExpanded?: PromptExpansion };
  nodes: [DocumentBlockCode];
}
