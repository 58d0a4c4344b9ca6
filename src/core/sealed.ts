import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The first format of a site's sealed secrets (share-link keys, the key that
 * signs visitor tokens): AES-256-GCM under a key derived from the service
 * secret, `v1.<iv>.<tag>.<ciphertext>`, base64url. Nothing new is sealed this
 * way: new values go to the keyring (keyring.ts), which rotates. Values of
 * this format still open, until `secrets rotate` moves them to the keyring.
 */
const VERSION = 'v1';

function keyFor(serviceSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceSecret, 'quire-sealed', purpose, 32));
}

/** Seals `plaintext` for `purpose`: a value sealed for one purpose does not open for another. */
export function seal(serviceSecret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(serviceSecret, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Opens a value sealed by `seal` for the same purpose; throws when it was tampered with or sealed under another secret. */
export function unseal(serviceSecret: string, purpose: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(serviceSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** The SHA-256 of a secret, for finding it by value without keeping it readable. */
export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
