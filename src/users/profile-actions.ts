import type { User } from '../core/schemas.js';
import { ForbiddenError, NotFoundError } from '../core/errors.js';
import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import { findUserVisibleTo } from './user-queries.js';
import { presentVisibleUser } from './present.js';
import { updateProfile } from './profile-queries.js';
import type { TemporaryToken, UpdateUserBody } from './profile-schemas.js';
import { signNotificationsToken } from './notifications-token.js';

/**
 * A user changes their own name and photo, nobody else's: a user the caller
 * may see (they share an organization) is a 403, any other a 404, as an
 * unknown id is. An installation is no user, so it meets the 404.
 */
export async function updateUser(
  context: Context,
  caller: Caller,
  userId: string,
  body: UpdateUserBody,
): Promise<User> {
  if (userId !== caller.userId || caller.installation) {
    const visible = caller.installation ? undefined : await findUserVisibleTo(context.db, userId, caller.userId);
    if (!visible) throw new NotFoundError('No user with this id is visible to you');
    throw new ForbiddenError('A user’s profile can be changed only by that user');
  }
  const changes = {
    ...(body.displayName !== undefined ? { displayName: body.displayName.trim() } : {}),
    ...(body.photoURL !== undefined ? { photoUrl: body.photoURL } : {}),
  };
  const updated = await updateProfile(context.db, userId, changes, context.clock.now());
  if (!updated) throw new NotFoundError('No user with this id is visible to you');
  return presentVisibleUser(updated, context.urls);
}

/** A notifications token for the caller alone; an installation has no notifications. */
export async function createNotificationsToken(context: Context, caller: Caller): Promise<TemporaryToken> {
  if (caller.installation) throw new ForbiddenError('An integration installation has no user notifications');
  const token = await signNotificationsToken(caller.userId, {
    serviceSecret: context.serviceSecret,
    issuer: context.config.publicUrl,
    now: context.clock.now(),
  });
  return { token };
}
