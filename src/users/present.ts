import type { User } from '../core/schemas.js';
import type { Urls } from '../core/urls.js';

interface UserFields {
  id: string;
  email: string;
  displayName: string;
  photoUrl: string | null;
}

/** The embedded User object of every response. */
export function presentUser(user: UserFields, urls: Urls): User {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
    urls: { location: urls.api('users', user.id) },
  };
}
