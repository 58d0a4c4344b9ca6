/**
 * The OAuth scope names of the GitBook API; a token may be limited to some of
 * them. `user:write` is this service's own: managing the user's API tokens,
 * which the GitBook API does not do.
 */
export const SCOPES = [
  'user:read',
  'user:write',
  'organization:read',
  'organization:write',
  'organization:members:read',
  'organization:members:write',
  'organization:ask',
  'organization:search',
  'space:read',
  'space:write',
  'space:permissions:read',
  'space:permissions:write',
  'change-request:merge',
  'site:read',
  'site:write',
  'site:publish',
  'site:permissions:read',
  'site:permissions:write',
  'site:auth:read',
  'site:auth:write',
  'site:insights:read',
  'site:ask',
  'site:search',
  'integration:read',
  'integration:installations:read',
  'integration:installations:write',
  'integration:publish',
  'integration:delete',
  'openapi:read',
  'openapi:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Whether a token's scopes allow an operation that needs `required`. A token
 * without scopes has its user's full rights; a `:write` scope includes its `:read`.
 */
export function scopesAllow(granted: readonly string[] | null, required: Scope): boolean {
  if (granted === null) return true;
  if (granted.includes(required)) return true;
  return required.endsWith(':read') && granted.includes(`${required.slice(0, -':read'.length)}:write`);
}

/**
 * Whether a token with `granted` scopes may make or manage a token with
 * `wanted` ones: every scope of `wanted` is one `granted` allows, and only a
 * token with full rights (null) covers another with full rights.
 */
export function scopesCover(granted: readonly string[] | null, wanted: readonly string[] | null): boolean {
  if (granted === null) return true;
  if (wanted === null) return false;
  return wanted.every((scope) => isScope(scope) && scopesAllow(granted, scope));
}
