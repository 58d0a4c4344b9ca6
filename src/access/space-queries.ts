import { sql, type Expression, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { Database, DefaultLevel, Role, SpacesTable } from '../db/types.js';
import { walkUp } from '../hierarchy/walk.js';
import { grantRolesOnSpace } from './grants.js';

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
export const SPACE_FIELDS = [
  'id',
  'organization_id',
  'parent_id',
  'title',
  'emoji',
  'visibility',
  'edit_mode',
  'default_level',
  'merge_rules',
  'share_key',
  'revision_id',
  'comments_open_count',
  'comments_total_count',
  'change_requests_count',
  'change_requests_open_count',
  'change_requests_draft_count',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;
export const SPACE_COLUMNS = SPACE_FIELDS.map((field) => `s.${field}` as const);
/** The columns a Space response, and the access checks, are made from. */
export type SpaceFields = Pick<Selectable<SpacesTable>, (typeof SPACE_FIELDS)[number]>;
/**
 * A space with what the caller is to its organization, the default levels of
 * its parent collections, and the roles of the grants that reach the caller
 * on it and on them.
 */
export interface SpaceWithAccess extends SpaceFields {
  member_role: Role | null;
  is_member: boolean;
  chain_levels: DefaultLevel[] | null;
  grant_roles: Role[] | null;
}
export async function findSpaceWithAccess(
  db: Db,
  spaceId: string,
  userId: string,
): Promise<SpaceWithAccess | undefined> {
  return (await spaceWithAccess(db, spaceId, userId))[0];
}
const spaceWithAccess = precompiled((db, spaceId: string, userId: string) => spaceWithAccessQuery(db, spaceId, userId));

/** The space `spaceId` (a value, or a column of a query around) with the caller's access. */
function spaceWithAccessQuery(db: Kysely<Database>, spaceId: string | Expression<string>, userId: string) {
  return walkUp(db, sql<string[]>`array(select parent_id from spaces where id = ${spaceId})`)
    .selectFrom('spaces as s')
    .leftJoin('organization_members as m', (join) =>
      join
        .onRef('m.organization_id', '=', 's.organization_id')
        .on('m.user_id', '=', userId)
        .on('m.disabled', '=', false),
    )
    .select(SPACE_COLUMNS)
    .select(['m.role as member_role', sql<boolean>`m.user_id is not null`.as('is_member')])
    .select(sql<DefaultLevel[] | null>`(select array_agg(chain.default_level) from chain)`.as('chain_levels'))
    .select(grantRolesOnSpace(userId).as('grant_roles'))
    .where('s.id', '=', spaceId);
}
