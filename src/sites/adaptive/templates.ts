import type { ClaimInfo, DeclaredClaims } from './claims.js';
import type { SiteAdaptiveTemplateCondition } from './schemas.js';

const UNVERIFIED = ' Unsigned claims are set by the visitor and not verified.';

/**
 * Ready-made conditions for the declared claims, two per claim (the claim is
 * true; it is false or not set), signed claims first, each kind by name.
 * Every one passes `conditionProblem` against the same claims.
 */
export function templateConditions(claims: DeclaredClaims | null): SiteAdaptiveTemplateCondition[] {
  if (!claims) return [];
  return [
    ...[...claims.signed].flatMap(([name, info]) =>
      claimTemplates(`visitor.claims.${name}`, `${name} claim`, info, ''),
    ),
    ...[...claims.unsigned].flatMap(([name, info]) =>
      claimTemplates(`visitor.claims.unsigned.${name}`, `unsigned ${name} claim`, info, UNVERIFIED),
    ),
  ];
}

function claimTemplates(path: string, claim: string, info: ClaimInfo, note: string): SiteAdaptiveTemplateCondition[] {
  const meaning = info.description ? ` (“${info.description.trim()}”)` : '';
  return [
    { condition: `${path} === true`, description: `Show to visitors whose ${claim}${meaning} is true.${note}` },
    {
      condition: `${path} !== true`,
      description: `Show to visitors whose ${claim}${meaning} is false or not set.${note}`,
    },
  ];
}
