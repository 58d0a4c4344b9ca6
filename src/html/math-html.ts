import type { ElementContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { h } from 'hastscript';
import katex from 'katex';

/** Longer than any formula written by hand: a longer one is shown as its TeX source. */
export const MAX_FORMULA_LENGTH = 4_000;
/** The most formula characters a page typesets; past it the rest show as TeX, so a page of formulas stays cheap. */
export const MAX_PAGE_FORMULAS_LENGTH = 200_000;

/**
 * Formulas typeset by KaTeX as MathML, which browsers draw themselves: no
 * script, no stylesheet or font to serve. KaTeX runs untrusted (no `\href`,
 * no `\htmlClass`), with a bound on macro expansion; a formula it refuses,
 * or one past the page's budget, is shown as its TeX source.
 */
export class MathRenderer {
  private typeset = 0;

  render(formula: string, display: boolean): ElementContent {
    const wrapper = display ? 'div.math-block' : 'span.math-inline';
    const properties = display ? { tabIndex: 0 } : {};
    const math = this.mathml(formula, display);
    return math ? h(wrapper, properties, math) : h(wrapper, properties, [h('code.math', formula)]);
  }

  private mathml(formula: string, display: boolean): ElementContent[] | undefined {
    if (formula.trim() === '' || formula.length > MAX_FORMULA_LENGTH) return undefined;
    if (this.typeset + formula.length > MAX_PAGE_FORMULAS_LENGTH) return undefined;
    this.typeset += formula.length;
    try {
      const html = katex.renderToString(formula, {
        output: 'mathml',
        displayMode: display,
        throwOnError: true,
        trust: false,
        strict: 'ignore',
        maxExpand: 500,
        maxSize: 50,
      });
      return fromHtml(html, { fragment: true }).children as ElementContent[];
    } catch {
      return undefined;
    }
  }
}
