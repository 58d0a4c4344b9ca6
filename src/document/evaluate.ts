import { BadRequestError } from '../core/errors.js';

export type VariableValue = string | number | boolean;

export interface ExpressionVariables {
  space: Record<string, VariableValue>;
  page: Record<string, VariableValue>;
}

/**
 * GitBook's variable expressions, in the two forms markdown holds them:
 * `{{ space.vars.NAME }}` (with or without spaces inside the braces), and
 * `<code class="expression">space.vars.NAME</code>`, which is how Git Sync
 * writes an expression block into a page's markdown. `page` reads the page's
 * own variables and `space` the revision's: each expression names its scope.
 */
const EXPRESSION =
  /\{\{\s*(space|page)\.vars\.([A-Za-z_][\w-]*)\s*\}\}|<code class="expression">\s*(space|page)\.vars\.([A-Za-z_][\w-]*)\s*<\/code>/g;

/** How long evaluated markdown may grow, and what to call it when it would grow past that. */
export interface EvaluationBound {
  maxLength: number;
  field: string;
}

/**
 * Evaluated markdown at most this long: twice a page's own limit. A value is
 * at most 256 characters and an expression at least 16, so without a bound a
 * page of expressions could grow sixteenfold on every read.
 */
export const MAX_EVALUATED_LENGTH = 2 * 1024 * 1024;

/**
 * The markdown with GitBook's variable expressions replaced by their values,
 * in one linear pass. Unknown names stay as written, so a typo shows up on
 * the page rather than vanishing. Values go in as written: a variable is the
 * author's own markdown. Past `bound`, the read is refused (400) rather than
 * answered with a text that size.
 */
export function evaluateExpressions(markdown: string, vars: ExpressionVariables, bound?: EvaluationBound): string {
  let length = markdown.length;
  return markdown.replace(
    EXPRESSION,
    (expression, braced?: 'space' | 'page', bracedName?: string, coded?: 'space' | 'page', codedName?: string) => {
      const scope = (braced ?? coded)!;
      const name = (bracedName ?? codedName)!;
      const values = vars[scope];
      if (!Object.hasOwn(values, name)) return expression;
      const value = String(values[name]);
      length += value.length - expression.length;
      if (bound && length > bound.maxLength)
        throw new BadRequestError(
          `${bound.field} would be longer than ${bound.maxLength} characters with its variables evaluated; read it with evaluated=false`,
        );
      return value;
    },
  );
}
