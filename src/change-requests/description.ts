import { BadRequestError } from '../core/errors.js';
import type { JSONDocument } from '../document/index.js';
import type { Context } from '../context.js';

/** At most this many characters of markdown in a change request's description. */
export const MAX_DESCRIPTION_CHARACTERS = 20000;

export interface StoredDescription {
  markdown: string | null;
  /** The JSON document, as text. */
  document: string | null;
}

/**
 * A description as stored: its markdown, and the document made from it, both
 * on the conversion pool (off the event loop, with its deadline); null clears it.
 */
export async function readDescription(context: Context, document: object | null): Promise<StoredDescription> {
  if (document === null) return { markdown: null, document: null };
  const field = 'body/description';
  const markdown = await context.conversions.toMarkdown(document as JSONDocument, field);
  if (markdown.length > MAX_DESCRIPTION_CHARACTERS) {
    throw new BadRequestError(`${field} must NOT have more than ${MAX_DESCRIPTION_CHARACTERS} characters of markdown`);
  }
  return { markdown, document: await context.conversions.toDocumentJson(markdown, field) };
}
