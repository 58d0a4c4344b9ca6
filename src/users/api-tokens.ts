import type { ApiTokenFields } from './api-token-queries.js';
import type { ApiToken, TokenState } from './api-token-schemas.js';

/** Revoked wins over expired: it was a decision, expiry only the time passing. */
export function tokenState(token: Pick<ApiTokenFields, 'expires_at' | 'revoked_at'>, now: Date): TokenState {
  if (token.revoked_at) return 'revoked';
  if (token.expires_at && token.expires_at <= now) return 'expired';
  return 'active';
}

/** A token as its owner sees it: never its secret or hash. */
export function presentApiToken(token: ApiTokenFields, now: Date, currentTokenId: string): ApiToken {
  return {
    object: 'api-token',
    id: token.id,
    label: token.label,
    scopes: token.scopes,
    state: tokenState(token, now),
    current: token.id === currentTokenId,
    createdAt: token.created_at.toISOString(),
    expiresAt: token.expires_at?.toISOString() ?? null,
    revokedAt: token.revoked_at?.toISOString() ?? null,
  };
}
