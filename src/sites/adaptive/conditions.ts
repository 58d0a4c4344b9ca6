import jsep from 'jsep';
import { BadRequestError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { declaredClaims, type DeclaredClaims } from './claims.js';

/** The bounds of a condition (SiteSection, SiteSpace and header link `condition`: 1 to 1024 characters). */
export const MAX_CONDITION_LENGTH = 1024;
/** How deep parentheses and brackets may nest, so that the parser's recursion stays shallow. */
export const MAX_CONDITION_NESTING = 32;

const COMPARISONS = ['==', '===', '!=', '!==', '<', '<=', '>', '>='];
const BINARY_OPERATORS = new Set([...COMPARISONS, '&&', '||']);
const UNARY_OPERATORS = new Set(['!', '-']);
const OPERATORS_ALLOWED = `${COMPARISONS.join(', ')}, &&, || and the unary ! and -`;
const NAMES_ALLOWED = 'visitor.claims.<claim> and visitor.claims.unsigned.<claim>';

/**
 * Refuses a condition that is not a valid adaptive-content expression for the
 * site: a 400 whose message starts with `field`. `adaptiveSchema` is the
 * site's stored schema (`sites.adaptive_schema`, null when none was set).
 *
 * Inline, not on the work pool: the worst condition the bounds let through
 * (1024 characters of parentheses nested 32 deep) parses and checks in about
 * 0.25 ms, an ordinary one in about 10 µs (.exp/measure-conditions.ts). The
 * context is taken so that moving it to the pool would not change callers.
 */
export async function checkCondition(
  _context: Context,
  condition: string,
  adaptiveSchema: Record<string, unknown> | null,
  field: string,
): Promise<void> {
  const problem = conditionProblem(condition, declaredClaims(adaptiveSchema));
  if (problem) throw new BadRequestError(`${field}: ${problem}`);
}

/**
 * What is wrong with a condition, in a sentence, or null when it is a valid
 * expression over the declared claims (`null` claims: the site has no
 * adaptive schema). Pure, for the checks above and for tests.
 */
export function conditionProblem(condition: string, claims: DeclaredClaims | null): string | null {
  const bounds = boundsProblem(condition);
  if (bounds) return bounds;
  let tree: jsep.Expression;
  try {
    tree = jsep(condition);
  } catch (error) {
    return syntaxProblem(condition, error);
  }
  return expressionProblem(tree, claims);
}

/** One linear pass before the parser: length, emptiness, and how deep ( and [ nest outside string literals. */
function boundsProblem(condition: string): string | null {
  if (condition.length > MAX_CONDITION_LENGTH && [...condition].length > MAX_CONDITION_LENGTH) {
    return `the condition must NOT have more than ${MAX_CONDITION_LENGTH} characters`;
  }
  if (condition.trim() === '') return 'the condition is empty; write an expression such as visitor.claims.<claim>';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < condition.length; i += 1) {
    const char = condition[i];
    if (quote) {
      if (char === '\\') i += 1;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '(' || char === '[') {
      depth += 1;
      if (depth > MAX_CONDITION_NESTING) {
        return `parentheses and brackets nest more than ${MAX_CONDITION_NESTING} deep (at character ${i + 1}); at most ${MAX_CONDITION_NESTING} levels are allowed`;
      }
    } else if ((char === ')' || char === ']') && depth > 0) {
      // An unmatched closer stops the parser where it stands; not counting below zero keeps the bound conservative.
      depth -= 1;
    }
  }
  return null;
}

function syntaxProblem(condition: string, error: unknown): string {
  const { index, description } = error as { index?: unknown; description?: unknown };
  if (typeof index !== 'number' || typeof description !== 'string') throw error;
  const where = index >= condition.length ? 'at its end' : `at character ${index + 1}`;
  return `the expression breaks ${where}: ${description}`;
}

