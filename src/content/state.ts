import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type {
  FileVersionRow,
  PageVersionRow,
  RevisionRow,
  RevisionType,
  TreeEntryKind,
  VariableValues,
} from '../db/types.js';
import type { StoredDocument } from '../conversions/pool.js';
import type { DocumentFacts, OutlineSection, StoredLink } from '../document/facts.js';
import { ContentTree, type FileState, type PageState } from './tree.js';

/** A revision and where it sits: on the space's line, or on a change request's line over a base. */
export interface RevisionPoint {
  id: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  seq: number;
  /** The space seq the content starts from: the revision's own seq on the space's line. */
  baseSeq: number;
  type: RevisionType;
  parents: string[];
  variables: VariableValues;
  mergedFrom: string | null;
  createdAt: Date;
}

type RevisionRecord = Omit<RevisionRow, 'created_by'>;

const toPoint = (row: RevisionRecord): RevisionPoint => ({
  id: row.id,
  organizationId: row.organization_id,
  spaceId: row.space_id,
  changeRequestId: row.change_request_id,
  seq: row.seq,
  baseSeq: row.base_seq ?? row.seq,
  type: row.type,
  parents: row.parents,
  variables: row.variables,
  mergedFrom: row.merged_from,
  createdAt: row.created_at,
});

