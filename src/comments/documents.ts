import { sql } from 'kysely';
import type { Conversions } from '../model/content/document/conversions.js';
import type { JSONDocument } from '../model/content/document/index.js';
import type { Db } from '../db/database.js';

type BodyTable = 'comments' | 'comment_replies';

/**
 * The JSON documents of comment or reply bodies, by id, as stored when they
 * were written. A body written before documents were kept gets one now, made
 * on the conversion pool and stored, so it is made once.
 */
export async function bodyDocuments(
  db: Db,
  conversions: Conversions,
  table: BodyTable,
  rows: ReadonlyArray<{ id: string; body: string }>,
): Promise<Map<string, JSONDocument>> {
  const documents = new Map<string, JSONDocument>();
  if (rows.length === 0) return documents;
  const stored = await db
    .selectFrom(table)
    .select(['id', sql<string | null>`body_document::text`.as('json')])
    .where('id', '=', sql<string>`any(${rows.map((row) => row.id)}::text[])`)
    .execute();
  const jsonById = new Map(stored.map((row) => [row.id, row.json]));
  for (const row of rows) {
    let json = jsonById.get(row.id) ?? null;
    if (json === null) {
      json = await conversions.toDocumentJson(row.body, `the body of ${row.id}`);
      await db.updateTable(table).set({ body_document: json }).where('id', '=', row.id).where('body_document', 'is', null).execute();
    }
    documents.set(row.id, JSON.parse(json) as JSONDocument);
  }
  return documents;
}
