import type { Table } from 'mdast';
import { paragraph } from './build.js';
import { inlineContent, type Definitions } from './inline-from-markdown.js';
import { plainText } from './markdown-tree.js';
import type {
  DocumentBlockTable,
  DocumentTableCellFragment,
  DocumentTableDefinitionText,
  DocumentTableRecord,
} from './types.js';

const BASE_62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The `index`-th key of the sequence the fractional-indexing scheme GitBook
 * uses for `orderIndex` counts through: `a0`…`az`, then `b00`…`bzz`, and so on.
 * The keys sort as plain strings, and a client can insert rows between them.
 */
export function orderKey(index: number): string {
  let digits = 1;
  let first = 0;
  while (index >= first + 62 ** digits) {
    first += 62 ** digits;
    digits += 1;
  }
  let rest = index - first;
  let key = '';
  for (let i = 0; i < digits; i += 1) {
    key = BASE_62[rest % 62]! + key;
    rest = Math.floor(rest / 62);
  }
  return String.fromCharCode('a'.charCodeAt(0) + digits - 1) + key;
}

/**
 * A GitHub table as GitBook's table block: one text column per header cell,
 * one record per row, each cell's content in a fragment the record names.
 * Column ids (`c1`…), record ids (`r1`…) and fragment names (`r1c1`…) follow
 * the table's shape, so the same table always gives the same block.
 */
export function tableBlock(table: Table, definitions: Definitions): DocumentBlockTable {
  const [header, ...rows] = table.children;
  const columns = (header?.children ?? []).map((_, index) => `c${index + 1}`);
  const definition: Record<string, DocumentTableDefinitionText> = {};
  columns.forEach((id, index) => {
    // Dropped HTML (an avatar `<img>`) can leave spaces a title should not have.
    const title = plainText(header!.children[index]!).trim();
    definition[id] = { id, title, type: 'text', textAlignment: table.align?.[index] ?? 'left' };
  });
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentTableCellFragment[] = [];
  rows.forEach((row, rowIndex) => {
    const recordId = `r${rowIndex + 1}`;
    const values: Record<string, string> = {};
    columns.forEach((column, index) => {
      const fragment = `${recordId}${column}`;
      values[column] = fragment;
      const cell = row.children[index];
      fragments.push({
        object: 'fragment',
        fragment,
        nodes: [paragraph(cell ? inlineContent(cell.children, definitions) : [])],
      });
    });
    records[recordId] = { orderIndex: orderKey(rowIndex), values };
  });
  return {
    object: 'block',
    type: 'table',
    data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
    fragments,
    isVoid: true,
  };
}
