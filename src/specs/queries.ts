import { sql, type Kysely, type Selectable, type UpdateObject } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, OpenapiSpecsTable, OpenapiSpecVersionsTable } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';

/** Every column of a spec but its source text, which only processing reads. */
const SPEC_FIELDS = [
  'id',
  'organization_id',
  'slug',
  'source_url',
  'visibility',
  'processing_state',
  'last_version_id',
  'last_processed_at',
  'last_process_error_code',
  'last_processed_errors',
  'created_at',
  'updated_at',
] as const;

/** The columns an OpenAPISpec response is made from. */
export type SpecFields = Pick<Selectable<OpenapiSpecsTable>, (typeof SPEC_FIELDS)[number]>;

const specsOf = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom('openapi_specs').where('organization_id', '=', organizationId);

export async function findSpec(db: Db, organizationId: string, slug: string): Promise<SpecFields | undefined> {
  return specsOf(db, organizationId).select(SPEC_FIELDS).where('slug', '=', slug).executeTakeFirst();
}

/** A page of an organization's specs, newest first, each row carrying the total count. */
export const listSpecs = pageQuery({ createdAt: 'created_at', id: 'id' }, (db, organizationId: string) =>
  specsOf(db, organizationId)
    .select(SPEC_FIELDS)
    .select(() =>
      specsOf(db, organizationId)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .as(TOTAL_COUNT),
    ),
);

export async function countSpecs(db: Db, organizationId: string): Promise<number> {
  const { n } = await specsOf(db, organizationId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The stored form of a source: exactly one of the two columns is set. */
export interface SourceColumns {
  source_url: string | null;
  source_text: string | null;
}

export interface NewSpec extends SourceColumns {
  id: string;
  organization_id: string;
  slug: string;
  created_at: Date;
}

/** Inserts a spec, pending; a taken slug fails with 23505 on the (organization, slug) index. */
export async function insertSpec(db: Db, spec: NewSpec): Promise<SpecFields> {
  return db
    .insertInto('openapi_specs')
    .values({ ...spec, processing_state: 'pending', updated_at: spec.created_at })
    .returning(SPEC_FIELDS)
    .executeTakeFirstOrThrow();
}

/**
 * Creates the spec with this slug, or gives the existing one the source:
 * one statement, so that two PUTs of a new slug at once make one spec.
 */
export async function upsertSpec(db: Db, spec: NewSpec): Promise<SpecFields> {
  return db
    .insertInto('openapi_specs')
    .values({ ...spec, processing_state: 'pending', updated_at: spec.created_at })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'slug']).doUpdateSet({
        source_url: spec.source_url,
        source_text: spec.source_text,
        processing_state: 'pending',
        updated_at: spec.created_at,
      }),
    )
    .returning(SPEC_FIELDS)
    .executeTakeFirstOrThrow();
}

export async function updateSpec(
  db: Db,
  organizationId: string,
  slug: string,
  changes: UpdateObject<Database, 'openapi_specs'>,
): Promise<SpecFields | undefined> {
  return db
    .updateTable('openapi_specs')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .returning(SPEC_FIELDS)
    .executeTakeFirst();
}

/** Deletes the spec; its versions and jobs go with it (ON DELETE CASCADE). False when there was none. */
export async function deleteSpec(db: Db, organizationId: string, slug: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('openapi_specs')
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

// ---- Versions ----

const VERSION_FIELDS = ['id', 'organization_id', 'spec_id', 'source_url', 'created_at'] as const;

/** The columns an OpenAPISpecVersion response is made from. */
export type VersionFields = Pick<Selectable<OpenapiSpecVersionsTable>, (typeof VERSION_FIELDS)[number]>;

const versionsOf = (db: Kysely<Database>, organizationId: string, specId: string) =>
  db.selectFrom('openapi_spec_versions').where('organization_id', '=', organizationId).where('spec_id', '=', specId);

/** A page of a spec's versions, newest first, each row carrying the total count. */
export const listVersions = pageQuery(
  { createdAt: 'created_at', id: 'id' },
  (db, organizationId: string, specId: string) =>
    versionsOf(db, organizationId, specId)
      .select(VERSION_FIELDS)
      .select(() =>
        versionsOf(db, organizationId, specId)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .as(TOTAL_COUNT),
      ),
);

export async function countVersions(db: Db, organizationId: string, specId: string): Promise<number> {
  const { n } = await versionsOf(db, organizationId, specId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function findVersion(
  db: Db,
  organizationId: string,
  specId: string,
  versionId: string,
): Promise<VersionFields | undefined> {
  return versionsOf(db, organizationId, specId).select(VERSION_FIELDS).where('id', '=', versionId).executeTakeFirst();
}

/** A version with its files as the JSON text stored: served as it is, never parsed here. */
export async function findVersionContent(
  db: Db,
  organizationId: string,
  specId: string,
  versionId: string,
): Promise<(VersionFields & { filesystem_json: string }) | undefined> {
  return versionsOf(db, organizationId, specId)
    .select(VERSION_FIELDS)
    .select(sql<string>`filesystem::text`.as('filesystem_json'))
    .where('id', '=', versionId)
    .executeTakeFirst();
}

/** A version's entry file exactly as it was fetched or given. */
export async function findVersionEntry(
  db: Db,
  organizationId: string,
  specId: string,
  versionId: string,
): Promise<Pick<Selectable<OpenapiSpecVersionsTable>, 'entry_text' | 'entry_format'> | undefined> {
  return versionsOf(db, organizationId, specId)
    .select(['entry_text', 'entry_format'])
    .where('id', '=', versionId)
    .executeTakeFirst();
}
