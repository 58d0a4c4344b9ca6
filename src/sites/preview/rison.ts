import { BadRequestError } from '../../core/errors.js';

/** The most claims a preview takes, and the longest `claims` text: a preview stands for one visitor. */
export const MAX_PREVIEW_CLAIMS = 32;
export const MAX_CLAIMS_LENGTH = 1024;

const NAME = /^[A-Za-z_][\w]{0,63}$/;

/**
 * The visitor claims of a preview, from GitBook's Rison form: a flat object
 * such as `(isBeta:!t,plan:'pro',seats:3)` whose values are `!t`, `!f`,
 * `!n`, numbers and strings (quoted, or bare words). Nesting is refused: the
 * claims of a preview are read by conditions as plain values. One linear pass.
 */
export function parseClaims(text: string): Record<string, unknown> {
  const fail = (why: string) => new BadRequestError(`querystring/claims: ${why}`);
  if (!text.startsWith('(') || !text.endsWith(')')) throw fail('must be a Rison object such as (isBeta:!t)');
  const claims: Record<string, unknown> = {};
  let at = 1;
  const end = text.length - 1;
  const word = () => {
    const start = at;
    while (at < end && !"!:,()'".includes(text[at]!)) at++;
    return text.slice(start, at);
  };
  const quoted = () => {
    let value = '';
    at++;
    while (at < end && text[at] !== "'") {
      if (text[at] === '!') {
        at++;
        if (text[at] !== '!' && text[at] !== "'") throw fail("a string escapes only ! and '");
      }
      value += text[at];
      at++;
    }
    if (text[at] !== "'") throw fail('a string is not closed');
    at++;
    return value;
  };
  const value = (): unknown => {
    if (text[at] === "'") return quoted();
    if (text[at] === '!') {
      const flag = text.slice(at, at + 2);
      at += 2;
      if (flag === '!t') return true;
      if (flag === '!f') return false;
      if (flag === '!n') return null;
      throw fail('claims take only plain values: !t, !f, !n, numbers and strings');
    }
    if (text[at] === '(') throw fail('claims take only plain values: !t, !f, !n, numbers and strings');
    const bare = word();
    if (bare === '') throw fail('a claim has no value');
    return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/.test(bare) ? Number(bare) : bare;
  };
  while (at < end) {
    const name = word();
    if (!NAME.test(name)) throw fail(`"${name}" is not a claim name (letters, digits and _)`);
    if (text[at] !== ':') throw fail(`the claim "${name}" has no value`);
    at++;
    claims[name] = value();
    if (Object.keys(claims).length > MAX_PREVIEW_CLAIMS) throw fail(`at most ${MAX_PREVIEW_CLAIMS} claims`);
    if (at < end) {
      if (text[at] !== ',') throw fail('claims are separated by commas');
      at++;
    }
  }
  return claims;
}
