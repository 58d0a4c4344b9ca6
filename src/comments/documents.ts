import { BadRequestError } from '../core/errors.js';
import type { JSONDocument } from '../document/index.js';
import type { Context } from '../context.js';
import { storeBodyDocument, storedBodyDocuments, type BodyTable, type StoredBody } from './body-queries.js';
import { MAX_BODY_CHARACTERS, type BodyInput } from './schemas.js';

/** Reads a body on the conversion pool: markdown within the limit, and its document. */
export async function readBody(context: Context, input: BodyInput, field: string): Promise<StoredBody> {
  const { conversions } = context;
  const markdown =
    'markdown' in input
      ? input.markdown
      : 'document' in input
        ? await conversions.toMarkdown(input.document as unknown as JSONDocument, field)
        : '';
  if (markdown.length > MAX_BODY_CHARACTERS) {
    throw new BadRequestError(`${field} must NOT have more than ${MAX_BODY_CHARACTERS} characters of markdown`);
  }
  return { body: markdown, body_document: await conversions.toDocumentJson(markdown, field) };
}

/**
 * The JSON documents of comment or reply bodies, by id, as stored when they
 * were written. A body written before documents were kept gets one now, made
 * on the conversion pool and stored, so it is made once.
 */
export async function bodyDocuments(
  context: Context,
  table: BodyTable,
  rows: ReadonlyArray<{ id: string; body: string }>,
): Promise<Map<string, JSONDocument>> {
  const documents = new Map<string, JSONDocument>();
  if (rows.length === 0) return documents;
  const jsonById = await storedBodyDocuments(
    context.db,
    table,
    rows.map((row) => row.id),
  );
  for (const row of rows) {
    let json = jsonById.get(row.id) ?? null;
    if (json === null) {
      json = await context.conversions.toDocumentJson(row.body, `the body of ${row.id}`);
      await storeBodyDocument(context.db, table, row.id, json);
    }
    documents.set(row.id, JSON.parse(json) as JSONDocument);
  }
  return documents;
}
