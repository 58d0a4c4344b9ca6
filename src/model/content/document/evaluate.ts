export type VariableValue = string | number | boolean;

export interface ExpressionVariables {
  space: Record<string, VariableValue>;
  page: Record<string, VariableValue>;
}

/** `{{ space.vars.NAME }}` or `{{ page.vars.NAME }}`, with or without spaces inside the braces. */
const EXPRESSION = /\{\{\s*(space|page)\.vars\.([A-Za-z_][\w-]*)\s*\}\}/g;

/**
 * The markdown with GitBook's variable expressions replaced by their values.
 * Unknown names stay as written, so a typo shows up on the page rather than vanishing.
 * Values go in as written: a variable is the author's own markdown.
 */
export function evaluateExpressions(markdown: string, vars: ExpressionVariables): string {
  return markdown.replace(EXPRESSION, (expression, scope: 'space' | 'page', name: string) => {
    const values = vars[scope];
    return Object.hasOwn(values, name) ? String(values[name]) : expression;
  });
}
