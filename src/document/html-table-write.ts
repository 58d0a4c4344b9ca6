import type { Element, ElementContent, Properties } from 'hast';
import { h } from 'hastscript';
import { cellHast, htmlOf } from './html-write.js';
import { urlFromRef } from './links.js';
import { asObject, field, type At, type JsonObject } from './read-json.js';

/**
 * A table as GitBook's HTML table, in the form html-table.ts reads:
 * `<table data-view="cards">` with its card size and wrap, a header cell per
 * column (`<th width align>` in a grid; hidden, target and cover columns
 * marked `data-hidden`, `data-card-target`, `data-card-cover`, `data-type`),
 * and a row per record; a text cell's blocks as HTML, a link or cover cell
 * as a link to what it names.
 */

/** A table's data as the writers read it (table-to-markdown.ts gathers it). */
export interface TableParts {
  data: JsonObject;
  view: JsonObject;
  /** The shown columns, in order. */
  columns: string[];
  definition: JsonObject;
  column: (id: string) => JsonObject;
  /** Records in their order. */
  rows: Array<[JsonObject, At]>;
  /** Fragments by name. */
  fragments: Map<unknown, readonly [JsonObject, At]>;
}

/** `true` renders as a bare attribute (`data-hidden`), as GitBook writes it. */
function tableProperties({ data, view }: TableParts): Properties {
  const properties: Properties = {};
  if (view.type === 'cards' && view.cardSize === 'large') properties.dataCardSize = 'large';
  if (view.type === 'cards' && view.wrap === false) properties.dataCardWrap = 'false';
  if (typeof data.fullWidth === 'boolean') properties.dataFullWidth = String(data.fullWidth);
  if (view.type !== 'cards' && view.hideHeader === true) properties.dataHeaderHidden = true;
  if (typeof data.search === 'boolean') properties.dataSearch = String(data.search);
  if (view.type === 'cards') properties.dataView = 'cards';
  return properties;
}

const CARD_ROLES = [
  ['targetDefinition', 'dataCardTarget'],
  ['coverDefinition', 'dataCardCover'],
  ['coverDefinitionDark', 'dataCardCoverDark'],
] as const;

function headerCell(parts: TableParts, id: string, hidden: boolean): Element {
  const column = parts.column(id);
  const properties: Properties = {};
  const widths = parts.view.columnWidths;
  const width = typeof widths === 'object' && widths !== null ? (widths as JsonObject)[id] : undefined;
  if (typeof width === 'number' && Number.isFinite(width) && width > 0) properties.width = String(width);
  if (column.textAlignment === 'center' || column.textAlignment === 'right') properties.align = column.textAlignment;
  if (hidden) properties.dataHidden = true;
  if (parts.view.type === 'cards')
    for (const [role, attribute] of CARD_ROLES) if (parts.view[role] === id) properties[attribute] = true;
  if (typeof column.type === 'string' && column.type !== 'text') properties.dataType = column.type;
  return h('th', properties, typeof column.title === 'string' ? column.title : '');
}

/** The URLs a link or cover cell names: a reference, an image record (`{ ref }`) or file ids. */
function valueUrls(value: unknown, at: At): string[] {
  if (Array.isArray(value))
    return value.filter((id): id is string => typeof id === 'string' && id !== '').map((id) => `/files/${id}`);
  if (typeof value !== 'object' || value === null) return [];
  const object = value as JsonObject;
  const ref = object.kind === undefined && object.ref !== undefined ? asObject(object.ref, field(at, 'ref')) : object;
  const url = urlFromRef(ref);
  return url === null ? [] : [url];
}

function bodyCell(parts: TableParts, id: string, value: unknown, at: At): Element {
  const type = parts.column(id).type;
  if (type === 'content-ref' || type === 'files' || type === 'image') {
    // The link's text is its URL: the page title or file name it would show is not the document's to know.
    return h(
      'td',
      valueUrls(value, at).map((url) => h('a', { href: url }, url)),
    );
  }
  const fragment = typeof value === 'string' ? parts.fragments.get(value) : undefined;
  if (fragment) return h('td', cellHast(...fragment));
  const text: ElementContent[] =
    typeof value === 'string' || typeof value === 'number' ? [{ type: 'text', value: String(value) }] : [];
  return h('td', text);
}

export function htmlTable(parts: TableParts): string {
  const hidden = Object.keys(parts.definition).filter((id) => !parts.columns.includes(id));
  const columns = [...parts.columns, ...hidden];
  const header = h('tr', [
    ...parts.columns.map((id) => headerCell(parts, id, false)),
    ...hidden.map((id) => headerCell(parts, id, true)),
  ]);
  const rows = parts.rows.map(([record, recordAt]) => {
    const valuesAt = field(recordAt, 'values');
    const values = asObject(record.values ?? {}, valuesAt);
    return h(
      'tr',
      columns.map((id) => bodyCell(parts, id, values[id], field(valuesAt, id))),
    );
  });
  return htmlOf(h('table', tableProperties(parts), [h('thead', [header]), h('tbody', rows)]));
}