function expressionProblem(node: jsep.Expression, claims: DeclaredClaims | null): string | null {
  switch (node.type) {
    case 'Literal':
      return literalProblem(node as jsep.Literal);
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (!UNARY_OPERATORS.has(unary.operator)) return operatorProblem(unary.operator);
      return expressionProblem(unary.argument, claims);
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!BINARY_OPERATORS.has(binary.operator)) return operatorProblem(binary.operator);
      return expressionProblem(binary.left, claims) ?? expressionProblem(binary.right, claims);
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return (
        expressionProblem(conditional.test, claims) ??
        expressionProblem(conditional.consequent, claims) ??
        expressionProblem(conditional.alternate, claims)
      );
    }
    case 'Identifier':
    case 'MemberExpression':
      return referenceProblem(node, claims);
    case 'Compound':
    case 'SequenceExpression': {
      const parts = (node as jsep.Compound).body ?? (node as jsep.SequenceExpression).expressions;
      if (parts.length === 0) return 'the condition is empty; write an expression such as visitor.claims.<claim>';
      return `the condition must be one expression, not ${parts.length} side by side (a comma, or a missing operator between two values)`;
    }
    case 'CallExpression':
      return 'function calls are not allowed in a condition';
    case 'ThisExpression':
      return `"this" is not allowed in a condition; read ${NAMES_ALLOWED}`;
    case 'ArrayExpression':
      return 'array literals are not allowed in a condition';
    default:
      return `${node.type} is not allowed in a condition`;
  }
}

function literalProblem(literal: jsep.Literal): string | null {
  const value = literal.value;
  if (value === null || ['boolean', 'number', 'string'].includes(typeof value)) return null;
  return `the literal ${literal.raw} is not allowed in a condition; use booleans, numbers, strings or null`;
}

function operatorProblem(operator: string): string {
  return `the operator ${operator} is not allowed in a condition; use ${OPERATORS_ALLOWED}`;
}

/** A name or a chain of members must be a claim the schema declares, read through `visitor.claims`. */
function referenceProblem(node: jsep.Expression, claims: DeclaredClaims | null): string | null {
  const path: string[] = [];
  let current = node;
  while (current.type === 'MemberExpression') {
    const member = current as jsep.MemberExpression;
    const property = member.property;
    if (!member.computed && property.type === 'Identifier') {
      path.unshift((property as jsep.Identifier).name);
    } else if (member.computed && property.type === 'Literal' && typeof property.value === 'string') {
      path.unshift(property.value);
    } else {
      return 'computed member access is allowed only with a string literal, as in visitor.claims["name"]';
    }
    current = member.object;
  }
  if (current.type !== 'Identifier') {
    // Whatever a chain starts from (a call, `this`, a literal) has its own sentence.
    return expressionProblem(current, claims) ?? `a condition may only read ${NAMES_ALLOWED}`;
  }
  path.unshift((current as jsep.Identifier).name);
  return claimPathProblem(path, claims);
}

function claimPathProblem(path: string[], claims: DeclaredClaims | null): string | null {
  const shown = showPath(path);
  if (path[0] !== 'visitor') return `the name ${shown} is unknown; a condition may only read ${NAMES_ALLOWED}`;
  if (path[1] === undefined) return `${shown} alone cannot be tested; name a claim, as in visitor.claims.<claim>`;
  if (path[1] !== 'claims') return `${shown} cannot be read; a condition may only read ${NAMES_ALLOWED}`;
  const unsigned = path[2] === 'unsigned';
  const claimIndex = unsigned ? 3 : 2;
  const name = path[claimIndex];
  if (name === undefined) return `${shown} alone cannot be tested; name a claim, as in ${shown}.<claim>`;
  const claimPath = showPath(path.slice(0, claimIndex + 1));
  if (!claims) {
    return `${claimPath} names a visitor claim, but the site has no adaptive schema: set one that declares the claim (PUT /orgs/{organizationId}/sites/{siteId}/adaptive-schema)`;
  }
  if (!(unsigned ? claims.unsigned : claims.signed).has(name)) {
    return `${claimPath} is not declared in the site's adaptive schema`;
  }
  if (path.length > claimIndex + 1) return `${claimPath} is a boolean claim; it has no member ${path[claimIndex + 1]}`;
  return null;
}

/** A member chain as written with dots, brackets where a name is not an identifier. */
function showPath(path: string[]): string {
  return path
    .map((part, i) => (/^[A-Za-z_$][\w$]*$/.test(part) ? `${i === 0 ? '' : '.'}${part}` : `[${JSON.stringify(part)}]`))
    .join('');
}
