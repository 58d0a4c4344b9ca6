import type { User } from '../core/schemas.js';
import type { Urls } from '../core/urls.js';
import type { UserRow } from '../db/types.js';
import type { Caller } from '../access/auth.js';
import { everyEmailShown, presentUser } from './users.js';

/** The caller's own profile, e-mail included. */
export function presentCaller(caller: Caller, urls: Urls): User {
  return presentUser({ ...caller, id: caller.userId }, urls, everyEmailShown);
}

/** A user found because they share an organization with the caller, which is what shows an e-mail. */
export function presentVisibleUser(
  user: Pick<UserRow, 'id' | 'email' | 'display_name' | 'photo_url'>,
  urls: Urls,
): User {
  return presentUser(
    { id: user.id, email: user.email, displayName: user.display_name, photoUrl: user.photo_url },
    urls,
    everyEmailShown,
  );
}
