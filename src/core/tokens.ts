import { hash } from 'node:crypto';
import { randomString } from './ids.js';

const TOKEN_PREFIX = 'quire_';

/** A new API token. The prefix lets secret scanners recognise a leaked one. */
export function generateToken(): string {
  return `${TOKEN_PREFIX}${randomString(40)}`;
}

/**
 * Tokens are stored only as their SHA-256 hash. Every authenticated request
 * hashes its token: the one-shot `hash` takes about half a Hash object's time.
 */
export function hashToken(token: string): Buffer {
  return hash('sha256', token, 'buffer');
}
