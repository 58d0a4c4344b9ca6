import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openIdTokenHint, sealIdTokenHint } from '../src/accounts/id-token-hints.js';
import { Keyring } from '../src/core/keyring.js';

const KEY = randomBytes(32);
const keyring = new Keyring(KEY);
const idToken = `eyJhbGciOiJSUzI1NiJ9.${'a'.repeat(600)}.${'b'.repeat(342)}`;

describe('the ID token a session keeps for signing out', () => {
  it('opens for its own session only, and under a key the keyring holds', () => {
    const sealed = sealIdTokenHint(keyring, 'session-1', idToken)!;
    expect(sealed).not.toContain(idToken.split('.')[1]);
    expect(openIdTokenHint(keyring, 'session-1', sealed)).toBe(idToken);
    expect(openIdTokenHint(keyring, 'session-2', sealed)).toBeUndefined();
    expect(openIdTokenHint(new Keyring(randomBytes(32)), 'session-1', sealed)).toBeUndefined();
    // A key rotated in keeps the older one for reading.
    expect(openIdTokenHint(new Keyring(randomBytes(32), [KEY]), 'session-1', sealed)).toBe(idToken);
  });

  it('is not kept past 8 KiB, nor read from nothing', () => {
    expect(sealIdTokenHint(keyring, 'session-1', 'x'.repeat(8192))).toBeDefined();
    expect(sealIdTokenHint(keyring, 'session-1', 'x'.repeat(8193))).toBeUndefined();
    expect(openIdTokenHint(keyring, 'session-1', null)).toBeUndefined();
    expect(() => openIdTokenHint(keyring, 'session-1', 'not sealed')).not.toThrow();
  });
});
