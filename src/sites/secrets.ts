import { randomBytes } from 'node:crypto';
import { seal, unseal } from '../core/sealed.js';

/** What each sealed secret of a site is for: a value sealed for one does not open as another. */
const VISITOR_KEY = 'site-visitor-signing-key';
const SHARE_KEY = 'site-share-link-key';

/** A new key for signing visitor tokens (HS256), sealed for storage. */
export function newSealedVisitorKey(serviceSecret: string): string {
  return seal(serviceSecret, VISITOR_KEY, randomBytes(32).toString('base64url'));
}

export function openVisitorKey(serviceSecret: string, sealed: string): string {
  return unseal(serviceSecret, VISITOR_KEY, sealed);
}

export function sealShareKey(serviceSecret: string, key: string): string {
  return seal(serviceSecret, SHARE_KEY, key);
}

export function openShareKey(serviceSecret: string, sealed: string): string {
  return unseal(serviceSecret, SHARE_KEY, sealed);
}
