import { ConflictError } from '../core/errors.js';
import type { Db } from '../db/database.js';
import type { Context } from '../context.js';
import { rulesInForce, unmetMergeRules, type ReviewFacts, type UnmetRule } from './merge-rules.js';
import { mergeRuleFacts } from './queries.js';

/**
 * Reads what the reviews of a change request's revision say. Reviews are a
 * domain above this one (they post comments and answer review requests), so
 * the app sets this on Context, as it sets the merge hooks.
 */
export type ReviewFactsReader = (
  db: Db,
  target: { organizationId: string; changeRequestId: string; revisionId: string },
) => Promise<ReviewFacts>;

declare module '../context.js' {
  interface Context {
    /** What a change request's reviews say; without it, no review counts. */
    reviewFacts?: ReviewFactsReader;
  }
}

const NO_REVIEWS: ReviewFacts = { approvedBy: new Set(), changesRequestedBy: new Set(), pendingRequests: 0 };

/**
 * The merge rules in force on the change request that a merge by `userId`
 * would not meet now. Read in the merge's transaction (under its locks) by a
 * merge, and on the pool to show whether the caller may merge.
 */
export async function unmetRulesFor(
  context: Context,
  db: Db,
  target: { organizationId: string; spaceId: string; changeRequestId: string; userId: string },
): Promise<UnmetRule[]> {
  const facts = await mergeRuleFacts(db, target);
  const rules = rulesInForce(facts.organization_rules, facts.space_rules);
  if (rules.length === 0) return [];
  const reviews = context.reviewFacts
    ? await context.reviewFacts(db, {
        organizationId: target.organizationId,
        changeRequestId: target.changeRequestId,
        revisionId: facts.revision_id,
      })
    : NO_REVIEWS;
  return unmetMergeRules(rules, {
    actor: target.userId,
    author: facts.created_by,
    subject: facts.subject,
    outdated: facts.outdated,
    reviews,
  });
}

/** Refuses a merge (409) that does not meet the rules, naming each rule unmet and why. */
export function refuseUnmetRules(unmet: readonly UnmetRule[]): void {
  if (unmet.length === 0) return;
  const reasons = unmet.map((rule) => `${rule.rule} (${rule.message})`).join('; ');
  throw new ConflictError(`The change request does not meet the space’s merge rules: ${reasons}`);
}
