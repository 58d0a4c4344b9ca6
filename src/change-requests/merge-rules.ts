import type { MergeRules, SpaceMergeRules, StoredMergeRule } from '../db/types.js';

/** What the reviews of a change request's current revision say, as the merge rules read them. */
export interface ReviewFacts {
  /** Users whose latest review, on the current revision, approves. */
  approvedBy: ReadonlySet<string>;
  /** Users whose latest review, on the current revision, requests changes. */
  changesRequestedBy: ReadonlySet<string>;
  /** Review requests (of users or teams) not yet answered. */
  pendingRequests: number;
}

/** What a merge of one change request by one user is judged on. */
export interface MergeFacts {
  actor: string;
  author: string | null;
  subject: string;
  /** The space has moved on since the change request's base. */
  outdated: boolean;
  reviews: ReviewFacts;
}

/** A rule a merge does not meet, and why, in a sentence a 409 can carry. */
export interface UnmetRule {
  rule: StoredMergeRule['rule'];
  message: string;
}

/** The rules in force on a space: its own, or the organization's where it inherits them. */
export function rulesInForce(organization: MergeRules, space: SpaceMergeRules): StoredMergeRule[] {
  const config = space.type === 'inherit' ? organization : space;
  return config.type === 'rules' ? config.rules : [];
}

function check(rule: StoredMergeRule, facts: MergeFacts): string | null {
  const { approvedBy, changesRequestedBy, pendingRequests } = facts.reviews;
  switch (rule.rule) {
    case 'require_specific_reviewers': {
      const missing = rule.users.filter((user) => !approvedBy.has(user));
      return missing.length === 0 ? null : `it needs the approval of ${missing.join(', ')} on its current revision`;
    }
    case 'require_one_of_specific_reviewers':
      return rule.users.some((user) => approvedBy.has(user))
        ? null
        : `it needs the approval of one of ${rule.users.join(', ')} on its current revision`;
    case 'allow_bypass':
      return null;
    case 'require_at_least_one_review':
      return approvedBy.size + changesRequestedBy.size > 0 ? null : 'it needs a review of its current revision';
    case 'require_at_least_one_approved_review':
      return approvedBy.size > 0 ? null : 'it needs an approval of its current revision';
    case 'require_all_reviews_approved':
      if (changesRequestedBy.size > 0) return `changes are requested by ${[...changesRequestedBy].join(', ')}`;
      if (pendingRequests > 0) return `${pendingRequests} requested review(s) are still to come`;
      return approvedBy.size > 0 ? null : 'it needs an approval of its current revision';
    case 'require_up_to_date_change_request':
      return facts.outdated ? 'it must first be brought up to date with the space' : null;
    case 'require_change_request_subject':
      return facts.subject.trim() !== '' ? null : 'it needs a subject';
    case 'require_author_to_merge':
      return facts.actor === facts.author ? null : 'only its author may merge it';
  }
}

/**
 * The rules a merge by `facts.actor` does not meet, in the order configured;
 * none when the actor is one an `allow_bypass` rule names.
 */
export function unmetMergeRules(rules: readonly StoredMergeRule[], facts: MergeFacts): UnmetRule[] {
  if (rules.some((rule) => rule.rule === 'allow_bypass' && rule.users.includes(facts.actor))) return [];
  return rules.flatMap((rule) => {
    const message = check(rule, facts);
    return message === null ? [] : [{ rule: rule.rule, message }];
  });
}
