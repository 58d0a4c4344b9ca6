import type { Element } from 'hast';
import { append, paragraph } from './build.js';
import { attribute, cellBlocks, elementsOnly, isElement, markdownOfHtml, type HtmlContext } from './html-content.js';
import { imageRefFromUrl, refFromUrl } from './links.js';
import { plainText } from './markdown-tree.js';
import { orderKey } from './table-from-markdown.js';
import type {
  DocumentBlockTable,
  DocumentTableCellFragment,
  DocumentTableDefinition,
  DocumentTableRecord,
  DocumentTableValue,
  TableTextAlignment,
} from './types.js';

/**
 * Tables as GitBook writes them in HTML. Cards: `<table data-view="cards"
 * data-card-size="large" data-card-wrap="false">`, whose header cells name
 * the columns (`<th data-hidden data-card-target data-type="content-ref">`
 * is the card's link, `<th data-hidden data-card-cover data-type="files">`
 * or `data-type="image"` its cover) and whose rows are the cards. Other
 * tables are grids, in HTML when markdown cannot say them: hidden header
 * (`data-header-hidden`), column widths (`<th width>`), cells of several
 * paragraphs or lists. Ids follow table-from-markdown.ts: columns `c1`…,
 * records `r1`…, cell fragments `r1c1`….
 */

interface Column {
  id: string;
  header: Element | null;
  definition: DocumentTableDefinition;
  hidden: boolean;
}

/** The rows of the table's head and body (or of the table itself), each its cells; null when it holds anything else. */
function tableRows(table: Element): { head: Element[] | null; body: Element[][] } | null {
  const sections = elementsOnly(table.children);
  if (!sections) return null;
  const rows: Element[] = [];
  let head: Element[] | null = null;
  for (const section of sections) {
    const name = section.tagName;
    if (name === 'tr') rows.push(section);
    else if (name === 'thead' || name === 'tbody' || name === 'tfoot') {
      const sectionRows = elementsOnly(section.children);
      if (!sectionRows || !sectionRows.every((row) => isElement(row, 'tr'))) return null;
      if (name === 'thead' && head === null && sectionRows.length === 1) head = cellsOf(sectionRows[0]!);
      else append(rows, sectionRows);
    } else if (name !== 'colgroup' && name !== 'caption') return null;
  }
  // Without a `<thead>`, a first row of `<th>` is the header.
  if (head === null && rows[0] && cellsOf(rows[0]).every((cell) => cell.tagName === 'th'))
    head = cellsOf(rows.shift()!);
  return { head, body: rows.map(cellsOf) };
}

function cellsOf(row: Element): Element[] {
  return row.children.filter((cell): cell is Element => isElement(cell, 'td', 'th'));
}

const TYPES = new Set(['content-ref', 'files', 'image']);
const ALIGNMENTS = new Set<TableTextAlignment>(['left', 'center', 'right']);

function columnOf(header: Element | null, index: number): Column {
  const id = `c${index + 1}`;
  const title = header ? plainText({ type: 'root', children: markdownOfHtml(header.children) }).trim() : '';
  const type = header ? attribute(header, 'dataType') : undefined;
  const hidden = header ? attribute(header, 'dataHidden') !== undefined : false;
  if (type && TYPES.has(type))
    return { id, header, hidden, definition: { id, title, type } as DocumentTableDefinition };
  const align = header ? (attribute(header, 'align')?.toLowerCase() as TableTextAlignment | undefined) : undefined;
  const textAlignment = align && ALIGNMENTS.has(align) ? align : 'left';
  return { id, header, hidden, definition: { id, title, type: 'text', textAlignment } };
}

/** The `<a href>` and `<img src>` URLs in a cell, in order: what a link or cover cell names. A loop: cells nest deep. */
function cellUrls(cell: Element): string[] {
  const urls: string[] = [];
  const pending: Element[] = [cell];
  while (pending.length > 0) {
    const element = pending.pop()!;
    const url = isElement(element, 'a')
      ? attribute(element, 'href')
      : isElement(element, 'img')
        ? attribute(element, 'src')
        : undefined;
    if (url) urls.push(url);
    for (let i = element.children.length - 1; i >= 0; i -= 1) {
      const child = element.children[i]!;
      if (child.type === 'element') pending.push(child);
    }
  }
  return urls;
}

