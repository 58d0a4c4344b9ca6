import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { ownEntry } from './html-helpers.js';
import type { AnyNode, RenderContext } from './render-types.js';
import { cellContent, fragmentsById, sortedRecords, viewColumns, type TableData } from './table-cells.js';

/** Past this many merges a table lists more than any table of GitBook's holds. */
const MAX_MERGES = 2_500;

/**
 * A grid table: its header unless hidden, its columns' widths (through
 * `<col>`, since the reader allows no inline style), each cell's content as
 * its column's type reads it, merged cells spanning their rows and columns.
 */
export function gridTable(context: RenderContext, node: AnyNode): Element {
  const data = (node.data ?? {}) as TableData;
  const columns = viewColumns(data);
  const definitionOf = (id: string) => ownEntry(data.definition, id)!;
  const fragments = fragmentsById(node);
  const records = sortedRecords(data);
  const align = (id: string) => {
    const alignment = definitionOf(id).textAlignment;
    return alignment === 'center' || alignment === 'right' ? { className: [`align-${alignment}`] } : {};
  };
  const merges = mergedCells(
    data,
    records.map((record) => record.id),
    columns,
  );
  const widths = columnWidths(data, columns);
  const head = data.view?.hideHeader
    ? []
    : [
        h(
          'thead',
          h(
            'tr',
            columns.map((id) => h('th', { scope: 'col', ...align(id) }, definitionOf(id).title ?? '')),
          ),
        ),
      ];
  const rows = records.map((record, row) =>
    h(
      'tr',
      columns.flatMap((id, column): ElementContent[] => {
        const merge = merges.get(`${row}|${column}`);
        if (merge === 'covered') return [];
        const spans = merge
          ? {
              ...(merge.rowSpan > 1 ? { rowSpan: merge.rowSpan } : {}),
              ...(merge.colSpan > 1 ? { colSpan: merge.colSpan } : {}),
            }
          : {};
        return [
          h('td', { ...align(id), ...spans }, cellContent(context, definitionOf(id), record.values[id], fragments)),
        ];
      }),
    ),
  );
  return h('div', { className: ['table-wrapper', ...(data.fullWidth === true ? ['full-width'] : [])], tabIndex: 0 }, [
    h('table', [...(widths ? [widths] : []), ...head, h('tbody', rows)]),
  ]);
}

/**
 * The columns' widths as a `<colgroup>`: pixels for tables that size
 * columns exactly (`useNewSizing`), else shares of the table's width.
 */
function columnWidths(data: TableData, columns: string[]): Element | undefined {
  const widths = data.view?.columnWidths;
  if (!widths || typeof widths !== 'object') return undefined;
  const values = columns.map((id) => {
    const width = ownEntry(widths, id);
    return typeof width === 'number' && Number.isFinite(width) && width > 0 ? width : undefined;
  });
  if (values.every((width) => width === undefined)) return undefined;
  const total = values.reduce<number>((sum, width) => sum + (width ?? 0), 0);
  return h(
    'colgroup',
    values.map((width) => {
      if (width === undefined) return h('col');
      if (data.view?.useNewSizing === true) return h('col', { width: Math.round(Math.min(width, 10_000)) });
      // Older tables' widths are scaled to fill the table.
      return h('col', { width: `${Math.max(1, Math.round((width / Math.max(total, 100)) * 100))}%` });
    }),
  );
}

type Merge = { rowSpan: number; colSpan: number } | 'covered';

/**
 * The merged cells, by `row|column`: a merge's anchor with its spans, and
 * each cell it covers. A merge that leaves the table or overlaps another is
 * left out, as GitBook's normalization drops it; each cell is covered at most
 * once, so the work is bounded by the table's size.
 */
function mergedCells(data: TableData, records: string[], columns: string[]): Map<string, Merge> {
  const merged = new Map<string, Merge>();
  const rowOf = new Map(records.map((id, index) => [id, index]));
  const columnOf = new Map(columns.map((id, index) => [id, index]));
  const span = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 50 ? value : 0;
  // Valid merges cover each cell once; refused ones may not cost more than the table twice over.
  let budget = 2 * records.length * columns.length;
  for (const entry of (Array.isArray(data.cellMerges) ? data.cellMerges : []).slice(0, MAX_MERGES)) {
    const { anchor, rowSpan, colSpan } = (entry ?? {}) as {
      anchor?: { record?: string; column?: string };
      rowSpan?: unknown;
      colSpan?: unknown;
    };
    const row = rowOf.get(anchor?.record ?? '');
    const column = columnOf.get(anchor?.column ?? '');
    const rows = span(rowSpan);
    const cols = span(colSpan);
    if (row === undefined || column === undefined || rows === 0 || cols === 0) continue;
    if (row + rows > records.length || column + cols > columns.length) continue;
    budget -= rows * cols;
    if (budget < 0) break;
    const cells: string[] = [];
    for (let r = row; r < row + rows; r++) for (let c = column; c < column + cols; c++) cells.push(`${r}|${c}`);
    if (cells.some((cell) => merged.has(cell))) continue;
    for (const cell of cells) merged.set(cell, 'covered');
    merged.set(`${row}|${column}`, { rowSpan: rows, colSpan: cols });
  }
  return merged;
}
