import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, TranslationSettingsTable } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';

export type TranslationSettingsRow = Selectable<TranslationSettingsTable>;

const settingsOf = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom('translation_settings').where('organization_id', '=', organizationId);

export async function findTranslationSettings(
  db: Db,
  organizationId: string,
  id: string,
): Promise<TranslationSettingsRow | undefined> {
  return settingsOf(db, organizationId).selectAll().where('id', '=', id).executeTakeFirst();
}

/** A page of an organization's translation settings, each row carrying the total count. */
export const listTranslationSettings = pageQuery({ createdAt: 'created_at', id: 'id' }, (db, organizationId: string) =>
  settingsOf(db, organizationId)
    .selectAll()
    .select(() =>
      settingsOf(db, organizationId)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .as(TOTAL_COUNT),
    ),
);

export async function countTranslationSettings(db: Db, organizationId: string): Promise<number> {
  const { n } = await settingsOf(db, organizationId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertTranslationSettings(db: Db, row: TranslationSettingsRow): Promise<void> {
  await db.insertInto('translation_settings').values(row).execute();
}

/** Replaces the title (and the languages, when given); undefined when the organization has no such settings. */
export async function replaceTranslationSettings(
  db: Db,
  organizationId: string,
  id: string,
  changes: { title: string; languages?: string[]; updated_at: Date },
): Promise<TranslationSettingsRow | undefined> {
  return db
    .updateTable('translation_settings')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the settings; false when the organization has no such settings. */
export async function deleteTranslationSettings(db: Db, organizationId: string, id: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('translation_settings')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