function refValue(column: Column, cell: Element | undefined): DocumentTableValue | null {
  const urls = cell ? cellUrls(cell) : [];
  const [first] = urls;
  if (first === undefined) return null;
  if (column.definition.type === 'content-ref') return refFromUrl(first);
  if (column.definition.type === 'image') return { ref: imageRefFromUrl(first) };
  // A files column names uploads by id; a file not uploaded keeps its URL as a reference.
  const refs = urls.map(imageRefFromUrl);
  const files = refs.flatMap((ref) => (ref.kind === 'file' ? [ref.file] : []));
  return files.length === refs.length ? files : refs[0]!;
}

/** The cards view of a table's columns, from the table's and the header cells' attributes. */
function cardsView(table: Element, columns: Column[]): DocumentBlockTable['data']['view'] {
  const marked = (name: string) =>
    columns.find((column) => column.header && attribute(column.header, name) !== undefined)?.id;
  const target = marked('dataCardTarget');
  const cover = marked('dataCardCover');
  const coverDark = marked('dataCardCoverDark');
  return {
    type: 'cards',
    columns: columns.filter((column) => !column.hidden).map((column) => column.id),
    cardSize: attribute(table, 'dataCardSize') === 'large' ? 'large' : 'medium',
    ...(target ? { targetDefinition: target } : {}),
    ...(cover ? { coverDefinition: cover } : {}),
    ...(coverDark ? { coverDefinitionDark: coverDark } : {}),
    ...(attribute(table, 'dataCardWrap') === 'false' ? { wrap: false } : {}),
  };
}

function gridView(table: Element, columns: Column[]): DocumentBlockTable['data']['view'] {
  const widths: Record<string, number> = {};
  for (const column of columns) {
    const width = column.header ? Number(attribute(column.header, 'width')) : Number.NaN;
    if (Number.isFinite(width) && width > 0) widths[column.id] = width;
  }
  return {
    type: 'grid',
    columns: columns.filter((column) => !column.hidden).map((column) => column.id),
    hideHeader: attribute(table, 'dataHeaderHidden') !== undefined,
    ...(Object.keys(widths).length > 0 ? { columnWidths: widths } : {}),
  };
}

/** An HTML `<table>` as GitBook's table block, cards or grid; null when its structure is not rows of cells. */
export function tableFromHtml(table: Element, context: HtmlContext): DocumentBlockTable | null {
  const rows = tableRows(table);
  if (!rows) return null;
  // The widest row sets the columns, so no cell's text is lost.
  const width = rows.body.reduce((widest, cells) => Math.max(widest, cells.length), rows.head?.length ?? 0);
  if (width === 0) return null;
  const columns = Array.from({ length: width }, (_, index) => columnOf(rows.head?.[index] ?? null, index));
  const records: Record<string, DocumentTableRecord> = {};
  const fragments: DocumentTableCellFragment[] = [];
  rows.body.forEach((cells, rowIndex) => {
    const recordId = `r${rowIndex + 1}`;
    const values: Record<string, DocumentTableValue> = {};
    columns.forEach((column, index) => {
      const cell = cells[index];
      if (column.definition.type !== 'text') {
        const value = refValue(column, cell);
        if (value !== null) values[column.id] = value;
        return;
      }
      const fragment = `${recordId}${column.id}`;
      const nodes = cell ? cellBlocks(cell.children, context) : [];
      values[column.id] = fragment;
      fragments.push({ object: 'fragment', fragment, nodes: nodes.length > 0 ? nodes : [paragraph([])] });
    });
    records[recordId] = { orderIndex: orderKey(rowIndex), values };
  });
  const definition = Object.fromEntries(columns.map((column) => [column.id, column.definition]));
  const fullWidth = attribute(table, 'dataFullWidth');
  const search = attribute(table, 'dataSearch');
  return {
    object: 'block',
    type: 'table',
    data: {
      view: attribute(table, 'dataView') === 'cards' ? cardsView(table, columns) : gridView(table, columns),
      records,
      definition,
      ...(fullWidth === 'true' || fullWidth === 'false' ? { fullWidth: fullWidth === 'true' } : {}),
      ...(search === 'true' || search === 'false' ? { search: search === 'true' } : {}),
    },
    fragments,
    isVoid: true,
  };
}
