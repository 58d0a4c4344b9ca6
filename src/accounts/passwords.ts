import argon2 from 'argon2';

/**
 * argon2id at OWASP's first recommended setting (19 MiB, two passes, one
 * lane): some 20 ms of one libuv thread per hash, never of the event loop,
 * and a bounded share of an instance's memory when several people sign in at once.
 */
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Long enough to resist guessing without a second factor; bounded before anything is hashed. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** Why a new password cannot be used, in words for the person choosing it; undefined when it can. */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `A password has at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `A password has at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (password.trim() !== password) return 'A password does not start or end with a space.';
  const lower = password.toLowerCase();
  if (lower === email.toLowerCase() || lower === email.split('@')[0]!.toLowerCase())
    return 'A password is not your e-mail address.';
  if (new Set(password).size < 4) return 'A password uses more than three different characters.';
  return undefined;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_OPTIONS);
}

/** A hash of no one's password, checked when an address has none, so that a wrong address takes as long as a wrong password. */
let decoy: Promise<string> | undefined;

/** Whether `password` is the one `hash` was made from; with no hash, false after as long as a check takes. */
export async function passwordMatches(hash: string | undefined, password: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH * 4) return false;
  const against = hash ?? (await (decoy ??= hashPassword('no one signs in with this password')));
  try {
    return (await argon2.verify(against, password)) && hash !== undefined;
  } catch {
    // A stored hash argon2 cannot read opens nothing.
    return false;
  }
}
