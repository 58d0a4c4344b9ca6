/**
 * The conversion pool's tasks: each parses user input on a worker thread,
 * never on the event loop. A refusal (bad YAML, nesting past what the parser's
 * own recursion can take) comes back as a value; only a defect throws.
 */
import { LazyTask, serveTasks, taskOutcome, type TaskOutcome } from '../core/work-pool.js';
import { splitFrontmatter } from '../document/frontmatter.js';
import { documentFacts, type DocumentFacts } from '../document/facts.js';
import { documentOfTree, markdownToDocument, markdownTree } from '../document/from-markdown.js';
import { splitLeadingHeading } from '../document/leading-heading.js';
import { urlDestinations, type UrlDestination } from '../document/rewrite-urls.js';
import { documentToMarkdown } from '../document/to-markdown.js';
import type { JSONDocument } from '../document/types.js';
import type { RenderedDocument, RenderInput } from '../html/document-html.js';
import { mergeTexts as mergeThree, type TextMerge, type TextMergeInput } from '../document/text-merge.js';

/** A page's markdown as written, read: what its frontmatter and leading `# Title` say, and the content left. */
export interface ReadPage {
  frontmatter: Record<string, unknown>;
  /** The leading heading's text, where it was taken as the title (only when the frontmatter names none). */
  title?: string;
  /** The content, frontmatter, title heading and leading blank lines removed. */
  markdown: string;
  destinations: UrlDestination[];
}

/** Markdown made from a JSON document, with its link destinations. */
export interface ReadDocument {
  markdown: string;
  destinations: UrlDestination[];
}

/** The document as JSON text: it is stored and sent as text, so the event loop need not serialise it. */
export function toDocumentJson(markdown: string): TaskOutcome<string> {
  return taskOutcome(() => JSON.stringify(markdownToDocument(markdown)));
}

/** A page's document as stored: the JSON document as text, and what search and link checks read of it. */
export interface StoredDocument {
  documentJson: string;
  facts: DocumentFacts;
}

/** The stored forms of a page's markdown, from one parse and one reading of its block tags. */
export function toStoredDocument(markdown: string): TaskOutcome<StoredDocument> {
  return taskOutcome(() => {
    const tree = markdownTree(markdown);
    const facts = documentFacts(tree);
    return { documentJson: JSON.stringify(documentOfTree(tree)), facts };
  });
}

export function toMarkdown(document: JSONDocument): TaskOutcome<string> {
  return taskOutcome(() => documentToMarkdown(document));
}

export function readPage(written: string): TaskOutcome<ReadPage> {
  return taskOutcome(() => {
    const { data, body } = splitFrontmatter(written);
    const heading = Object.hasOwn(data, 'title') ? null : splitLeadingHeading(body);
    const markdown = (heading ? heading.body : body).replace(/^(?:[ \t]*\r?\n)+/, '');
    return {
      frontmatter: data,
      ...(heading ? { title: heading.title } : {}),
      markdown,
      destinations: urlDestinations(markdown),
    };
  });
}

export function readDocument(document: JSONDocument): TaskOutcome<ReadDocument> {
  return taskOutcome(() => {
    const markdown = documentToMarkdown(document);
    return { markdown, destinations: urlDestinations(markdown) };
  });
}

/** A page's document as the reader's HTML, with its headings: its renderer is loaded by the threads that render. */
const toHtml = new LazyTask(async () => {
  const { renderDocument } = await import('../html/document-html.js');
  return (input: RenderInput): TaskOutcome<RenderedDocument> => taskOutcome(() => renderDocument(input));
});

/** A writer's markdown merged with another's saved since, from the version both started from. */
export function mergeTexts(input: TextMergeInput): TaskOutcome<TextMerge> {
  return taskOutcome(() => mergeThree(input));
}

/** The pool's entry: runs the named task. */
export default serveTasks({ toDocumentJson, toStoredDocument, toMarkdown, readPage, readDocument, toHtml, mergeTexts });
