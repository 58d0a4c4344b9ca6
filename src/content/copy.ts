import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { spaceNotFound } from '../access/spaces.js';

/** The tables of versioned items a space's line holds, the kind of tree entry for each, and its item id column. */
const VERSIONED_ITEMS = [
  { kind: 'page', table: 'page_versions', itemColumn: 'page_id' },
  { kind: 'file', table: 'file_versions', itemColumn: 'file_id' },
] as const;

/** The space whose content is copied, held still by `holdForCopy`. */
export interface CopySource {
  organizationId: string;
  spaceId: string;
  revisionId: string;
  searchIndexed: boolean;
}

interface CopyTarget {
  organizationId: string;
  /** The space whose current content is copied. */
  fromSpaceId: string;
  /** The new space, still at its initial revision (seq 0) and holding nothing. */
  toSpaceId: string;
  toRevisionId: string;
}

/**
 * Holds the line of the space to copy still until the transaction ends:
 * merges and imports wait (they lock it for update), so its entries and
 * search rows are of one revision. Taken first in the transaction, before the
 * copy's own rows lock anything a writer of the original needs next (a
 * deletion of the original updates the organization's counts, which the
 * copy's insert also does).
 */
export async function holdForCopy(tx: Db, spaceId: string): Promise<CopySource> {
  const original = await tx
    .selectFrom('spaces')
    .select(['organization_id', 'revision_id', 'search_indexed'])
    .where('id', '=', spaceId)
    .where('deleted_at', 'is', null)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!original) throw spaceNotFound();
  return {
    organizationId: original.organization_id,
    spaceId,
    revisionId: original.revision_id,
    searchIndexed: original.search_indexed,
  };
}

/**
 * Makes the current content of a space the first revision of another, new
 * one of the same organization (its duplicate), inside the caller's
 * transaction: a few set-based statements, whatever the size of the content.
 *
 * Items keep their ids (pages, files, reusable contents): documents link to
 * pages and files as `/pages/<id>` and `/files/<id>`, so the copied links
 * still point inside the copy. Each item gets a version of its own (versions
 * belong to one space), which shares what is stored: page versions point at
 * the original's documents and file versions at the same bytes. The
 * database keeps shared documents alive and inside the organization when
 * either space is removed or transferred (migrations/1765411200000_page_kinds.sql).
 * Search rows are copied as they are. Comments and change requests stay
 * with the original.
 */
export async function copyCurrentContent(
  tx: Db,
  source: CopySource,
  copy: { spaceId: string; revisionId: string },
): Promise<void> {
  const target: CopyTarget = {
    organizationId: source.organizationId,
    fromSpaceId: source.spaceId,
    toSpaceId: copy.spaceId,
    toRevisionId: copy.revisionId,
  };
  await sql`
    update revisions set variables = head.variables
    from revisions head
    where revisions.id = ${target.toRevisionId} and revisions.organization_id = ${target.organizationId}
      and head.id = ${source.revisionId} and head.organization_id = ${target.organizationId}`.execute(tx);
  for (const item of VERSIONED_ITEMS) await copyVersions(tx, target, item);
  await copyReusableContents(tx, target);
  await sql`
    insert into search_sections (organization_id, space_id, page_id, ord, anchor, title, headings, body, language)
    select organization_id, ${target.toSpaceId}, page_id, ord, anchor, title, headings, body, language
    from search_sections
    where organization_id = ${target.organizationId} and space_id = ${target.fromSpaceId}`.execute(tx);
  // Rows the original still waits for are made for the copy by the same job.
  if (!source.searchIndexed) {
    await tx.updateTable('spaces').set({ search_indexed: false }).where('id', '=', target.toSpaceId).execute();
  }
}

/** The original's current tree entries of one kind. */
const currentEntries = (target: CopyTarget, kind: string) => sql`
  select version_id from tree_entries
  where organization_id = ${target.organizationId} and space_id = ${target.fromSpaceId}
    and change_request_id is null and kind = ${kind} and to_seq is null`;

/**
 * Copies the versions the original's line holds now into the new space, and
 * its tree entries at seq 0. Each row is copied whole (as JSON, with a new id
 * and space), so columns added to a version table later come along.
 */
async function copyVersions(tx: Db, target: CopyTarget, item: (typeof VERSIONED_ITEMS)[number]): Promise<void> {
  const table = sql.table(item.table);
  await sql`
    with copied as (
      insert into ${table}
      select copy.*
      from (${currentEntries(target, item.kind)}) as entry
        join ${table} as version on version.id = entry.version_id,
        lateral jsonb_populate_record(
          null::${table},
          to_jsonb(version) || jsonb_build_object('id', quire_new_id(), 'space_id', ${target.toSpaceId}::text)
        ) as copy
      where version.organization_id = ${target.organizationId}
      returning id, ${sql.ref(item.itemColumn)} as item_id
    )
    insert into tree_entries (organization_id, space_id, change_request_id, kind, item_id, version_id, from_seq)
    select ${target.organizationId}, ${target.toSpaceId}, null, ${item.kind}, item_id, id, 0 from copied`.execute(tx);
}

/**
 * Reusable contents are copied with documents of their own: the database
 * only looks after page versions that share another space's documents, and
 * a space keeps few reusable contents.
 */
async function copyReusableContents(tx: Db, target: CopyTarget): Promise<void> {
  await sql`
    with versions as materialized (
      select version.* from (${currentEntries(target, 'reusable_content')}) as entry
        join reusable_content_versions as version on version.id = entry.version_id
      where version.organization_id = ${target.organizationId}
    ), document_ids as materialized (
      select shared_id, quire_new_id() as own_id
      from (select distinct document_id as shared_id from versions where document_id is not null) as used
    ), documents_copied as (
      insert into documents (id, organization_id, space_id, markdown, document, outline, links, language, created_at)
      select ids.own_id, d.organization_id, ${target.toSpaceId}, d.markdown, d.document, d.outline, d.links,
        d.language, d.created_at
      from document_ids ids join documents d on d.id = ids.shared_id
    ), copied as (
      insert into reusable_content_versions
      select copy.*
      from versions as version
        left join document_ids ids on ids.shared_id = version.document_id,
        lateral jsonb_populate_record(
          null::reusable_content_versions,
          to_jsonb(version)
            || jsonb_build_object('id', quire_new_id(), 'space_id', ${target.toSpaceId}::text, 'document_id', ids.own_id)
        ) as copy
      returning id, reusable_content_id
    )
    insert into tree_entries (organization_id, space_id, change_request_id, kind, item_id, version_id, from_seq)
    select ${target.organizationId}, ${target.toSpaceId}, null, 'reusable_content', reusable_content_id, id, 0
    from copied`.execute(tx);
}
