import { booleanAttribute, choiceAttribute, tagLine, type TagAttributes } from './tag-attributes.js';
import type { DocumentBlockColumns, DocumentColumnChild, ColumnWidth, VerticalAlignment } from './types.js';

/**
 * Columns: `{% columns %}`, then for each column `{% column width="50%"
 * valign="middle" %}`, its content and `{% endcolumn %}`, then `{% endcolumns %}`.
 */

export type ColumnOptions = { width?: ColumnWidth; verticalAlignment?: VerticalAlignment };

const ALIGNMENTS: readonly VerticalAlignment[] = ['top', 'middle', 'bottom'];
const WIDTH = /^(\d{1,6}(?:\.\d{1,12})?)(%|px)?$/;

/** `50%` as 50 percent, `320` or `320px` as pixels; null for any other width. */
function lengthOf(width: string): ColumnWidth | null {
  const match = WIDTH.exec(width.trim());
  if (!match) return null;
  const value = Number(match[1]);
  return match[2] === '%' ? { unit: '%', value } : value;
}

export function readColumnsTag(attributes: TagAttributes): { fullWidth?: boolean } | null {
  const fullWidth = booleanAttribute(attributes, 'fullWidth');
  if (fullWidth === null) return null;
  return fullWidth === undefined ? {} : { fullWidth };
}

export function readColumnTag(attributes: TagAttributes): ColumnOptions | null {
  const width = attributes.get('width');
  const length = width === undefined ? undefined : lengthOf(width);
  const verticalAlignment = choiceAttribute(attributes, 'valign', ALIGNMENTS);
  if (length === null || verticalAlignment === null) return null;
  return {
    ...(length !== undefined ? { width: length } : {}),
    ...(verticalAlignment !== undefined ? { verticalAlignment } : {}),
  };
}

export function columnsBlock(
  options: { fullWidth?: boolean },
  columns: Array<{ options: ColumnOptions; nodes: DocumentColumnChild[] }>,
): DocumentBlockColumns {
  return {
    object: 'block',
    type: 'columns',
    data: { ...options },
    nodes: columns.map(({ options, nodes }) => ({ object: 'block', type: 'column', data: { ...options }, nodes })),
    isVoid: false,
  };
}

export function columnsTag(data: Record<string, unknown>): string {
  return tagLine('columns', [['fullWidth', typeof data.fullWidth === 'boolean' ? String(data.fullWidth) : undefined]]);
}

/** A width as GitBook writes it: percent with `%`, pixels as a number. */
function widthText(width: unknown): string | undefined {
  // Only a width that reads back as itself is written: `1e+21` is none.
  if (typeof width === 'number') return WIDTH.test(String(width)) ? String(width) : undefined;
  if (typeof width !== 'object' || width === null) return undefined;
  const { unit, value } = width as { unit?: unknown; value?: unknown };
  if (typeof value !== 'number' || !WIDTH.test(String(value))) return undefined;
  return unit === '%' ? `${value}%` : unit === 'px' ? String(value) : undefined;
}

export function columnTag(data: Record<string, unknown>): string {
  return tagLine('column', [
    ['width', widthText(data.width)],
    ['valign', ALIGNMENTS.find((a) => a === data.verticalAlignment)],
  ]);
}
