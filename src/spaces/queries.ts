import { sql, type Kysely, type Selectable, type UpdateObject } from 'kysely';
import type { DbOrTx } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { Database, DefaultLevel, Role, SpacesTable, Visibility } from '../db/types.js';
import { walkUp } from '../core/access.js';
import type { Clock } from '../core/clock.js';
import { newId, randomString } from '../core/ids.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { nextPosition } from '../collections/positions.js';

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
const SPACE_FIELDS = [
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
const SPACE_COLUMNS = SPACE_FIELDS.map((field) => `s.${field}` as const);

/** The columns a Space response, and the access checks, are made from. */
export type SpaceFields = Pick<Selectable<SpacesTable>, (typeof SPACE_FIELDS)[number]>;

/** A space with what the caller is to its organization and the default levels of its parent collections. */
export interface SpaceWithAccess extends SpaceFields {
  member_role: Role | null;
  is_member: boolean;
  chain_levels: DefaultLevel[] | null;
}

export async function findSpaceWithAccess(db: DbOrTx, spaceId: string, userId: string): Promise<SpaceWithAccess | undefined> {
  return (await spaceWithAccess(db, spaceId, userId))[0];
}

const spaceWithAccess = precompiled((db, spaceId: string, userId: string) =>
  walkUp(db, sql<string[]>`array(select parent_id from spaces where id = ${spaceId})`)
    .selectFrom('spaces as s')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 's.organization_id').on('m.user_id', '=', userId).on('m.disabled', '=', false),
    )
    .select(SPACE_COLUMNS)
    .select(['m.role as member_role', sql<boolean>`m.user_id is not null`.as('is_member')])
    .select(sql<DefaultLevel[] | null>`(select array_agg(chain.default_level) from chain)`.as('chain_levels'))
    .where('s.id', '=', spaceId),
);

export interface NewSpaceInput {
  organizationId: string;
  parentId: string | null;
  title: string;
  emoji: string | null;
  editMode: 'live' | 'locked';
  visibility: Visibility;
  defaultLevel?: DefaultLevel;
}

export async function createSpace(db: DbOrTx, clock: Clock, input: NewSpaceInput): Promise<SpaceFields> {
  const now = clock.now();
  const insert = (tx: DbOrTx) =>
    tx
      .insertInto('spaces')
      .values({
        id: newId(),
        organization_id: input.organizationId,
        parent_id: input.parentId,
        title: input.title,
        emoji: input.emoji,
        visibility: input.visibility,
        edit_mode: input.editMode,
        ...(input.defaultLevel !== undefined ? { default_level: input.defaultLevel } : {}),
        share_key: randomString(32),
        revision_id: newId(),
        position: nextPosition(input.organizationId, input.parentId),
        created_at: now,
        updated_at: now,
      })
      .returning(SPACE_FIELDS)
      .executeTakeFirstOrThrow();
  // Every space starts at its initial, empty revision: seq 0 of its line.
  const withRevision = async (tx: DbOrTx) => {
    const space = await insert(tx);
    await tx
      .insertInto('revisions')
      .values({ id: space.revision_id, organization_id: space.organization_id, space_id: space.id, seq: 0, created_at: now })
      .execute();
    return space;
  };
  return db.isTransaction ? withRevision(db) : db.transaction().execute(withRevision);
}

export async function updateSpace(db: DbOrTx, spaceId: string, changes: UpdateObject<Database, 'spaces'>): Promise<SpaceFields> {
  return db.updateTable('spaces').set(changes).where('id', '=', spaceId).returning(SPACE_FIELDS).executeTakeFirstOrThrow();
}

function liveSpacesOf(db: Kysely<Database>, organizationId: string) {
  return db.selectFrom('spaces as s').where('s.organization_id', '=', organizationId).where('s.deleted_at', 'is', null);
}

const liveSpacesInOrganizationCount = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom('organizations').select('live_spaces_count').where('id', '=', organizationId);

/** A page of an organization's spaces that are not deleted, newest first, each row carrying the total count. */
export const listSpacesInOrganization = pageQuery({ createdAt: 's.created_at', id: 's.id' }, (db, organizationId: string) =>
  liveSpacesOf(db, organizationId)
    .select(SPACE_COLUMNS)
    .select(() => liveSpacesInOrganizationCount(db, organizationId).as(TOTAL_COUNT)),
);

export async function countSpacesInOrganization(db: DbOrTx, organizationId: string): Promise<number> {
  const row = await liveSpacesInOrganizationCount(db as Kysely<Database>, organizationId).executeTakeFirst();
  return row?.live_spaces_count ?? 0;
}

function liveSpacesIn(db: Kysely<Database>, collectionId: string) {
  return db.selectFrom('spaces as s').where('s.parent_id', '=', collectionId).where('s.deleted_at', 'is', null);
}

const liveSpacesInCollectionCount = (db: Kysely<Database>, collectionId: string) =>
  db.selectFrom('collections').select('live_spaces_count').where('id', '=', collectionId);

/** A page of a collection's spaces that are not deleted, newest first, each row carrying the total count. */
export const listSpacesInCollection = pageQuery({ createdAt: 's.created_at', id: 's.id' }, (db, collectionId: string) =>
  liveSpacesIn(db, collectionId)
    .select(SPACE_COLUMNS)
    .select(() => liveSpacesInCollectionCount(db, collectionId).as(TOTAL_COUNT)),
);

export async function countSpacesInCollection(db: DbOrTx, collectionId: string): Promise<number> {
  const row = await liveSpacesInCollectionCount(db as Kysely<Database>, collectionId).executeTakeFirst();
  return row?.live_spaces_count ?? 0;
}
