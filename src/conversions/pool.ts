import { taskModuleBeside, WorkPool, type WorkPoolOptions } from '../core/work-pool.js';
import { checkDocumentBounds, checkMarkdownBounds } from '../document/bounds.js';
import type { JSONDocument } from '../document/types.js';
import type { TextMerge, TextMergeInput } from '../document/text-merge.js';
import type { RenderedDocument, RenderInput } from '../html/document-html.js';
import type { ReadDocument, ReadPage, StoredDocument } from './worker.js';

export type { ReadDocument, ReadPage, StoredDocument } from './worker.js';

const WORKER_MODULE = taskModuleBeside(import.meta.url, 'worker');

export type ConversionOptions = Omit<WorkPoolOptions, 'filename'>;

/**
 * Every parse and conversion of user-written content: checked against the
 * markdown limits on the event loop in one cheap pass, then run on the pool's
 * threads within a deadline. `field` names the input in refusals.
 */
export class Conversions {
  private readonly pool: WorkPool;

  constructor(options: ConversionOptions) {
    this.pool = new WorkPool({ ...options, filename: WORKER_MODULE });
  }

  /** GitBook's JSON document for markdown, as JSON text. */
  async toDocumentJson(markdown: string, field: string): Promise<string> {
    checkMarkdownBounds(markdown, field);
    return this.pool.run('toDocumentJson', markdown, { field, characters: markdown.length });
  }

  /** A page's markdown in the forms stored beside it: its JSON document, outline, links and language. */
  async toStoredDocument(markdown: string, field: string): Promise<StoredDocument> {
    checkMarkdownBounds(markdown, field);
    return this.pool.run('toStoredDocument', markdown, { field, characters: markdown.length });
  }

  /** Markdown for a JSON document. */
  async toMarkdown(document: JSONDocument, field: string): Promise<string> {
    const nodes = checkDocumentBounds(document, field);
    return this.pool.run('toMarkdown', document, { field, characters: documentCharacters(nodes) });
  }

  /** A page's markdown as written: its frontmatter, title heading, content and link destinations. */
  async readPage(markdown: string, field: string): Promise<ReadPage> {
    checkMarkdownBounds(markdown, field);
    return this.pool.run('readPage', markdown, { field, characters: markdown.length });
  }

  /** A page given as a JSON document: its markdown and link destinations. */
  async readDocument(document: JSONDocument, field: string): Promise<ReadDocument> {
    const nodes = checkDocumentBounds(document, field);
    return this.pool.run('readDocument', document, { field, characters: documentCharacters(nodes) });
  }

  /** A page's document as the reader's HTML, with its headings for the table of contents. */
  async toHtml(input: RenderInput, field: string): Promise<RenderedDocument> {
    const nodes = checkDocumentBounds(input.document, field);
    return this.pool.run('toHtml', input, { field, characters: documentCharacters(nodes) });
  }

  /** Three versions of a page's markdown merged line by line (document/text-merge.ts). */
  async mergeTexts(input: TextMergeInput, field: string): Promise<TextMerge> {
    const characters = input.original.length + input.theirs.length + input.mine.length;
    return this.pool.run('mergeTexts', input, { field, characters });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** About as many characters of JSON as a document of `nodes` objects and arrays holds, for its deadline. */
function documentCharacters(nodes: number): number {
  return nodes * 40;
}
