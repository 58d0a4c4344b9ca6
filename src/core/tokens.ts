import { createHash } from 'node:crypto';
import { randomString } from './ids.js';

const TOKEN_PREFIX = 'quire_';

/** A new API token. The prefix lets secret scanners recognise a leaked one. */
export function generateToken(): string {
  return `${TOKEN_PREFIX}${randomString(40)}`;
}

/** Tokens are stored only as their SHA-256 hash. */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
