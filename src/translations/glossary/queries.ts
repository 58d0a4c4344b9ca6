import { sql, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import { keysetAfter, TOTAL_COUNT, type PageRequest } from '../../core/pagination.js';

export type GlossaryEntryRow = Omit<Selectable<Database['translation_glossary_entries']>, 'translations'> & {
  translations: Record<string, string>;
};

const entriesOf = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom('translation_glossary_entries').where('organization_id', '=', organizationId);

const COLUMNS = ['id', 'organization_id', 'created_at', 'updated_at'] as const;
const translations = sql<Record<string, string>>`translations`.as('translations');

export async function findGlossaryEntry(db: Db, organizationId: string, id: string) {
  return entriesOf(db, organizationId)
    .select(COLUMNS)
    .select(translations)
    .where('id', '=', id)
    .executeTakeFirst() as Promise<GlossaryEntryRow | undefined>;
}

export async function countGlossaryEntries(db: Db, organizationId: string): Promise<number> {
  const { n } = await entriesOf(db, organizationId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** A page of the glossary by creation time, newest first; one row more than the page when more follow. */
export async function glossaryByCreation(
  db: Db,
  organizationId: string,
  page: PageRequest,
): Promise<Array<GlossaryEntryRow & { [TOTAL_COUNT]?: string }>> {
  let query = entriesOf(db, organizationId).select(COLUMNS).select(translations);
  const after = keysetAfter(page, 'created_at', 'id');
  if (after) query = query.where(after);
  return query
    .orderBy('created_at', page.order)
    .orderBy('id', page.order)
    .limit(page.limit + 1)
    .execute();
}

/** Where an entry sits in the order of one language: whether it lacks the term, the term in lower case, its id. */
export type LanguagePosition = readonly [missing: boolean, term: string, id: string];

/**
 * A page of the glossary by its term in `language`, any case, entries
 * without one last. A glossary is bounded (GLOSSARY_LIMITS), so the sort
 * runs over one organization's entries, found by its index.
 */
export async function glossaryByLanguage(
  db: Db,
  organizationId: string,
  language: string,
  page: { limit: number; after: LanguagePosition | undefined },
): Promise<Array<GlossaryEntryRow & { missing: boolean; term: string }>> {
  const missing = sql<boolean>`(translations ->> ${language}) is null`;
  const term = sql<string>`lower(coalesce(translations ->> ${language}, ''))`;
  let query = entriesOf(db, organizationId)
    .select(COLUMNS)
    .select([translations, missing.as('missing'), term.as('term')]);
  if (page.after) {
    const [afterMissing, afterTerm, afterId] = page.after;
    query = query.where(
      sql<boolean>`(${missing}, ${term}, id) > (${afterMissing}::boolean, ${afterTerm}::text, ${afterId}::text)`,
    );
  }
  return query
    .orderBy(missing)
    .orderBy(term)
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
}

/**
 * Holds the organization's glossary for the rest of the transaction, so that
 * two batches check the size limit and the ids one after the other.
 */
export async function lockGlossary(tx: Db, organizationId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`glossary:${organizationId}`}, 0))`.execute(tx);
}

/** Which of `ids` are entries of the organization's glossary. */
export async function existingGlossaryIds(
  tx: Db,
  organizationId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await entriesOf(tx, organizationId).select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

export interface GlossaryWrites {
  inserts: Array<{ id: string; translations: Record<string, string> }>;
  updates: Array<{ id: string; translations: Record<string, string> }>;
  deletes: string[];
}

/** One statement per kind of write, every one naming the organization. */
export async function writeGlossary(tx: Db, organizationId: string, writes: GlossaryWrites, now: Date): Promise<void> {
  if (writes.deletes.length > 0) {
    await tx
      .deleteFrom('translation_glossary_entries')
      .where('organization_id', '=', organizationId)
      .where('id', 'in', writes.deletes)
      .execute();
  }
  if (writes.updates.length > 0) {
    const values = sql.join(
      writes.updates.map((entry) => sql`(${entry.id}::text, ${JSON.stringify(entry.translations)}::jsonb)`),
    );
    await sql`update translation_glossary_entries t set translations = v.translations, updated_at = ${now}
      from (values ${values}) as v(id, translations)
      where t.id = v.id and t.organization_id = ${organizationId}`.execute(tx);
  }
  if (writes.inserts.length > 0) {
    await tx
      .insertInto('translation_glossary_entries')
      .values(
        writes.inserts.map((entry) => ({
          id: entry.id,
          organization_id: organizationId,
          translations: JSON.stringify(entry.translations),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}
