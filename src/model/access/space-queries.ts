import { sql, type Expression, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { precompiled } from '../../db/precompiled.js';
import type { Database, DefaultLevel, Role, SpacesTable } from '../../db/types.js';
import { walkUp } from '../hierarchy/walk.js';
import { grantRolesOnSpace } from './grants.js';
import { organizationClock, profileClock } from '../clocks.js';

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

/** SpaceWithAccess as JSON: its times are strings. */
type SpaceAccessJson = Omit<SpaceWithAccess, 'created_at' | 'updated_at' | 'deleted_at'> & {
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
};

/** What spaceAccessColumn carries: SpaceAccessJson as JSON text. */
export type SpaceAccessText = string & { readonly __spaceAccess: true };

/**
 * The space with the caller's access as one JSON column of another query on
 * the space (SQL), so that reading something of a space and checking the
 * caller's access to it cost one round trip. Check it with the functions of
 * access/spaces.ts before using anything of the row.
 *
 * The column is text, not jsonb: a page of rows repeats it on every row, and
 * text is neither converted by PostgreSQL nor parsed by pg row by row; only
 * the row that is checked is parsed.
 */
export function spaceAccessColumn(
  db: Kysely<Database>,
  spaceId: string | Expression<string>,
  userId: string,
): RawBuilder<SpaceAccessText | null> {
  return sql<SpaceAccessText | null>`(select to_jsonb(a)::text from ${spaceWithAccessQuery(db, spaceId, userId)} a)`;
}

/** The space of a spaceAccessColumn, as findSpaceWithAccess gives it. */
export function spaceFromAccessColumn(text: SpaceAccessText): SpaceWithAccess {
  const json = JSON.parse(text) as SpaceAccessJson;
  return {
    ...json,
    created_at: new Date(json.created_at),
    updated_at: new Date(json.updated_at),
    deleted_at: json.deleted_at === null ? null : new Date(json.deleted_at),
  };
}

/**
 * The clocks of the space's organization (see findMembershipByClocks), found
 * by the space: read before the space and the caller's access to it, which
 * may then run unrecorded.
 */
export async function readSpaceOrganizationClocks(db: Db, spaceId: string): Promise<void> {
  await spaceOrganizationClocks(db, spaceId);
}
const spaceOrganizationClocks = precompiled((db, spaceId: string) =>
  db
    .selectFrom('spaces as s')
    .where('s.id', '=', spaceId)
    .select([
      's.organization_id',
      organizationClock(sql.ref<string>('s.organization_id')).as('organization_clock'),
      profileClock().as('profile_clock'),
    ]),
);
