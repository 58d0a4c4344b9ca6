import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, Role } from '../db/types.js';
import { newId } from '../core/ids.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';

/** What grants are given on: a space, a collection, or a site (found by its organization, as its routes name it). */
export type GrantTarget =
  | { kind: 'space'; id: string }
  | { kind: 'collection'; id: string }
  | { kind: 'site'; id: string; organizationId: string };
/** Who a grant is given to: a member or a team. */
export type Grantee = 'user' | 'team';

const TARGET_COLUMNS = { space: 'space_id', collection: 'collection_id', site: 'site_id' } as const;
const targetColumn = (kind: GrantTarget['kind']) => TARGET_COLUMNS[kind];
const granteeColumn = (grantee: Grantee) => (grantee === 'user' ? 'user_id' : 'team_id');

/**
 * Gives `role` on the target to each grantee, replacing the role of a grant
 * already there: one statement per kind of grantee. Run in a transaction.
 */
export async function upsertGrants(
  tx: Db,
  organizationId: string,
  target: GrantTarget,
  grantee: Grantee,
  ids: readonly string[],
  role: Role,
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  const onTarget = targetColumn(target.kind);
  const onGrantee = granteeColumn(grantee);
  await tx
    .insertInto('content_grants')
    .values(
      ids.map((id) => ({
        id: newId(),
        organization_id: organizationId,
        [onTarget]: target.id,
        [onGrantee]: id,
        role,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns([onTarget, onGrantee])
        // The arbiter is the partial unique index of this kind of target and grantee.
        .where(onTarget, 'is not', null)
        .where(onGrantee, 'is not', null)
        .doUpdateSet({ role, updated_at: now }),
    )
    .execute();
}

/** Takes the grants of these grantees on the target away; how many there were. */
export async function deleteGrants(
  tx: Db,
  target: GrantTarget,
  grantee: Grantee,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await tx
    .deleteFrom('content_grants')
    .where(targetColumn(target.kind), '=', target.id)
    .where(granteeColumn(grantee), 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Changes the role of one grant; whether there was one. */
export async function updateGrant(
  db: Db,
  target: GrantTarget,
  grantee: Grantee,
  id: string,
  role: Role,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('content_grants')
    .set({ role, updated_at: now })
    .where(targetColumn(target.kind), '=', target.id)
    .where(granteeColumn(grantee), '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

function grantsOn(db: Kysely<Database>, kind: GrantTarget['kind'], targetId: string, grantee: Grantee) {
  return db
    .selectFrom('content_grants as g')
    .where(`g.${targetColumn(kind)}`, '=', targetId)
    .where(`g.${granteeColumn(grantee)}`, 'is not', null);
}

function userGrantsPage(kind: GrantTarget['kind']) {
  return pageQuery({ createdAt: 'g.created_at', id: 'g.id' }, (db, targetId: string) =>
    grantsOn(db, kind, targetId, 'user')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .select(['g.id', 'g.role', 'g.created_at', 'u.id as user_id', 'u.email', 'u.display_name', 'u.photo_url'])
      .select(() =>
        grantsOn(db, kind, targetId, 'user')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .as(TOTAL_COUNT),
      ),
  );
}

function teamGrantsPage(kind: GrantTarget['kind']) {
  return pageQuery({ createdAt: 'g.created_at', id: 'g.id' }, (db, targetId: string) =>
    grantsOn(db, kind, targetId, 'team')
      .select(['g.id', 'g.role', 'g.created_at', sql<string>`g.team_id`.as('team_id')])
      .select(() =>
        grantsOn(db, kind, targetId, 'team')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .as(TOTAL_COUNT),
      ),
  );
}

/** Pages of the grants to users on a space, a collection or a site, in the order they were first given. */
export const listUserGrants = {
  space: userGrantsPage('space'),
  collection: userGrantsPage('collection'),
  site: userGrantsPage('site'),
};
/** Pages of the grants to teams on a space, a collection or a site, in the order they were first given. */
export const listTeamGrants = {
  space: teamGrantsPage('space'),
  collection: teamGrantsPage('collection'),
  site: teamGrantsPage('site'),
};

export async function countGrants(db: Db, target: GrantTarget, grantee: Grantee): Promise<number> {
  const { n } = await grantsOn(db, target.kind, target.id, grantee)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}
