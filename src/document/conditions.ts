import { escapeTagValue } from './tag-attributes.js';
import type { DocumentBlockIf, DocumentTopLevelBlock } from './types.js';

/**
 * Conditional content: `{% if visitor.claims.unsigned.beta %}` … `{% endif %}`.
 * The condition is kept as written, whether or not the site's expression
 * checker (sites/adaptive) can read it: it is checked where it is evaluated,
 * against the site's claims, and an unreadable one must still reach the
 * reader as the author wrote it.
 */

/** Long enough for any real condition; the site's own bound on one (`MAX_CONDITION_LENGTH`). */
const MAX_EXPRESSION_LENGTH = 1024;

/** The condition of an `{% if … %}` tag, or null when it is empty or too long. */
export function readIfTag(text: string): { expression: string } | null {
  const expression = text.trim();
  return expression !== '' && expression.length <= MAX_EXPRESSION_LENGTH && !expression.includes('%}')
    ? { expression }
    : null;
}

export function ifBlock(expression: string, nodes: DocumentTopLevelBlock[]): DocumentBlockIf {
  return { object: 'block', type: 'if', data: { expression }, nodes };
}

/** `{% if … %}`, or null for an expression the tag cannot hold (empty, too long, on several lines). */
export function ifTag(data: Record<string, unknown>): string | null {
  const expression = typeof data.expression === 'string' ? data.expression.trim() : '';
  if (readIfTag(expression) === null || /[\n\r]/.test(expression)) return null;
  return `{% if ${escapeTagValue(expression)} %}`;
}

export const CLOSE_IF_TAG = '{% endif %}';
