import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * How the service signs what it sends to an integration's endpoint or a
 * webhook's URL, as GitBook's webhook integration signs its deliveries:
 * `X-GitBook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
 * The timestamp inside the signed text lets a receiver refuse a replayed
 * request. `X-GitBook-Integration-Signature` (the hex HMAC of the body alone)
 * is what GitBook's runtime (`@gitbook/runtime`) checks, so an integration
 * written for GitBook verifies our requests unchanged.
 */
export const SIGNATURE_HEADER = 'x-gitbook-signature';
export const INTEGRATION_SIGNATURE_HEADER = 'x-gitbook-integration-signature';

/** A new signing secret: 32 random bytes, as text a receiver can paste into its configuration. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

/** The value of X-GitBook-Signature for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, `${timestamp}.${body}`)}`;
}

/** Every header that signs a request of `body`, by lower-case name. */
export function signRequest(secret: string, body: string, timestamp: number): Record<string, string> {
  return {
    [SIGNATURE_HEADER]: signatureHeader(secret, body, timestamp),
    [INTEGRATION_SIGNATURE_HEADER]: hmacHex(secret, body),
  };
}

/**
 * Checks an X-GitBook-Signature value against `body`: the signature must be
 * the secret's, and its timestamp within `toleranceSeconds` of `now` (unix
 * seconds). Receivers in docs/api/webhooks.md do the same.
 */
export function verifySignature(
  secret: string,
  body: string,
  header: string,
  now: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isSafeInteger(timestamp) || Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, `${timestamp}.${body}`), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
