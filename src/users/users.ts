import type { User } from '../core/schemas.js';
import type { Urls } from '../core/urls.js';

interface UserFields {
  id: string;
  email: string;
  displayName: string;
  photoUrl: string | null;
}

/**
 * Whether the caller may see a user's e-mail address. Only those who share an
 * organization with the user may: to anyone else a user is a name and a face.
 * Every response that shows users decides it, once for all of them.
 */
export type EmailVisibility = (userId: string) => boolean;

/**
 * For the caller's own profile, users found only because they share an
 * organization with the caller, and member records, which only members of
 * their organization see.
 */
export const everyEmailShown: EmailVisibility = () => true;

/** The embedded User object of every response, with the e-mail only where `emails` allows it. */
export function presentUser(user: UserFields, urls: Urls, emails: EmailVisibility): User {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    ...(emails(user.id) ? { email: user.email } : {}),
    ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
    urls: { location: urls.api('users', user.id) },
  };
}

/** The longest display name an account takes (the users table's bound). */
export const MAX_DISPLAY_NAME_LENGTH = 255;

/**
 * The display name of an account an identity provider makes: the name it
 * gives, else the address's local part, within the table's bound.
 */
export function displayNameFor(email: string, name: string | undefined): string {
  return (name?.trim() || email.split('@')[0] || email).slice(0, MAX_DISPLAY_NAME_LENGTH);
}
