import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { codeLines } from './code-lines.js';
import { highlightCode } from './highlight.js';
import { classes, plainText, stringField } from './html-helpers.js';
import type { AnyNode } from './render-types.js';

/** GitBook folds an expandable code block after this many lines when the block does not say. */
const DEFAULT_COLLAPSED_LINES = 10;

/**
 * A code block as GitBook shows it: highlighted, under its title bar, its
 * long lines wrapped or scrolled, numbered, and folded after its first lines
 * behind a disclosure when it is expandable. A block with none of these is a
 * bare `<pre>`.
 */
export function codeBlock(node: AnyNode): Element {
  const data = node.data ?? {};
  const lines = (node.nodes ?? []).map((line) => plainText(line));
  const code = lines.join('\n');
  const syntax = stringField(data, 'syntax');
  const tokens = highlightCode(code, syntax) ?? [{ type: 'text', value: code }];
  const language = syntax && /^[\w+#-]{1,32}$/.test(syntax) ? syntax.toLowerCase() : undefined;
  const codeClass = language ? ['hljs', `language-${language}`] : ['hljs'];
  const title = stringField(data, 'title');
  const wrap = data.overflow === 'wrap';
  const numbered = data.lineNumbers === true;
  const foldAfter = foldedAfter(data, lines.length);
  const content = numbered || foldAfter !== undefined ? lineSpans(tokens, foldAfter) : tokens;
  const pre = h('pre', { tabIndex: 0, ...classes(wrap ? ['wrap'] : []) }, [
    h('code', { className: codeClass }, content),
  ]);
  if (!title && !numbered && foldAfter === undefined && data.fullWidth !== true) return pre;
  const blockClasses = [
    'code-block',
    ...(numbered ? ['line-numbers'] : []),
    ...(data.fullWidth === true ? ['full-width'] : []),
  ];
  return h('div', { className: blockClasses }, [
    ...(title ? [h('div.code-title', title)] : []),
    ...(foldAfter !== undefined
      ? [
          h('details.code-fold', [
            h('summary', [
              h('span.fold-more', `Show all ${lines.length} lines`),
              h('span.fold-less', 'Show fewer lines'),
            ]),
          ]),
        ]
      : []),
    pre,
  ]);
}

/** The line after which an expandable block folds, if it has more lines than it shows folded. */
function foldedAfter(data: Record<string, unknown>, lineCount: number): number | undefined {
  if (data.expandable !== true) return undefined;
  const count = data.collapsedLineCount;
  const shown = typeof count === 'number' && Number.isInteger(count) && count >= 1 ? count : DEFAULT_COLLAPSED_LINES;
  return lineCount > shown ? shown : undefined;
}

/** Each line in its own span (numbered by the stylesheet), those past `foldAfter` marked as folded. */
function lineSpans(tokens: ElementContent[], foldAfter: number | undefined): ElementContent[] {
  const lines = codeLines(tokens);
  return lines.map((line, index) => {
    const folded = foldAfter !== undefined && index >= foldAfter;
    const end: ElementContent[] = index < lines.length - 1 ? [{ type: 'text', value: '\n' }] : [];
    return h('span', { className: folded ? ['line', 'folded'] : ['line'] }, [...line, ...end]);
  });
}

/**
 * A prompt: its description, and its text as plain code a reader selects and
 * copies, shown open unless the author chose to hide it at first.
 */
export function promptBlock(node: AnyNode): Element {
  const description = stringField(node.data, 'description') ?? 'Prompt';
  const code = node.nodes?.find((child) => child.type === 'code');
  const text = (code?.nodes ?? []).map((line) => plainText(line)).join('\n');
  const open = node.data?.defaultExpanded === 'partial' || node.data?.defaultExpanded === 'full';
  return h('div.prompt', [
    h('p.prompt-description', description),
    h('details.prompt-text', { open }, [h('summary', 'Prompt'), h('pre', { tabIndex: 0 }, [h('code', text)])]),
  ]);
}
