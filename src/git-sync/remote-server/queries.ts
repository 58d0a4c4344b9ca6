import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** A revision of the space's own line, oldest first, as its commit needs it. */
export interface LineRevision {
  id: string;
  seq: number;
  createdAt: Date;
  createdBy: string | null;
  displayName: string | null;
  type: string;
  mergedSubject: string | null;
}

/** A revision's commit on main, as git_remote_commits keeps it. */
export interface RevisionCommit {
  revisionId: string;
  commitSha: string;
  pushedSha: string | null;
  author: { name: string; email: string } | null;
}

/** The space's revisions that have commits, in the order of the line. */
export async function listRevisionCommits(db: Db, organizationId: string, spaceId: string) {
  const rows = await db
    .selectFrom('git_remote_commits as c')
    .innerJoin('revisions as r', 'r.id', 'c.revision_id')
    .select(['c.revision_id', 'c.commit_sha', 'c.pushed_sha', 'c.author_name', 'c.author_email', 'r.seq'])
    .where('c.organization_id', '=', organizationId)
    .where('c.space_id', '=', spaceId)
    .orderBy('r.seq')
    .execute();
  return rows.map((row): RevisionCommit & { seq: number } => ({
    revisionId: row.revision_id,
    commitSha: row.commit_sha,
    pushedSha: row.pushed_sha,
    author:
      row.author_name !== null && row.author_email !== null ? { name: row.author_name, email: row.author_email } : null,
    seq: row.seq,
  }));
}

const lineRevisionColumns = [
  'r.id',
  'r.seq',
  'r.created_at as createdAt',
  'r.created_by as createdBy',
  'u.display_name as displayName',
  'r.type',
  'cr.subject as mergedSubject',
] as const;

