import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ReusableContentVersionRow } from '../db/types.js';
import { entriesAt, type RevisionPoint } from './state.js';

/** One reusable content as a revision holds it: the fields of its version, keyed by its own id. */
export interface ReusableContentState {
  reusableContentId: string;
  versionId: string;
  title: string;
  /** The document with its content; null when it is empty. */
  documentId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A revision's reusable contents, by id. */
export type ReusableContents = ReadonlyMap<string, ReusableContentState>;

type VersionRecord = Pick<
  ReusableContentVersionRow,
  'id' | 'reusable_content_id' | 'title' | 'document_id' | 'reusable_content_created_at' | 'created_at'
>;

const toState = (row: VersionRecord): ReusableContentState => ({
  reusableContentId: row.reusable_content_id,
  versionId: row.id,
  title: row.title,
  documentId: row.document_id,
  createdAt: row.reusable_content_created_at,
  updatedAt: row.created_at,
});

/** Reads the reusable contents of a revision, without their markdown: one query, whatever their number. */
export async function loadReusableContents(db: Db, point: RevisionPoint): Promise<Map<string, ReusableContentState>> {
  const { rows } = await sql<VersionRecord>`
    select rv.id, rv.reusable_content_id, rv.title, rv.document_id, rv.reusable_content_created_at, rv.created_at
    from (${entriesAt(point, 'reusable_content')}) as state
    join reusable_content_versions rv on rv.id = state.version_id
    where rv.organization_id = ${point.organizationId}`.execute(db);
  return new Map(rows.map((row) => [row.reusable_content_id, toState(row)]));
}

/** The spec's RevisionReusableContent: its id, title, and the id of its document where it has one. */
export interface RevisionReusableContent {
  id: string;
  title: string;
  document?: string;
}

export function presentReusableContent(state: ReusableContentState): RevisionReusableContent {
  return {
    id: state.reusableContentId,
    title: state.title,
    ...(state.documentId ? { document: state.documentId } : {}),
  };
}

/** A revision's reusable contents as the revision object lists them: oldest first, ties by id. */
export function listReusableContents(contents: ReusableContents): RevisionReusableContent[] {
  return [...contents.values()]
    .sort(
      (a, b) =>
        a.createdAt.getTime() - b.createdAt.getTime() ||
        (a.reusableContentId < b.reusableContentId ? -1 : a.reusableContentId > b.reusableContentId ? 1 : 0),
    )
    .map(presentReusableContent);
}
