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
