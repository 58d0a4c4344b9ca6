import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { GitSyncInstallations } from '../../db/tables.generated.js';
import type { GitSyncInstallationRow } from '../../spaces/git-sync-state.js';

export type { GitSyncInstallationRow };

export async function insertInstallation(
  db: Db,
  row: Insertable<GitSyncInstallations>,
): Promise<GitSyncInstallationRow> {
  return db.insertInto('git_sync_installations').values(row).returningAll().executeTakeFirstOrThrow();
}

/** An installation by its id alone: the id is the caller's only key (the routes under /git/installations). */
export async function findInstallation(db: Db, installationId: string): Promise<GitSyncInstallationRow | undefined> {
  return db.selectFrom('git_sync_installations').selectAll().where('id', '=', installationId).executeTakeFirst();
}

export async function updateInstallation(
  db: Db,
  organizationId: string,
  installationId: string,
  changes: Updateable<GitSyncInstallations>,
): Promise<GitSyncInstallationRow | undefined> {
  return db
    .updateTable('git_sync_installations')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', installationId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteInstallation(db: Db, organizationId: string, installationId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('git_sync_installations')
    .where('organization_id', '=', organizationId)
    .where('id', '=', installationId)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** The installations of the spaces a site publishes, oldest first. */
export async function listInstallationsOfSite(
  db: Db,
  organizationId: string,
  siteId: string,
): Promise<GitSyncInstallationRow[]> {
  return db
    .selectFrom('git_sync_installations as i')
    .selectAll('i')
    .where('i.organization_id', '=', organizationId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('site_spaces as ss')
          .select('ss.id')
          .where('ss.organization_id', '=', organizationId)
          .where('ss.site_id', '=', siteId)
          .whereRef('ss.space_id', '=', 'i.space_id'),
      ),
    )
    .orderBy('i.created_at')
    .orderBy('i.id')
    .execute();
}

/** The space's latest Git Sync operation, whatever asked for it. */
export async function findLatestOperation(db: Db, organizationId: string, spaceId: string) {
  return db
    .selectFrom('git_sync_operations')
    .select(['state', 'direction', 'created_at', 'started_at', 'ended_at', 'error'])
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Whether an import of the branch into the space is queued and not started yet: another would do the same work. */
export async function importWaiting(
  db: Db,
  organizationId: string,
  spaceId: string,
  url: string,
  ref: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('git_sync_operations')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .where('direction', '=', 'import')
    .where('state', '=', 'queued')
    .where('url', '=', url)
    .where('ref', '=', ref)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Polling on (due at `dueAt`) or off (null). */
export async function schedulePolling(
  db: Db,
  installation: { organizationId: string; id: string },
  dueAt: Date | null,
): Promise<void> {
  if (dueAt === null) {
    await db
      .deleteFrom('git_sync_polls')
      .where('organization_id', '=', installation.organizationId)
      .where('installation_id', '=', installation.id)
      .execute();
    return;
  }
  await db
    .insertInto('git_sync_polls')
    .values({ installation_id: installation.id, organization_id: installation.organizationId, due_at: dueAt })
    .onConflict((oc) => oc.column('installation_id').doUpdateSet({ due_at: dueAt }))
    .execute();
}

/** The installation's polling: when it is next due, when it last ran and why it failed. */
export async function findPoll(db: Db, organizationId: string, installationId: string) {
  return db
    .selectFrom('git_sync_polls')
    .select(['due_at', 'polled_at', 'error'])
    .where('organization_id', '=', organizationId)
    .where('installation_id', '=', installationId)
    .executeTakeFirst();
}

/**
 * Claims the installation whose poll is the most overdue: due, and not held
 * under a lease that is still running (an instance polling it now). The
 * lease is the claim; another instance skips the row.
 */
export async function claimPoll(db: Db, now: Date, leaseMs: number) {
  return db
    .updateTable('git_sync_polls')
    .set({ lease_expires_at: new Date(now.getTime() + leaseMs) })
    .where(
      'installation_id',
      '=',
      db
        .selectFrom('git_sync_polls as due')
        .select('due.installation_id')
        .where('due.due_at', '<=', now)
        .where((eb) => eb.or([eb('due.lease_expires_at', 'is', null), eb('due.lease_expires_at', '<', now)]))
        .orderBy('due.due_at')
        .orderBy('due.installation_id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['installation_id', 'organization_id', 'lease_expires_at'])
    .executeTakeFirst();
}

/** Ends a poll this instance holds: next due at `dueAt`, with the reason it failed if it did. */
export async function endPoll(
  db: Db,
  poll: { installation_id: string; organization_id: string; lease_expires_at: Date | null },
  outcome: { now: Date; dueAt: Date; error: string | null },
): Promise<void> {
  await db
    .updateTable('git_sync_polls')
    .set({ due_at: outcome.dueAt, lease_expires_at: null, polled_at: outcome.now, error: outcome.error })
    .where('organization_id', '=', poll.organization_id)
    .where('installation_id', '=', poll.installation_id)
    // Still ours: a lease that expired meanwhile may have gone to another instance.
    .where(sql<boolean>`lease_expires_at is not distinct from ${poll.lease_expires_at}`)
    .execute();
}
