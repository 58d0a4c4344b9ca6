import { booleanAttribute, choiceAttribute, closingTag, tagLine, type TagAttributes } from './tag-attributes.js';
import type { CodeOverflow, DocumentBlockCode } from './types.js';

/**
 * A code block's options, which markdown's fences cannot say: GitBook writes
 * them as `{% code title="…" overflow="wrap" lineNumbers="true" %}` on the
 * line before the fence and `{% endcode %}` on the line after it.
 */

export type CodeOptions = Pick<
  DocumentBlockCode['data'],
  'title' | 'overflow' | 'lineNumbers' | 'fullWidth' | 'expandable'
>;

const OVERFLOWS: readonly CodeOverflow[] = ['scroll', 'wrap'];
const FLAGS = ['lineNumbers', 'fullWidth', 'expandable'] as const;

/** The options a `{% code %}` tag sets, or null when one of them cannot be read. */
export function readCodeTag(attributes: TagAttributes): CodeOptions | null {
  const options: CodeOptions = {};
  const title = attributes.get('title');
  if (title !== undefined) options.title = title;
  const overflow = choiceAttribute(attributes, 'overflow', OVERFLOWS);
  if (overflow === null) return null;
  if (overflow !== undefined) options.overflow = overflow;
  for (const flag of FLAGS) {
    const value = booleanAttribute(attributes, flag);
    if (value === null) return null;
    if (value !== undefined) options[flag] = value;
  }
  return options;
}

/** The code block with the options of the tag around it. */
export function withCodeOptions(code: DocumentBlockCode, options: CodeOptions): DocumentBlockCode {
  return { ...code, data: { ...code.data, ...options } };
}

/** The options of a code block's data that need a `{% code %}` tag, in the order GitBook writes them. */
function codeAttributes(data: Record<string, unknown>): Array<[string, string | undefined]> {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const flag = (value: unknown) => (typeof value === 'boolean' ? String(value) : undefined);
  return [
    ['title', text(data.title)],
    ['overflow', data.overflow === 'wrap' || data.overflow === 'scroll' ? data.overflow : undefined],
    ['lineNumbers', flag(data.lineNumbers)],
    ['fullWidth', flag(data.fullWidth)],
    ['expandable', flag(data.expandable)],
  ];
}

/** The `{% code %}` and `{% endcode %}` lines a code block's data needs, or null when it has no option. */
export function codeTags(data: Record<string, unknown>): [string, string] | null {
  const attributes = codeAttributes(data);
  if (attributes.every(([, value]) => value === undefined)) return null;
  return [tagLine('code', attributes), closingTag('code')];
}
