import type { DbOrTx } from '../db/database.js';
import type { UserRow } from '../db/types.js';

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
const USER_FIELDS = ['id', 'email', 'display_name', 'photo_url', 'created_at', 'updated_at'] as const;
import { newId } from '../core/ids.js';
import type { Clock } from '../core/clock.js';

export interface NewUserInput {
  email: string;
  displayName: string;
  photoUrl?: string | null;
}

export async function createUser(db: DbOrTx, clock: Clock, input: NewUserInput): Promise<UserRow> {
  const now = clock.now();
  return db
    .insertInto('users')
    .values({
      id: newId(),
      email: input.email.trim().toLowerCase(),
      display_name: input.displayName.trim(),
      photo_url: input.photoUrl ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning(USER_FIELDS)
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_FIELDS).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

/** A user the caller may see: themselves, or someone who shares an organization with them. */
export async function findUserVisibleTo(db: DbOrTx, userId: string, callerId: string): Promise<UserRow | undefined> {
  if (userId === callerId) return db.selectFrom('users').select(USER_FIELDS).where('id', '=', userId).executeTakeFirst();
  return db
    .selectFrom('users as u')
    .select(USER_FIELDS.map((field) => `u.${field}` as const))
    .where('u.id', '=', userId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('organization_members as theirs')
          .innerJoin('organization_members as mine', 'mine.organization_id', 'theirs.organization_id')
          .select('theirs.user_id')
          .where('theirs.user_id', '=', userId)
          .where('mine.user_id', '=', callerId)
          .where('mine.disabled', '=', false),
      ),
    )
    .executeTakeFirst();
}