/** The current revision id of a live space of the organization, or undefined. */
export async function findCurrentRevisionId(
  db: Db,
  space: { id: string; organization_id: string },
): Promise<string | undefined> {
  const row = await db
    .selectFrom('spaces')
    .select('revision_id')
    .where('id', '=', space.id)
    .where('organization_id', '=', space.organization_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.revision_id;
}

/** A revision of the space, on its own line or a change request's, or undefined. */
export async function findRevision(db: Db, spaceId: string, revisionId: string): Promise<RevisionPoint | undefined> {
  const row = await db
    .selectFrom('revisions')
    .select([
      'id',
      'organization_id',
      'space_id',
      'change_request_id',
      'seq',
      'base_seq',
      'type',
      'parents',
      'variables',
      'merged_from',
      'created_at',
    ])
    .where('id', '=', revisionId)
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
  return row ? toPoint(row) : undefined;
}

/**
 * The version of each item of `kind` a revision holds: on a change request's
 * line, its own entries in force at its seq, then the space's entries at its
 * base for the items it did not touch.
 */
export function entriesAt(point: RevisionPoint, kind: TreeEntryKind) {
  return sql`
    with overlay as materialized (
      select item_id, version_id from tree_entries
      where change_request_id = ${point.changeRequestId} and kind = ${kind}
        and from_seq <= ${point.seq} and (to_seq is null or to_seq > ${point.seq})
    )
    select version_id from overlay where version_id is not null
    union all
    select e.version_id from tree_entries e
    where e.space_id = ${point.spaceId} and e.change_request_id is null and e.kind = ${kind}
      and e.from_seq <= ${point.baseSeq} and (e.to_seq is null or e.to_seq > ${point.baseSeq})
      and not exists (select 1 from overlay o where o.item_id = e.item_id)`;
}

/**
 * A page version as loadTree reads it, one JSON array per page in the order of its query: everything but
 * where it belongs, which the caller knows, with its dates as the ISO 8601 text every answer shows. A tree
 * comes as one JSON value, parsed at once: a row per page cost `pg` a parse of each of its 22 fields, about
 * three times the CPU, and a tree of a space the cache does not hold is read for each of its pages read.
 */
type PageVersionTuple = [
  id: string,
  pageId: string,
  parentId: string | null,
  position: string,
  type: PageVersionRow['type'],
  title: string,
  slug: string,
  emoji: string | null,
  icon: string | null,
  description: string | null,
  documentId: string | null,
  layout: Record<string, unknown> | null,
  cover: Record<string, unknown> | null,
  variables: VariableValues,
  hidden: boolean,
  noIndex: boolean,
  noRobotsIndex: boolean,
  target: Record<string, unknown> | null,
  href: string | null,
  computed: PageVersionRow['computed'],
  pageCreatedAt: string,
  updatedAt: string,
];

/** A timestamp as `Date.prototype.toISOString` writes it; `MS` truncates to the millisecond, as a `Date` does. */
const isoText = (column: RawBuilder<unknown>) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const toPageState = ([
  versionId,
  pageId,
  parentId,
  position,
  type,
  title,
  slug,
  emoji,
  icon,
  description,
  documentId,
  layout,
  cover,
  variables,
  hidden,
  noIndex,
  noRobotsIndex,
  target,
  href,
  computed,
  pageCreatedAt,
  updatedAt,
]: PageVersionTuple): PageState => ({
  pageId,
  versionId,
  parentId,
  position,
  type,
  title,
  slug,
  emoji,
  icon,
  description,
  documentId,
  layout,
  cover,
  variables,
  hidden,
  noIndex,
  noRobotsIndex,
  target,
  href,
  computed,
  pageCreatedAt,
  updatedAt,
});

type FileVersionRecord = Omit<FileVersionRow, 'organization_id' | 'space_id'>;

const toFileState = (row: FileVersionRecord): FileState => ({
  fileId: row.file_id,
  versionId: row.id,
  name: row.name,
  contentType: row.content_type,
  sha256: row.sha256,
  size: row.size,
  width: row.width,
  height: row.height,
  createdAt: row.created_at,
});

/** Reads the pages (without their markdown) and files of a revision: two queries, whatever its size. */
export async function loadTree(db: Db, point: RevisionPoint): Promise<ContentTree> {
  const kysely = db;
  const [pages, files] = await Promise.all([
    sql<{ pages: PageVersionTuple[] | null }>`
      select json_agg(json_build_array(pv.id, pv.page_id, pv.parent_page_id, pv.position, pv.type, pv.title, pv.slug,
        pv.emoji, pv.icon, pv.description, pv.document_id, pv.layout, pv.cover, pv.variables, pv.hidden, pv.no_index,
        pv.no_robots_index, pv.target, pv.href, pv.computed, ${isoText(sql.ref('pv.page_created_at'))},
        ${isoText(sql.ref('pv.created_at'))})) as pages
      from (${entriesAt(point, 'page')}) as state join page_versions pv on pv.id = state.version_id
      where pv.organization_id = ${point.organizationId}`.execute(kysely),
    sql<FileVersionRecord>`
      select fv.id, fv.file_id, fv.name, fv.content_type, fv.sha256, fv.size, fv.width, fv.height, fv.created_at
      from (${entriesAt(point, 'file')}) as state join file_versions fv on fv.id = state.version_id
      where fv.organization_id = ${point.organizationId}`.execute(kysely),
  ]);
  return new ContentTree(
    new Map((pages.rows[0]?.pages ?? []).map((row) => [row[1], toPageState(row)])),
    new Map(files.rows.map((row) => [row.file_id, toFileState(row)])),
  );
}

/** A page's markdown and what is made from it when written, stored side by side. */
export interface StoredContent {
  markdown: string;
  documentJson: string;
  facts: DocumentFacts;
}

/**
 * The stored JSON documents, as text, by document id; with the markdown where
 * the document is missing (rows written before documents were kept).
 */
export async function loadDocuments(
  db: Db,
  organizationId: string,
  documentIds: readonly string[],
): Promise<Map<string, { documentJson: string | null; markdown: string | null }>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('documents')
    .select([
      'id',
      sql<string | null>`document::text`.as('document_json'),
      sql<string | null>`case when document is null then markdown end`.as('markdown'),
    ])
    .where('organization_id', '=', organizationId)
    .where('id', '=', sql<string>`any(${[...documentIds]}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, { documentJson: row.document_json, markdown: row.markdown }]));
}

/** Keeps the document made for a row written before documents were kept; a concurrent reader's equal one wins. */
export async function storeMissingDocument(
  db: Db,
  organizationId: string,
  documentId: string,
  documentJson: string,
): Promise<void> {
  await db
    .updateTable('documents')
    .set({ document: documentJson })
    .where('organization_id', '=', organizationId)
    .where('id', '=', documentId)
    .where('document', 'is', null)
    .execute();
}

/**
 * The stored facts (outline, links, language) of documents, by document id;
 * null with the markdown where any of them is missing (rows written before
 * they were kept).
 */
export async function loadFacts(
  db: Db,
  organizationId: string,
  documentIds: readonly string[],
): Promise<Map<string, { facts: DocumentFacts | null; markdown: string | null }>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('documents')
    .select([
      'id',
      'outline',
      'links',
      'language',
      sql<string | null>`case when outline is null or links is null or language is null then markdown end`.as(
        'markdown',
      ),
    ])
    .where('organization_id', '=', organizationId)
    .where('id', '=', sql<string>`any(${[...documentIds]}::text[])`)
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        facts:
          row.outline && row.links && row.language
            ? { outline: row.outline as OutlineSection[], links: row.links as StoredLink[], language: row.language }
            : null,
        markdown: row.markdown,
      },
    ]),
  );
}

/**
 * Keeps the facts made for a row written before they were kept, and its JSON
 * document where that is missing too; a concurrent reader's equal ones win.
 */
export async function storeMissingFacts(
  db: Db,
  organizationId: string,
  documentId: string,
  stored: StoredDocument,
): Promise<void> {
  await db
    .updateTable('documents')
    .set({
      outline: JSON.stringify(stored.facts.outline),
      links: JSON.stringify(stored.facts.links),
      language: stored.facts.language,
      document: sql`coalesce(document, ${stored.documentJson}::json)`,
    })
    .where('organization_id', '=', organizationId)
    .where('id', '=', documentId)
    .where((eb) => eb.or([eb('outline', 'is', null), eb('links', 'is', null), eb('language', 'is', null)]))
    .execute();
}

/** The markdown of documents, by id. */
export async function loadMarkdown(
  db: Db,
  organizationId: string,
  documentIds: readonly string[],
): Promise<Map<string, string>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('documents')
    .select(['id', 'markdown'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', sql<string>`any(${[...documentIds]}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, row.markdown]));
}
