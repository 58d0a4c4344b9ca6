import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** A body as stored: its markdown, and the JSON document made from it once, so no read parses it. */
export interface StoredBody {
  body: string;
  body_document: string;
}

export type BodyTable = 'comments' | 'comment_replies';

/** The JSON documents stored with bodies, as text, by id; null for a body written before documents were kept. */
export async function storedBodyDocuments(
  db: Db,
  table: BodyTable,
  ids: readonly string[],
): Promise<Map<string, string | null>> {
  const stored = await db
    .selectFrom(table)
    .select(['id', sql<string | null>`body_document::text`.as('json')])
    .where('id', '=', sql<string>`any(${[...ids]}::text[])`)
    .execute();
  return new Map(stored.map((row) => [row.id, row.json]));
}

/** Stores the document of a body that has none yet. */
export async function storeBodyDocument(db: Db, table: BodyTable, id: string, json: string): Promise<void> {
  await db
    .updateTable(table)
    .set({ body_document: json })
    .where('id', '=', id)
    .where('body_document', 'is', null)
    .execute();
}
