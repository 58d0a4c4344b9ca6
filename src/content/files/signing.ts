import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Urls } from '../../core/urls.js';

/**
 * Signed, expiring download URLs: whoever holds one may fetch that file
 * version until it expires, without a token (browsers follow them from pages).
 * Expiries are rounded to windows of the TTL, so that a URL stays the same
 * across reads for a while and can be cached.
 */
export class FileUrlSigner {
  private readonly key: Buffer;

  constructor(
    serviceSecret: string,
    private readonly urls: Urls,
    private readonly ttlSeconds: number,
  ) {
    this.key = createHmac('sha256', serviceSecret).update('file-download-urls').digest();
  }

  /** When URLs signed at `now` expire: the same for every URL signed in one window, so it can key what holds them. */
  expiryOf(now: Date): number {
    return (Math.floor(now.getTime() / 1000 / this.ttlSeconds) + 2) * this.ttlSeconds;
  }

  /** A URL valid for between one and two TTLs from `now`. */
  sign(versionId: string, name: string, now: Date): string {
    const expires = this.expiryOf(now);
    const signature = this.signature(versionId, expires);
    return `${this.urls.service('files', versionId, name)}?expires=${expires}&signature=${signature}`;
  }

  /** Whether a URL's signature is right and not expired. */
  verify(versionId: string, expires: number, signature: string, now: Date): boolean {
    if (!Number.isSafeInteger(expires) || expires * 1000 <= now.getTime()) return false;
    const expected = Buffer.from(this.signature(versionId, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private signature(versionId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${versionId}\n${expires}`).digest('base64url');
  }
}

declare module '../../context.js' {
  interface Context {
    fileUrls: FileUrlSigner;
  }
}
