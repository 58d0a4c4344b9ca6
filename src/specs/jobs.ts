import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { SpecProcessError } from '../db/types.js';
import { newId } from '../core/ids.js';
import type { ProcessErrorCode } from './schemas.js';

/**
 * The processing queue of specs, in PostgreSQL. A job names a spec, not a
 * source: it processes whatever source the spec has when it runs. Every
 * write that ends a job first locks the spec's row, then the job's, the
 * order in which requests take them too (they write the spec, then enqueue).
 */

/** A job as its worker holds it. */
export interface ClaimedJob {
  id: string;
  organization_id: string;
  spec_id: string;
  /** Claims so far, this one included. */
  attempts: number;
  /** This claim's own token: the job's outcome is written only while it still holds it. */
  lease_token: string;
}

/**
 * Asks for the spec to be processed: a job waiting for it already (not yet
 * claimed) takes the request, due now; else a new job waits. While a job
 * runs, this queues exactly one more.
 */
export async function enqueueSpecJob(db: Db, organizationId: string, specId: string, now: Date): Promise<void> {
  await db
    .insertInto('openapi_spec_jobs')
    .values({
      id: newId(),
      organization_id: organizationId,
      spec_id: specId,
      state: 'pending',
      // Due at once by the database's clock, which every worker's claim reads.
      run_after: sql<Date>`now()`,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .column('spec_id')
        // A literal, not a parameter: PostgreSQL matches the partial index by its predicate when planning.
        .where('state', '=', sql.lit('pending'))
        .doUpdateSet({ attempts: 0, run_after: sql<Date>`now()`, last_error: null, updated_at: now }),
    )
    .execute();
}

/**
 * Claims the next job due, in one statement (its own short transaction):
 * a waiting job whose spec has no job running, or a running job whose lease
 * ran out (its worker stopped mid-way). SKIP LOCKED lets workers claim side
 * by side without waiting on each other; the claim marks the job running
 * until `leaseMs` from now, under a new lease token.
 */
export async function claimSpecJob(db: Db, leaseMs: number): Promise<ClaimedJob | undefined> {
  const token = newId();
  const result = await sql<ClaimedJob>`
    UPDATE openapi_spec_jobs AS job
    SET state = 'running',
        attempts = job.attempts + 1,
        lease_token = ${token},
        locked_until = now() + make_interval(secs => ${leaseMs / 1000}),
        updated_at = now()
    WHERE job.id = (
      SELECT candidate.id
      FROM openapi_spec_jobs AS candidate
      WHERE (
          candidate.state = 'pending'
          AND candidate.run_after <= now()
          AND NOT EXISTS (
            SELECT 1 FROM openapi_spec_jobs AS running
            WHERE running.spec_id = candidate.spec_id AND running.state = 'running'
          )
        )
        OR (candidate.state = 'running' AND candidate.locked_until < now())
      ORDER BY candidate.run_after, candidate.id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING job.id, job.organization_id, job.spec_id, job.attempts, job.lease_token
  `.execute(db);
  return result.rows[0];
}

/** Extends the lease of a job still held under `job`'s token; false when it is no longer (another worker took it over). */
export async function renewLease(db: Db, job: ClaimedJob, leaseMs: number): Promise<boolean> {
  const renewed = await db
    .updateTable('openapi_spec_jobs')
    .set({ locked_until: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where('organization_id', '=', job.organization_id)
    .where('id', '=', job.id)
    .where('lease_token', '=', job.lease_token)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) > 0;
}

/** Marks the spec as being processed and reads its source; undefined when it was deleted. */
export async function startSpecProcessing(db: Db, job: ClaimedJob) {
  return db
    .updateTable('openapi_specs')
    .set({ processing_state: 'progress' })
    .where('organization_id', '=', job.organization_id)
    .where('id', '=', job.spec_id)
    .returning(['source_url', 'source_text'])
    .executeTakeFirst();
}

/**
 * In a transaction: locks the spec's row, then checks that `job` still holds
 * its lease. Undefined when the spec is gone (its jobs went with it) or
 * another worker took the job over: its outcome is then not this worker's
 * to write.
 */
async function lockForOutcome(tx: Db, job: ClaimedJob) {
  const spec = await tx
    .selectFrom('openapi_specs as spec')
    .leftJoin('openapi_spec_versions as version', 'version.id', 'spec.last_version_id')
    .select(['spec.id', 'spec.last_version_id', 'version.content_hash'])
    .where('spec.id', '=', job.spec_id)
    .where('spec.organization_id', '=', job.organization_id)
    .forUpdate('spec')
    .executeTakeFirst();
  if (!spec) return undefined;
  const held = await tx
    .selectFrom('openapi_spec_jobs')
    .select('id')
    .where('organization_id', '=', job.organization_id)
    .where('id', '=', job.id)
    .where('lease_token', '=', job.lease_token)
    .forUpdate()
    .executeTakeFirst();
  return held ? spec : undefined;
}

/** Whether a job waits for the spec besides this one: the spec stays `pending` for it. */
async function anotherJobWaits(tx: Db, job: ClaimedJob): Promise<boolean> {
  const waiting = await tx
    .selectFrom('openapi_spec_jobs')
    .select('id')
    .where('organization_id', '=', job.organization_id)
    .where('spec_id', '=', job.spec_id)
    .where('state', '=', 'pending')
    .where('id', '<>', job.id)
    .executeTakeFirst();
  return waiting !== undefined;
}

/** A processed spec, ready to store. */
export interface ProcessedSpec {
  sourceUrl: string | null;
  hash: string;
  entryText: string;
  entryFormat: 'json' | 'yaml';
  /** The filesystem as JSON text. */
  filesystem: string;
  /** The outline as JSON text. */
  outline: string;
}

export type Outcome = 'stored' | 'unchanged' | 'gone';

/**
 * Ends a job that succeeded: stores a new version when the content differs
 * from the newest version's (compared under the spec's row lock, so that
 * two workers can never store two versions of one change), and records the
 * processing on the spec.
 */
export async function completeSpecJob(db: Db, job: ClaimedJob, processed: ProcessedSpec, now: Date): Promise<Outcome> {
  return db.transaction().execute(async (tx) => {
    const spec = await lockForOutcome(tx, job);
    if (!spec) return 'gone';
    let versionId = spec.last_version_id;
    const changed = spec.content_hash !== processed.hash;
    if (changed) {
      versionId = newId();
      await tx
        .insertInto('openapi_spec_versions')
        .values({
          id: versionId,
          organization_id: job.organization_id,
          spec_id: job.spec_id,
          source_url: processed.sourceUrl,
          content_hash: processed.hash,
          entry_text: processed.entryText,
          entry_format: processed.entryFormat,
          filesystem: processed.filesystem,
          outline: processed.outline,
          created_at: now,
        })
        .execute();
    }
    await tx
      .deleteFrom('openapi_spec_jobs')
      .where('organization_id', '=', job.organization_id)
      .where('id', '=', job.id)
      .execute();
    await tx
      .updateTable('openapi_specs')
      .set({
        processing_state: (await anotherJobWaits(tx, job)) ? 'pending' : 'complete',
        last_version_id: versionId,
        last_processed_at: now,
        last_process_error_code: null,
        last_processed_errors: null,
        updated_at: now,
      })
      .where('organization_id', '=', job.organization_id)
      .where('id', '=', job.spec_id)
      .execute();
    return changed ? 'stored' : 'unchanged';
  });
}

/** Ends a job that failed for good: the spec records why, and keeps its last version. */
export async function failSpecJob(
  db: Db,
  job: ClaimedJob,
  failure: { code: ProcessErrorCode; errors: SpecProcessError[] },
  now: Date,
): Promise<Outcome> {
  return db.transaction().execute(async (tx) => {
    if (!(await lockForOutcome(tx, job))) return 'gone';
    await tx
      .deleteFrom('openapi_spec_jobs')
      .where('organization_id', '=', job.organization_id)
      .where('id', '=', job.id)
      .execute();
    await tx
      .updateTable('openapi_specs')
      .set({
        processing_state: (await anotherJobWaits(tx, job)) ? 'pending' : 'complete',
        last_processed_at: now,
        last_process_error_code: failure.code,
        last_processed_errors: JSON.stringify(failure.errors),
        updated_at: now,
      })
      .where('organization_id', '=', job.organization_id)
      .where('id', '=', job.spec_id)
      .execute();
    return 'unchanged';
  });
}

/**
 * Puts a job back to wait `delayMs` (a failure to try again, or a worker
 * stopping): the spec is `pending` again. When another job already waits
 * for the spec, that one will do, and this one is dropped. `refund` takes
 * back the claim's attempt (the job did not fail, its worker stopped).
 */
export async function retrySpecJob(
  db: Db,
  job: ClaimedJob,
  retry: { delayMs: number; error: string; refund?: boolean },
): Promise<Outcome> {
  return db.transaction().execute(async (tx) => {
    if (!(await lockForOutcome(tx, job))) return 'gone';
    if (await anotherJobWaits(tx, job)) {
      await tx
        .deleteFrom('openapi_spec_jobs')
        .where('organization_id', '=', job.organization_id)
        .where('id', '=', job.id)
        .execute();
    } else {
      await tx
        .updateTable('openapi_spec_jobs')
        .set({
          state: 'pending',
          attempts: retry.refund ? job.attempts - 1 : job.attempts,
          run_after: sql<Date>`now() + make_interval(secs => ${retry.delayMs / 1000})`,
          locked_until: null,
          lease_token: null,
          last_error: retry.error.slice(0, 1000),
          updated_at: sql<Date>`now()`,
        })
        .where('organization_id', '=', job.organization_id)
        .where('id', '=', job.id)
        .execute();
    }
    await tx
      .updateTable('openapi_specs')
      .set({ processing_state: 'pending' })
      .where('organization_id', '=', job.organization_id)
      .where('id', '=', job.spec_id)
      .execute();
    return 'unchanged';
  });
}
