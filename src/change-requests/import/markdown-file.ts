import { BadRequestError } from '../../core/errors.js';
import type { OutboundFetcher } from '../../core/outbound.js';
import { checkMarkdownBounds } from '../../document/bounds.js';
import { MAX_MARKDOWN_LENGTH } from '../schemas.js';
import type { ImportBatch } from './website.js';
import { keySegments, titleFromSegment } from './urls.js';

const MARKDOWN_ACCEPT = 'text/markdown,text/x-markdown;q=0.9,text/plain;q=0.8,*/*;q=0.1';
/** Types a markdown file is served as; a server that names none, or only bytes, is believed too. */
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/plain', 'application/octet-stream']);

const mediaType = (header: string | null) => header?.split(';')[0]?.trim().toLowerCase() || undefined;

/**
 * One markdown file as one page, written as any markdown write is: its
 * frontmatter sets the page's fields and a leading `# Title` its title;
 * without either, the file's name is the title. Its links are kept as written.
 */
export async function markdownBatch(outbound: OutboundFetcher, url: URL): Promise<ImportBatch> {
  // One byte of UTF-8 is one character at most: the byte limit keeps the text within a page's.
  const response = await outbound.fetch(url.href, { maxBytes: MAX_MARKDOWN_LENGTH, accept: MARKDOWN_ACCEPT });
  if (response.status < 200 || response.status > 299) {
    throw new BadRequestError(`body/url answered with status ${response.status}, so nothing was imported`);
  }
  const type = mediaType(response.contentType);
  if (type !== undefined && !MARKDOWN_TYPES.has(type)) {
    const hint = type === 'text/html' ? '; to import a web page, use the source website' : '';
    throw new BadRequestError(`body/url is not a markdown file (it is served as ${type})${hint}`);
  }
  let markdown: string;
  try {
    markdown = new TextDecoder('utf-8', { fatal: true }).decode(response.body);
  } catch {
    throw new BadRequestError('body/url is not UTF-8 text, so it cannot be read as markdown');
  }
  checkMarkdownBounds(markdown, 'The markdown at body/url');
  const title = titleFromSegment(keySegments(new URL(response.url).pathname).pop() ?? '') || 'Untitled';
  return {
    changes: [{ operation: 'insert_page', title: title.slice(0, 255), document: { markdown } }],
    files: new Map(),
    importedResources: 1,
    totalResources: 1,
  };
}
