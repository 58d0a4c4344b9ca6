/** Merge rules, as the spec's MergeRule configurations: an organization's, and a space's own. */
import { Type, type Static } from '@sinclair/typebox';
import { BadRequestError } from '../core/errors.js';
import { IdParam, StringEnum } from '../core/schemas.js';
import type { SpaceMergeRules, StoredMergeRule } from '../db/types.js';

/** Most rules one configuration holds, and most users one rule names: each merge evaluates them all. */
export const MAX_MERGE_RULES = 20;
export const MAX_RULE_USERS = 50;

/** The rules that name users. */
export const USER_RULES = ['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass'] as const;
/** The rules this service evaluates that take no argument. */
export const PLAIN_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_up_to_date_change_request',
  'require_change_request_subject',
  'require_author_to_merge',
] as const;
/**
 * Rules of the spec this service cannot evaluate: it has no review agent, no
 * change request descriptions and no expression language. Named in the schema
 * so that they are refused with their own message, never stored and ignored.
 */
const UNSUPPORTED_RULES = ['require_agent_review', 'require_change_request_description', 'custom'] as const;

const closed = { additionalProperties: false };

export const MergeRuleSchema = Type.Union([
  Type.Object(
    {
      rule: StringEnum(USER_RULES),
      users: Type.Array(IdParam, { minItems: 1, maxItems: MAX_RULE_USERS, uniqueItems: true }),
    },
    closed,
  ),
  Type.Object({ rule: StringEnum(PLAIN_RULES) }, closed),
  // Open, so that any form of these is refused by storedMergeRules with its own message.
  Type.Object({ rule: StringEnum(UNSUPPORTED_RULES) }, { additionalProperties: true }),
]);

const RulesConfiguration = Type.Object(
  { type: Type.Literal('rules'), rules: Type.Array(MergeRuleSchema, { maxItems: MAX_MERGE_RULES }) },
  { ...closed, description: 'Rules that must all pass before a change request is merged' },
);
const NoneConfiguration = Type.Object(
  { type: Type.Literal('none') },
  { ...closed, description: 'No rules: change requests merge without review' },
);
const InheritConfiguration = Type.Object(
  { type: Type.Literal('inherit') },
  { ...closed, description: 'The organization’s rules' },
);

/** The spec's MergeRulesStandaloneConfiguration: an organization's rules. */
export const MergeRulesStandaloneSchema = Type.Union([RulesConfiguration, NoneConfiguration]);
/** The spec's MergeRulesSpaceConfiguration: a space's. */
export const MergeRulesSpaceSchema = Type.Union([InheritConfiguration, RulesConfiguration, NoneConfiguration]);
export type MergeRulesInput = Static<typeof MergeRulesSpaceSchema>;

/**
 * The configuration as stored, once its rules are ones this service
 * evaluates (else a 400 naming the rule), and the users the rules name, for
 * the caller to check as members. A rule keeps only the fields it has.
 */
export function storedMergeRules(input: MergeRulesInput, field: string): { rules: SpaceMergeRules; users: string[] } {
  if (input.type !== 'rules') return { rules: input, users: [] };
  const rules: StoredMergeRule[] = [];
  const users = new Set<string>();
  for (const [index, rule] of input.rules.entries()) {
    if ((UNSUPPORTED_RULES as readonly string[]).includes(rule.rule)) {
      throw new BadRequestError(
        `${field}/rules/${index}: the rule ${rule.rule} is not supported by this service ` +
          '(it has no review agent, change request descriptions or rule expressions)',
      );
    }
    if ('users' in rule) {
      for (const user of rule.users) users.add(user);
      rules.push({ rule: rule.rule, users: rule.users });
    } else {
      rules.push({ rule: rule.rule as (typeof PLAIN_RULES)[number] });
    }
  }
  return { rules: { type: 'rules', rules }, users: [...users] };
}

/** Refuses a configuration naming users who are not active members of the organization. */
export function requireRuleUsersAreMembers(named: readonly string[], members: ReadonlySet<string>, field: string) {
  const strangers = named.filter((user) => !members.has(user));
  if (strangers.length > 0) {
    throw new BadRequestError(`${field} names users who are not members of the organization: ${strangers.join(', ')}`);
  }
}
