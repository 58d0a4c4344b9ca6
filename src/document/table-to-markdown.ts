import type { AlignType, Html, PhrasingContent, Table, TableCell, TableRow } from 'mdast';
import { withoutTrailingBreaks, inlinePhrasing } from './inline-to-markdown.js';
import { htmlTable, type TableParts } from './html-table-write.js';
import { asObject, asString, childObjects, fail, field, type At, type JsonObject } from './read-json.js';

/**
 * A GitBook table written back: as a GitHub table when markdown can say it
 * (a grid of one-paragraph text cells, its header shown, no column widths),
 * otherwise, cards included, as GitBook's HTML table (html-table-write.ts).
 */

const ALIGNMENTS = new Set<AlignType>(['left', 'center', 'right']);

function childStrings(value: unknown, at: At): string[] {
  if (!Array.isArray(value)) fail(at, 'must be an array');
  return value.map((entry, index) => asString(entry, { path: `${at.path}[${index}]`, depth: at.depth }));
}

/** The table's records, sorted the way GitBook shows them. */
function records(data: JsonObject, dataAt: At): Array<[JsonObject, At]> {
  const recordsAt = field(dataAt, 'records');
  const all = Object.entries(asObject(data.records ?? {}, recordsAt)).map(([id, record]): [JsonObject, At] => [
    asObject(record, field(recordsAt, id)),
    field(recordsAt, id),
  ]);
  const order = (record: JsonObject) => (typeof record.orderIndex === 'string' ? record.orderIndex : '');
  // Fractional-indexing keys compare as plain strings, not by locale.
  return all.sort(([a], [b]) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** A title or plain value as cell text; a cell is one line, so line breaks become spaces. */
function textCell(value: unknown): PhrasingContent[] {
  if (typeof value !== 'string' && typeof value !== 'number') return [];
  return [{ type: 'text', value: String(value).replaceAll('\r\n', ' ').replaceAll('\n', ' ').replaceAll('\r', ' ') }];
}

/** A cell's value: the name of the fragment holding its text, or a plain number or string. */
function cell(value: unknown, fragments: TableParts['fragments']): TableCell {
  const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
  if (!fragment) return { type: 'tableCell', children: textCell(value) };
  const paragraphs = childObjects(...fragment, 'nodes')
    .filter(
      ([block]) => block.type === 'paragraph' || (typeof block.type === 'string' && block.type.startsWith('heading-')),
    )
    .map(([block, blockAt]) => withoutTrailingBreaks(inlinePhrasing(block, blockAt, 'html')));
  // A cell is one line: its paragraphs are joined by `<br>`; lists and other blocks a GitHub table cannot hold are left out.
  const children = paragraphs.flatMap((p, index): PhrasingContent[] =>
    index === 0 ? p : [{ type: 'html', value: '<br>' }, ...p],
  );
  return { type: 'tableCell', children };
}

function gfmTable(parts: TableParts): Table {
  const { columns, column, rows, fragments } = parts;
  const header: TableRow = {
    type: 'tableRow',
    children: columns.map((id) => ({ type: 'tableCell', children: textCell(column(id).title) })),
  };
  const body = rows.map(([record, recordAt]): TableRow => ({
    type: 'tableRow',
    children: columns.map((id) => cell(asObject(record.values ?? {}, field(recordAt, 'values'))[id], fragments)),
  }));
  // Left is the default; writing it would add `:` to every delimiter for nothing.
  const align = columns.map((id) => {
    const alignment = column(id).textAlignment as AlignType;
    return ALIGNMENTS.has(alignment) && alignment !== 'left' ? alignment : null;
  });
  return { type: 'table', align, children: [header, ...body] };
}

/** Whether every cell of the table is one paragraph (or nothing), which a GitHub table's one-line cells can hold. */
function cellsFitOneLine(parts: TableParts): boolean {
  return [...parts.fragments.values()].every(([fragment]) => {
    const nodes = Array.isArray(fragment.nodes) ? (fragment.nodes as unknown[]) : [];
    const [only] = nodes;
    return nodes.length === 0 || (nodes.length === 1 && (only as JsonObject | undefined)?.type === 'paragraph');
  });
}

/** Whether markdown's table says all the table is: a grid of text columns, all shown, header shown, no widths. */
function isPlainGrid(parts: TableParts): boolean {
  const { view, data, definition, columns } = parts;
  const widths = typeof view.columnWidths === 'object' && view.columnWidths !== null ? view.columnWidths : {};
  return (
    view.type !== 'cards' &&
    view.hideHeader !== true &&
    Object.keys(widths).length === 0 &&
    data.fullWidth === undefined &&
    data.search === undefined &&
    Object.keys(definition).every((id) => columns.includes(id)) &&
    columns.every((id) => parts.column(id).type === undefined || parts.column(id).type === 'text') &&
    cellsFitOneLine(parts)
  );
}

/** The table as a GitHub table or as GitBook's HTML table, whichever says it whole. */
export function tableMarkdown(node: JsonObject, at: At): Table | Html {
  const dataAt = field(at, 'data');
  const data = asObject(node.data, dataAt);
  const viewAt = field(dataAt, 'view');
  const view = asObject(data.view, viewAt);
  const columns = childStrings(view.columns, field(viewAt, 'columns'));
  const definition = asObject(data.definition, field(dataAt, 'definition'));
  const fragments: TableParts['fragments'] = new Map(
    childObjects(node, at, 'fragments', false).map(([f, fAt]) => [f.fragment, [f, fAt] as const]),
  );
  const column = (id: string) =>
    typeof definition[id] === 'object' && definition[id] !== null ? (definition[id] as JsonObject) : {};
  const parts: TableParts = { data, view, columns, definition, column, rows: records(data, dataAt), fragments };
  return isPlainGrid(parts) ? gfmTable(parts) : { type: 'html', value: htmlTable(parts) };
}
