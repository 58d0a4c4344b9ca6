import jsep from 'jsep';
import { MAX_CONDITION_LENGTH } from './conditions.js';

/** What a visitor brings: the claims their signed token vouches for, and those they set themselves. */
export interface VisitorClaims {
  signed: Record<string, unknown>;
  unsigned: Record<string, unknown>;
}

export const NO_CLAIMS: VisitorClaims = { signed: {}, unsigned: {} };

/**
 * A claim set, with the one flag a cache keeps apart beside it, as a cache
 * key. The key of no claims, which most visitors of most sites bring, is
 * made once for each flag rather than on each request.
 */
export function claimsKey(claims: VisitorClaims, flag: boolean | null): string {
  return claims === NO_CLAIMS
    ? NO_CLAIMS_KEYS[String(flag) as 'true' | 'false' | 'null']
    : JSON.stringify([claims, flag]);
}
const NO_CLAIMS_KEYS = {
  true: JSON.stringify([NO_CLAIMS, true]),
  false: JSON.stringify([NO_CLAIMS, false]),
  null: JSON.stringify([NO_CLAIMS, null]),
};

/**
 * Whether a section's or site space's condition holds for the visitor. A
 * condition was checked when it was written; one that does not parse or
 * read a claim now (a schema changed since) hides what it guards, as a
 * condition that fails to evaluate does: content meant for some is never
 * shown to all by mistake. The bounds were checked on write, so parsing
 * stays cheap (about 0.25 ms at worst); a longer one from a hand-edited row
 * is not parsed at all.
 */
export function conditionHolds(condition: string | null, claims: VisitorClaims): boolean {
  if (condition === null) return true;
  if (condition.length > MAX_CONDITION_LENGTH) return false;
  try {
    return truthy(evaluate(jsep(condition), claims));
  } catch {
    return false;
  }
}

type Value = boolean | number | string | null | undefined | Record<string, unknown>;

function evaluate(node: jsep.Expression, claims: VisitorClaims): Value {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value as Value;
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const value = evaluate(unary.argument, claims);
      if (unary.operator === '!') return !truthy(value);
      if (unary.operator === '-') return -Number(value);
      throw new Error(`operator ${unary.operator}`);
    }
    case 'BinaryExpression':
      return binary(node as jsep.BinaryExpression, claims);
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return truthy(evaluate(conditional.test, claims))
        ? evaluate(conditional.consequent, claims)
        : evaluate(conditional.alternate, claims);
    }
    case 'Identifier':
    case 'MemberExpression':
      return claimValue(node, claims);
    default:
      throw new Error(`${node.type} is not evaluated`);
  }
}

function binary(node: jsep.BinaryExpression, claims: VisitorClaims): Value {
  if (node.operator === '&&') {
    const left = evaluate(node.left, claims);
    return truthy(left) ? evaluate(node.right, claims) : left;
  }
  if (node.operator === '||') {
    const left = evaluate(node.left, claims);
    return truthy(left) ? left : evaluate(node.right, claims);
  }
  const left = evaluate(node.left, claims);
  const right = evaluate(node.right, claims);
  switch (node.operator) {
    case '==':
    case '===':
      return left === right;
    case '!=':
    case '!==':
      return left !== right;
    case '<':
      return comparable(left) < comparable(right);
    case '<=':
      return comparable(left) <= comparable(right);
    case '>':
      return comparable(left) > comparable(right);
    case '>=':
      return comparable(left) >= comparable(right);
    default:
      throw new Error(`operator ${node.operator}`);
  }
}

/** `visitor.claims.<name>` or `visitor.claims.unsigned.<name>`: the claim's value, undefined when the visitor has none. */
function claimValue(node: jsep.Expression, claims: VisitorClaims): Value {
  const path: string[] = [];
  let current = node;
  while (current.type === 'MemberExpression') {
    const member = current as jsep.MemberExpression;
    const property = member.property;
    if (!member.computed && property.type === 'Identifier') path.unshift((property as jsep.Identifier).name);
    else if (member.computed && property.type === 'Literal') path.unshift(String((property as jsep.Literal).value));
    else throw new Error('computed member');
    current = member.object;
  }
  if (current.type !== 'Identifier' || (current as jsep.Identifier).name !== 'visitor' || path[0] !== 'claims') {
    throw new Error('not a claim');
  }
  const unsigned = path[1] === 'unsigned';
  const name = path[unsigned ? 2 : 1];
  if (name === undefined || path.length > (unsigned ? 3 : 2)) throw new Error('not a claim');
  const source = unsigned ? claims.unsigned : claims.signed;
  return Object.hasOwn(source, name) ? (source[name] as Value) : undefined;
}

function truthy(value: Value): boolean {
  return Boolean(value);
}

function comparable(value: Value): number | string {
  return typeof value === 'string' ? value : Number(value);
}
