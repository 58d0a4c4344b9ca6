/**
 * The visitor claims a site's adaptive schema declares: the names a condition
 * may read, as `visitor.claims.<name>` (signed: the site's visitor token vouches
 * for them) and `visitor.claims.unsigned.<name>` (set by the visitor, unverified).
 */
export interface DeclaredClaims {
  signed: ReadonlyMap<string, ClaimInfo>;
  unsigned: ReadonlyMap<string, ClaimInfo>;
}

export interface ClaimInfo {
  description: string | undefined;
}

/** The schema a site answers with before an admin has set one: no claims at all. */
export const EMPTY_ADAPTIVE_SCHEMA = { type: 'object', properties: {}, additionalProperties: false } as const;

/**
 * The claims of a stored adaptive schema (`sites.adaptive_schema`), or null
 * when the site has none. The stored schema passed the request schema when it
 * was written; this reads it defensively all the same, keeping only boolean
 * claims, so that a hand-edited row cannot make a condition check throw.
 */
export function declaredClaims(jsonSchema: unknown): DeclaredClaims | null {
  if (!isObject(jsonSchema)) return null;
  const properties = isObject(jsonSchema.properties) ? jsonSchema.properties : {};
  const { unsigned, ...signed } = properties;
  const unsignedProperties = isObject(unsigned) && isObject(unsigned.properties) ? unsigned.properties : {};
  return { signed: booleanClaims(signed), unsigned: booleanClaims(unsignedProperties) };
}

function booleanClaims(properties: Record<string, unknown>): Map<string, ClaimInfo> {
  const claims = new Map<string, ClaimInfo>();
  // jsonb keeps object keys in its own order (shortest first); names in code order read better.
  for (const name of Object.keys(properties).sort()) {
    const claim = properties[name];
    if (!isObject(claim) || claim.type !== 'boolean') continue;
    const description =
      typeof claim.description === 'string' && claim.description.trim() ? claim.description : undefined;
    claims.set(name, { description });
  }
  return claims;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