/** The space's line after `afterSeq` (from its start for -1), the newest `limit` of it, oldest first. */
export async function listLineRevisionsAfter(
  db: Db,
  organizationId: string,
  spaceId: string,
  afterSeq: number,
  limit: number,
): Promise<LineRevision[]> {
  const rows = await db
    .selectFrom('revisions as r')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .leftJoin('change_requests as cr', 'cr.id', 'r.merged_from')
    .select(lineRevisionColumns)
    .where('r.space_id', '=', spaceId)
    .where('r.organization_id', '=', organizationId)
    .where('r.change_request_id', 'is', null)
    .where('r.seq', '>', afterSeq)
    .orderBy('r.seq', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** The line revisions of `ids`, oldest first. */
export async function findLineRevisions(db: Db, spaceId: string, ids: readonly string[]): Promise<LineRevision[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('revisions as r')
    .leftJoin('users as u', 'u.id', 'r.created_by')
    .leftJoin('change_requests as cr', 'cr.id', 'r.merged_from')
    .select(lineRevisionColumns)
    .where('r.space_id', '=', spaceId)
    .where('r.change_request_id', 'is', null)
    .where('r.id', '=', sql<string>`any(${ids}::text[])`)
    .orderBy('r.seq')
    .execute();
}

/** The space's current revision and its seq, or undefined for a space gone. */
export async function findCurrentRevision(db: Db, organizationId: string, spaceId: string) {
  return db
    .selectFrom('spaces as s')
    .innerJoin('revisions as r', 'r.id', 's.revision_id')
    .select(['s.revision_id as revisionId', 'r.seq'])
    .where('s.id', '=', spaceId)
    .where('s.organization_id', '=', organizationId)
    .where('s.deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function saveRevisionCommits(
  db: Db,
  organizationId: string,
  spaceId: string,
  commits: readonly RevisionCommit[],
  now: Date,
): Promise<void> {
  if (commits.length === 0) return;
  await db
    .insertInto('git_remote_commits')
    .values(
      commits.map((commit) => ({
        organization_id: organizationId,
        space_id: spaceId,
        revision_id: commit.revisionId,
        commit_sha: commit.commitSha,
        pushed_sha: commit.pushedSha,
        author_name: commit.author?.name ?? null,
        author_email: commit.author?.email ?? null,
        created_at: now,
      })),
    )
    // Built again after the repository was lost: the same commit, unless the second parent was lost with it.
    .onConflict((conflict) =>
      conflict.column('revision_id').doUpdateSet((eb) => ({
        commit_sha: eb.ref('excluded.commit_sha'),
        pushed_sha: eb.ref('excluded.pushed_sha'),
        author_name: eb.ref('excluded.author_name'),
        author_email: eb.ref('excluded.author_email'),
      })),
    )
    .execute();
}

/** Marks the revision a push made as made from `pushedSha`, before its commit is built. */
export async function notePushedRevision(
  db: Db,
  organizationId: string,
  spaceId: string,
  revisionId: string,
  pushedSha: string,
  now: Date,
): Promise<void> {
  // Its commit is built next, under the space's lock; until then the row names the pushed commit.
  await db
    .insertInto('git_remote_commits')
    .values({
      organization_id: organizationId,
      space_id: spaceId,
      revision_id: revisionId,
      commit_sha: pushedSha,
      pushed_sha: pushedSha,
      created_at: now,
    })
    .onConflict((conflict) => conflict.column('revision_id').doNothing())
    .execute();
}

/** Which of `shas` are commits of the space's line, with the revision each stands for. */
export async function findCommitRevisions(db: Db, organizationId: string, spaceId: string, shas: readonly string[]) {
  if (shas.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('git_remote_commits')
    .select(['commit_sha', 'revision_id'])
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .where('commit_sha', '=', sql<string>`any(${shas}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.commit_sha, row.revision_id]));
}

export interface BranchRow {
  name: string;
  changeRequestId: string;
  commitSha: string;
  revisionId: string;
  /** The change request's own revision now, and whether it is still open to writes. */
  currentRevisionId: string;
  status: string;
}

/** The space's pushed branches whose change requests are neither merged nor archived. */
export async function listLiveBranches(db: Db, organizationId: string, spaceId: string): Promise<BranchRow[]> {
  return db
    .selectFrom('git_remote_branches as b')
    .innerJoin('change_requests as cr', 'cr.id', 'b.change_request_id')
    .select([
      'b.name',
      'b.change_request_id as changeRequestId',
      'b.commit_sha as commitSha',
      'b.revision_id as revisionId',
      'cr.revision_id as currentRevisionId',
      'cr.status',
    ])
    .where('b.organization_id', '=', organizationId)
    .where('b.space_id', '=', spaceId)
    .where('cr.status', 'in', ['draft', 'open'])
    .orderBy('b.name')
    .execute();
}

export async function findBranch(db: Db, organizationId: string, spaceId: string, name: string) {
  return db
    .selectFrom('git_remote_branches as b')
    .innerJoin('change_requests as cr', 'cr.id', 'b.change_request_id')
    .select(['b.change_request_id as changeRequestId', 'cr.status', 'cr.number'])
    .where('b.organization_id', '=', organizationId)
    .where('b.space_id', '=', spaceId)
    .where('b.name', '=', name)
    .executeTakeFirst();
}

export async function saveBranch(
  db: Db,
  branch: {
    organizationId: string;
    spaceId: string;
    name: string;
    changeRequestId: string;
    commitSha: string;
    revisionId: string;
  },
  now: Date,
): Promise<void> {
  const values = {
    change_request_id: branch.changeRequestId,
    commit_sha: branch.commitSha,
    revision_id: branch.revisionId,
    updated_at: now,
  };
  await db
    .insertInto('git_remote_branches')
    .values({ organization_id: branch.organizationId, space_id: branch.spaceId, name: branch.name, ...values })
    .onConflict((conflict) => conflict.columns(['space_id', 'name']).doUpdateSet(values))
    .execute();
}

export async function deleteBranch(db: Db, organizationId: string, spaceId: string, name: string): Promise<void> {
  await db
    .deleteFrom('git_remote_branches')
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .where('name', '=', name)
    .execute();
}

/** The change request's current revision. */
export async function findChangeRequestRevision(db: Db, organizationId: string, changeRequestId: string) {
  const row = await db
    .selectFrom('change_requests')
    .select('revision_id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', changeRequestId)
    .executeTakeFirst();
  return row?.revision_id;
}
