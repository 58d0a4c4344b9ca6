import type { Db } from '../db/database.js';
import type { UserRow } from '../db/types.js';

export interface ProfileChanges {
  displayName?: string;
  photoUrl?: string;
}

/** Changes a user's own profile; undefined when the user is gone. */
export async function updateProfile(
  db: Db,
  userId: string,
  changes: ProfileChanges,
  now: Date,
): Promise<Pick<UserRow, 'id' | 'email' | 'display_name' | 'photo_url'> | undefined> {
  return db
    .updateTable('users')
    .set({
      ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
      ...(changes.photoUrl !== undefined ? { photo_url: changes.photoUrl } : {}),
      updated_at: now,
    })
    .where('id', '=', userId)
    .returning(['id', 'email', 'display_name', 'photo_url'])
    .executeTakeFirst();
}
