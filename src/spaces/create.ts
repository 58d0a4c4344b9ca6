import type { Db } from '../db/database.js';
import type { DefaultLevel, Visibility } from '../db/types.js';
import type { Clock } from '../core/clock.js';
import { newId, randomString } from '../core/ids.js';
import { nextPosition } from '../hierarchy/positions.js';
import { type SpaceFields, SPACE_FIELDS } from '../access/space-queries.js';

/** Creating a space with its first revision: the spaces domain does it, and so does a site created with a new space. */
export interface NewSpaceInput {
  organizationId: string;
  parentId: string | null;
  title: string;
  emoji: string | null;
  editMode: 'live' | 'locked';
  visibility: Visibility;
  defaultLevel?: DefaultLevel;
}

export async function createSpace(db: Db, clock: Clock, input: NewSpaceInput): Promise<SpaceFields> {
  const now = clock.now();
  const insert = (tx: Db) =>
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
  const withRevision = async (tx: Db) => {
    const space = await insert(tx);
    await tx
      .insertInto('revisions')
      .values({
        id: space.revision_id,
        organization_id: space.organization_id,
        space_id: space.id,
        seq: 0,
        created_at: now,
      })
      .execute();
    return space;
  };
  return db.isTransaction ? withRevision(db) : db.transaction().execute(withRevision);
}
