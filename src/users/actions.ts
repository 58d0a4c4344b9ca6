import type { User } from '../core/schemas.js';
import { NotFoundError } from '../core/errors.js';
import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import { findUserVisibleTo } from './user-queries.js';
import { presentCaller, presentVisibleUser } from './present.js';

/** The profile of the authenticated user: what authentication already read, no query. */
export async function getAuthenticatedUser(context: Context, caller: Caller): Promise<User> {
  return presentCaller(caller, context.urls);
}

/** A user who shares an organization with the caller, or the caller themselves. */
export async function getUser(context: Context, callerId: string, userId: string): Promise<User> {
  const user = await findUserVisibleTo(context.db, userId, callerId);
  if (!user) throw new NotFoundError('No user with this id is visible to you');
  // Found only when the two share an organization, which is what shows an e-mail.
  return presentVisibleUser(user, context.urls);
}
