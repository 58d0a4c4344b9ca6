import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this are dropped so every character is equally likely. */
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** `length` random characters from [A-Za-z0-9], from the operating system's CSPRNG. */
export function randomString(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A resource id: 20 random characters from [A-Za-z0-9]. */
export function newId(): string {
  return randomString(20);
}

/**
 * Whether a name has the form of an id: a name a user chooses (a site's
 * basename, an organization's hostname) may not, or a lookup that takes an id
 * or a name would name two things.
 */
export function looksLikeId(name: string): boolean {
  return /^[A-Za-z0-9]{20}$/.test(name);
}
