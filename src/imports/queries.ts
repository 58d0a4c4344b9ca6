import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ImportRuns } from '../db/tables.generated.js';
import type { PageRequest } from '../core/pagination.js';
import type { ImportedPageItem, ImportRunStatus } from './schemas.js';

export type ImportRun = Selectable<ImportRuns>;

/** Claims after which a run whose workers kept stopping (killed, out of memory) is given up. */
export const MAX_ATTEMPTS = 3;
export type ImportSourceType = 'website' | 'file' | 'git';

export interface NewImportRun {
  id: string;
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
  pageId: string | null;
  siteId: string | null;
  sourceType: ImportSourceType;
  sourceUrl: string | null;
  sourceRef: string | null;
  sourceProjectDirectory: string;
  sourceFiles: string[];
  authorizationSealed: string | null;
  createdBy: string;
  createdAt: Date;
}

export async function insertImportRun(db: Db, run: NewImportRun): Promise<ImportRun> {
  return db
    .insertInto('import_runs')
    .values({
      id: run.id,
      organization_id: run.organizationId,
      space_id: run.spaceId,
      change_request_id: run.changeRequestId,
      page_id: run.pageId,
      site_id: run.siteId,
      source_type: run.sourceType,
      source_url: run.sourceUrl,
      source_ref: run.sourceRef,
      source_project_directory: run.sourceProjectDirectory,
      source_files: run.sourceFiles,
      authorization_sealed: run.authorizationSealed,
      created_by: run.createdBy,
      created_at: run.createdAt,
      updated_at: run.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findImportRun(db: Db, organizationId: string, id: string): Promise<ImportRun | undefined> {
  return db
    .selectFrom('import_runs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface ImportRunFilters {
  space?: string;
  changeRequest?: string;
  site?: string;
  status?: ImportRunStatus | 'active';
  /** The spaces the caller may read; undefined for all of the organization's. */
  readableSpaces?: readonly string[];
}

/** An organization's runs, newest first by default, with the count of all that match. */
export async function listImportRuns(db: Db, organizationId: string, page: PageRequest, filters: ImportRunFilters) {
  let query = db.selectFrom('import_runs').where('organization_id', '=', organizationId);
  if (filters.space !== undefined) query = query.where('space_id', '=', filters.space);
  if (filters.changeRequest !== undefined) query = query.where('change_request_id', '=', filters.changeRequest);
  if (filters.site !== undefined) query = query.where('site_id', '=', filters.site);
  if (filters.status === 'active') query = query.where('status', 'in', ['pending', 'in-progress']);
  else if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.readableSpaces !== undefined)
    query = query.where('space_id', '=', sql<string>`any(${[...filters.readableSpaces]}::text[])`);
  const count = query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
  let rows = query.selectAll();
  if (page.after) {
    const position = sql`(${page.after.createdAt}::timestamptz, ${page.after.id})`;
    rows = rows.where(
      page.order === 'desc'
        ? sql<boolean>`(created_at, id) < ${position}`
        : sql<boolean>`(created_at, id) > ${position}`,
    );
  }
  const [items, total] = await Promise.all([
    rows
      .orderBy('created_at', page.order)
      .orderBy('id', page.order)
      .limit(page.limit + 1)
      .execute(),
    count,
  ]);
  return { rows: items, count: Number(total.count) };
}

/**
 * Takes the oldest run due: pending, or in progress under a lease that has
 * expired (its instance stopped). A run waits while an earlier one of its
 * organization is pending or in progress: an organization's imports run one
 * at a time, in the order they were asked.
 */
export async function claimImportRun(db: Db, now: Date, leaseMs: number): Promise<ImportRun | undefined> {
  return db
    .updateTable('import_runs')
    .set({
      status: 'in-progress',
      attempts: sql`attempts + 1`,
      lease_expires_at: new Date(now.getTime() + leaseMs),
      started_at: sql`coalesce(started_at, ${now})`,
      updated_at: now,
    })
    .where(
      'id',
      '=',
      db
        .selectFrom('import_runs as due')
        .select('due.id')
        .where((eb) =>
          eb.or([
            eb('due.status', '=', 'pending'),
            eb.and([eb('due.status', '=', 'in-progress'), eb('due.lease_expires_at', '<', now)]),
          ]),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('import_runs as earlier')
                .select('earlier.id')
                .whereRef('earlier.organization_id', '=', 'due.organization_id')
                .where('earlier.status', 'in', ['pending', 'in-progress'])
                .where((eb) =>
                  eb.or([
                    eb('earlier.created_at', '<', eb.ref('due.created_at')),
                    eb.and([
                      eb('earlier.created_at', '=', eb.ref('due.created_at')),
                      eb('earlier.id', '<', eb.ref('due.id')),
                    ]),
                  ]),
                ),
            ),
          ),
        )
        .orderBy('due.created_at')
        .orderBy('due.id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .executeTakeFirst();
}

/** What a worker records as it goes; only while it still holds the run (its claim, not cancelled). */
export interface RunProgress {
  draftChangeRequestId?: string | null;
  sourceVersion?: string | null;
  stepsDone?: number;
  stepsTotal?: number | null;
  written?: Record<string, string>;
  writtenRevisionId?: string | null;
  pages?: ImportedPageItem[];
}

/** Records progress; false when the run is no longer this claim's (cancelled, or taken again after its lease). */
export async function recordProgress(db: Db, run: ImportRun, progress: RunProgress, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('import_runs')
    .set({
      ...(progress.draftChangeRequestId !== undefined
        ? { draft_change_request_id: progress.draftChangeRequestId }
        : {}),
      ...(progress.sourceVersion !== undefined ? { source_version: progress.sourceVersion } : {}),
      ...(progress.stepsDone !== undefined ? { steps_done: progress.stepsDone } : {}),
      ...(progress.stepsTotal !== undefined ? { steps_total: progress.stepsTotal } : {}),
      ...(progress.written !== undefined ? { written: JSON.stringify(progress.written) } : {}),
      ...(progress.writtenRevisionId !== undefined ? { written_revision_id: progress.writtenRevisionId } : {}),
      ...(progress.pages !== undefined ? { pages: JSON.stringify(progress.pages) } : {}),
      updated_at: now,
    })
    .where('organization_id', '=', run.organization_id)
    .where('id', '=', run.id)
    .where('attempts', '=', run.attempts)
    .where('status', '=', 'in-progress')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends a run this claim holds; its credentials are forgotten. False when it was no longer this claim's. */
export async function endImportRun(
  db: Db,
  run: ImportRun,
  end: { status: 'completed' | 'failed'; reason: string | null },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('import_runs')
    .set({
      status: end.status,
      reason: end.reason,
      completed_at: end.status === 'completed' ? now : null,
      updated_at: now,
      lease_expires_at: null,
      authorization_sealed: null,
    })
    .where('organization_id', '=', run.organization_id)
    .where('id', '=', run.id)
    .where('attempts', '=', run.attempts)
    .where('status', '=', 'in-progress')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Cancels a pending or in-progress run; its worker stops at its next step. Undefined when it had ended. */
export async function cancelImportRunRow(
  db: Db,
  organizationId: string,
  id: string,
  reason: string,
  now: Date,
): Promise<ImportRun | undefined> {
  return db
    .updateTable('import_runs')
    .set({ status: 'cancelled', reason, updated_at: now, lease_expires_at: null, authorization_sealed: null })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'in-progress'])
    .returningAll()
    .executeTakeFirst();
}

/** Adds to a stopped run's reason what its worker left behind (a cancelled run says where it stopped). */
export async function noteOnRun(db: Db, run: ImportRun, reason: string, now: Date): Promise<void> {
  await db
    .updateTable('import_runs')
    .set({ reason, updated_at: now })
    .where('organization_id', '=', run.organization_id)
    .where('id', '=', run.id)
    .execute();
}

/** A run's status now, for a worker between steps. */
export async function statusOf(db: Db, run: ImportRun): Promise<{ status: string; attempts: number } | undefined> {
  return db
    .selectFrom('import_runs')
    .select(['status', 'attempts'])
    .where('organization_id', '=', run.organization_id)
    .where('id', '=', run.id)
    .executeTakeFirst();
}
