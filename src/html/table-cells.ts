import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { imageElement } from './image-html.js';
import { ownEntry, unwrapParagraph } from './html-helpers.js';
import type { AnyNode, RenderContext } from './render-types.js';

/** A table block's data as the spec has it, read loosely. */
export interface TableData {
  view?: {
    type?: string;
    columns?: unknown[];
    columnWidths?: Record<string, unknown>;
    hideHeader?: boolean;
    useNewSizing?: boolean;
    cardSize?: string;
    targetDefinition?: string;
    coverDefinition?: string;
    coverDefinitionDark?: string;
    hideColumnTitle?: boolean;
    wrap?: boolean;
  };
  records?: Record<string, TableRecord>;
  definition?: Record<string, ColumnDefinition>;
  cellMerges?: unknown[];
  fullWidth?: boolean;
}

export interface TableRecord {
  orderIndex?: unknown;
  values?: Record<string, unknown>;
}

export interface ColumnDefinition {
  type?: string;
  title?: string;
  textAlignment?: string;
  max?: unknown;
  options?: Array<{ value?: unknown; label?: unknown }>;
}

/** Past this many stars a rating is shown as its number only. */
const MAX_STARS = 10;

/** The view's columns that the table defines, in the view's order. */
export function viewColumns(data: TableData): string[] {
  return (data.view?.columns ?? []).filter(
    (id): id is string => typeof id === 'string' && ownEntry(data.definition, id) !== undefined,
  );
}

/** The records in the author's order (by their fractional order index), with their ids. */
export function sortedRecords(data: TableData): Array<{ id: string; values: Record<string, unknown> }> {
  const order = (record: TableRecord) => (typeof record.orderIndex === 'string' ? record.orderIndex : '');
  return Object.entries(data.records ?? {})
    .filter(([, record]) => typeof record === 'object' && record !== null)
    .sort(([, a], [, b]) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
    .map(([id, record]) => ({ id, values: record.values ?? {} }));
}

/** The table's fragments by id: text cells hold a fragment's id. */
export function fragmentsById(node: AnyNode): Map<string, AnyNode> {
  return new Map((node.fragments ?? []).map((fragment) => [fragment.fragment ?? '', fragment]));
}

/**
 * A cell's content as its column's type reads the value: rich text from a
 * fragment, a number, a checkbox, chosen options, a link, files, an image or
 * a rating. A value the type does not expect shows nothing.
 */
export function cellContent(
  context: RenderContext,
  definition: ColumnDefinition,
  value: unknown,
  fragments: Map<string, AnyNode>,
): ElementContent[] {
  switch (definition.type) {
    case 'text':
    case undefined: {
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (!fragment) return [];
      const blocks = context.blocks(fragment.nodes);
      // One line of text sits in the cell as it is; more blocks keep their paragraphs.
      return blocks.length === 1 ? blocks.flatMap(unwrapParagraph) : blocks;
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? [{ type: 'text', value: String(value) }] : [];
    case 'checkbox':
      return [
        h('input', { type: 'checkbox', disabled: true, checked: value === true, ariaLabel: value ? 'yes' : 'no' }),
      ];
    case 'select':
      return selectedOptions(definition, value);
    case 'content-ref':
      return contentRefCell(context, value);
    case 'files':
      return filesCell(context, value);
    case 'image': {
      const ref = (value as { ref?: unknown } | null)?.ref ?? value;
      const alt = (value as { alt?: unknown } | null)?.alt;
      const image = imageElement(context, ref, typeof alt === 'string' ? alt : '', {});
      return image ? [image] : [];
    }
    case 'rating':
      return rating(definition, value);
    default:
      return [];
  }
}

function selectedOptions(definition: ColumnDefinition, value: unknown): ElementContent[] {
  const chosen = Array.isArray(value) ? value : [value];
  return (definition.options ?? [])
    .filter((option) => chosen.includes(option.value))
    .map((option) => h('span.tag', typeof option.label === 'string' ? option.label : String(option.value)));
}

function contentRefCell(context: RenderContext, value: unknown): ElementContent[] {
  const href = context.linkTarget(value);
  if (!href) return [];
  const ref = value as { kind?: string; page?: string; space?: string; url?: string };
  const title =
    ref.kind === 'page' ? ownEntry(context.input.pageTitles, `${ref.space ?? ''}/${ref.page ?? ''}`) : undefined;
  const label = title ?? (ref.kind === 'url' && ref.url ? ref.url : href);
  return context.insideLink ? [{ type: 'text', value: label }] : [h('a', { href }, label)];
}

function filesCell(context: RenderContext, value: unknown): ElementContent[] {
  const ids = Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  return ids.flatMap((id) => {
    const file = ownEntry(context.input.files, id);
    if (!file) return [];
    return [
      context.insideLink ? h('span.file', file.name) : h('a.file', { href: file.url, download: file.name }, file.name),
    ];
  });
}

function rating(definition: ColumnDefinition, value: unknown): ElementContent[] {
  const max = typeof definition.max === 'number' && Number.isInteger(definition.max) ? definition.max : 5;
  if (typeof value !== 'number' || !Number.isFinite(value) || max < 1) return [];
  const stars = Math.max(0, Math.min(max, Math.round(value)));
  const label = `${stars} out of ${max}`;
  if (max > MAX_STARS) return [{ type: 'text', value: label }];
  return [h('span.rating', { role: 'img', ariaLabel: label }, '★'.repeat(stars) + '☆'.repeat(max - stars))];
}
