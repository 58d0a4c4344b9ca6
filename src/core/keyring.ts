import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption of secrets at rest with AES-256-GCM, under keys that can be
 * rotated. A sealed value names the key it was sealed under:
 * `k1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts), the key id being a
 * short hash of the key. A value opens under the current key
 * (ENCRYPTION_KEY), the previous one (ENCRYPTION_KEY_PREVIOUS) while a
 * rotation re-encrypts, or the key derived from the service secret, which is
 * the current key where no ENCRYPTION_KEY is set (so setting one later does
 * not strand what was sealed before).
 */
const FORMAT = 'k1';
const KEY_BYTES = 32;

export class KeyringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyringError';
  }
}

interface Key {
  id: string;
  bytes: Buffer;
}

/** A key's id: a hash of it, short, which tells keys apart and reveals nothing of them. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('quire-keyring-key-id').update(key).digest('base64url').slice(0, 12);
}

function toKey(bytes: Buffer): Key {
  return { id: keyIdOf(bytes), bytes };
}

/** A configured key: 32 bytes in base64 (standard or URL-safe alphabet). */
export function parseKey(base64: string, name: string): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== KEY_BYTES) throw new KeyringError(`${name} must be ${KEY_BYTES} bytes in base64`);
  return bytes;
}

/** The key derived from the service secret, used when no ENCRYPTION_KEY is configured. */
export function derivedKey(serviceSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceSecret, 'quire-keyring', 'secrets-at-rest', KEY_BYTES));
}

export class Keyring {
  private readonly current: Key;
  private readonly known: Map<string, Key>;

  /** `current` seals; it and `others` open. */
  constructor(current: Buffer, others: readonly Buffer[] = []) {
    this.current = toKey(current);
    this.known = new Map([this.current, ...others.map(toKey)].map((key) => [key.id, key]));
  }

  /** The keyring of the configuration: ENCRYPTION_KEY (else the derived key) seals. */
  static fromConfig(
    encryption: { key?: string | undefined; previousKey?: string | undefined },
    serviceSecret: string,
  ): Keyring {
    const derived = derivedKey(serviceSecret);
    const current = encryption.key ? parseKey(encryption.key, 'ENCRYPTION_KEY') : derived;
    const others = [derived];
    if (encryption.previousKey) others.unshift(parseKey(encryption.previousKey, 'ENCRYPTION_KEY_PREVIOUS'));
    return new Keyring(current, others);
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  /**
   * Seals `plaintext` under the current key. `context` (say, which record and
   * field the value belongs to) is authenticated with it: the sealed value
   * opens only for the same context, so it cannot be moved to another record.
   */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.bytes, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, this.current.id, ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'))].join(
      '.',
    );
  }

  /** Opens a sealed value; a KeyringError says why it cannot (unknown key, tampered, another context). */
  open(sealed: string, context: string): string {
    const { keyId, iv, tag, body } = parseSealed(sealed);
    const key = this.known.get(keyId);
    if (!key) {
      throw new KeyringError(
        `The value is sealed under key ${keyId}, which is neither ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS nor the key derived from the service secret`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new KeyringError(`The value sealed under key ${keyId} does not open: it was altered or moved`);
    }
  }

  /** Whether the value is sealed under another key than the current one. */
  needsRotation(sealed: string): boolean {
    return sealedKeyId(sealed) !== this.current.id;
  }
}

/** The id of the key a value is sealed under. */
export function sealedKeyId(sealed: string): string {
  return parseSealed(sealed).keyId;
}

function parseSealed(sealed: string) {
  const parts = sealed.split('.');
  const [format, keyId, iv, tag, body] = parts;
  if (parts.length !== 5 || format !== FORMAT || !keyId || !iv || !tag || body === undefined) {
    throw new KeyringError('Not a sealed value');
  }
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== 12 || tagBytes.length !== 16) throw new KeyringError('Not a sealed value');
  return { keyId, iv: ivBytes, tag: tagBytes, body: Buffer.from(body, 'base64url') };
}
