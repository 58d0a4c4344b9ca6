import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { fragmentOf, ownEntry, plainText, stringField, unwrapParagraph } from './html-helpers.js';
import type { AnyNode, RenderContext } from './render-types.js';

const HINT_LABELS: Record<string, string> = { info: 'Info', warning: 'Warning', danger: 'Danger', success: 'Success' };

export function hintBlock(context: RenderContext, node: AnyNode): Element {
  const style =
    typeof node.data?.style === 'string' && Object.hasOwn(HINT_LABELS, node.data.style) ? node.data.style : 'info';
  return h(`div.hint.hint-${style}`, { role: 'note', ariaLabel: HINT_LABELS[style] }, context.blocks(node.nodes));
}

/** Tabs that work without script: a radio button per tab, and CSS shows the panel after the checked one. */
export function tabsBlock(context: RenderContext, node: AnyNode): Element {
  const group = context.uniqueId('tabs');
  return h(
    'div.tabs',
    (node.nodes ?? []).flatMap((item, index) => {
      const id = `${group}-${index}`;
      return [
        h('input.tab-radio', { type: 'radio', name: group, id, checked: index === 0 }),
        h('label.tab-label', { htmlFor: id }, stringField(item.data, 'title') ?? `Tab ${index + 1}`),
        h('div.tab-panel', context.blocks(item.nodes)),
      ];
    }),
  );
}

export function expandableBlock(context: RenderContext, node: AnyNode): Element {
  const title = fragmentOf(node, 'expandable-title');
  const summary = title ? context.blocks(title.nodes).flatMap(unwrapParagraph) : [];
  // GitBook's links name an expandable by its title's id, as they name a heading.
  const id = context.expandableId((title?.nodes ?? []).map(plainText).join(' '));
  return h('details.expandable', { ...(id ? { id } : {}), open: node.data?.defaultExpanded === true }, [
    h('summary', summary.length > 0 ? summary : ['Details']),
    h('div.expandable-body', context.blocks(fragmentOf(node, 'expandable-body')?.nodes)),
  ]);
}

/** A stepper: its steps as a numbered list, the stylesheet drawing each number and the line between them. */
export function stepperBlock(context: RenderContext, node: AnyNode): Element {
  const steps = (node.nodes ?? []).filter((step) => step.type === 'stepper-step');
  return h(
    'ol.stepper',
    steps.map((step) => h('li.step', context.blocks(step.nodes))),
  );
}

/**
 * Columns side by side, each as wide as its share (a width the author set,
 * or an even part of what is left), stacked on a narrow screen. Shares are
 * rounded to the stylesheet's steps of 5%: the reader allows no inline style.
 */
export function columnsBlock(context: RenderContext, node: AnyNode): Element {
  const columns = (node.nodes ?? []).filter((column) => column.type === 'column');
  const widths = columns.map((column) => percentOf(column.data?.width));
  const set = widths.reduce<number>((sum, width) => sum + (width ?? 0), 0);
  const unset = widths.filter((width) => width === undefined).length;
  const rest = unset > 0 ? Math.max(5, (100 - set) / unset) : 0;
  return h(
    'div',
    { className: ['columns', ...(node.data?.fullWidth === true ? ['full-width'] : [])] },
    columns.map((column, index) => {
      const share = Math.min(100, Math.max(5, Math.round((widths[index] ?? rest) / 5) * 5));
      const align = column.data?.verticalAlignment;
      const valign = align === 'middle' || align === 'bottom' ? [`valign-${align}`] : [];
      return h('div', { className: ['column', `share-${share}`, ...valign] }, context.blocks(column.nodes));
    }),
  );
}

/** GitBook's content column is about this wide: a column sized in pixels takes that share of it. */
const CONTENT_WIDTH_PX = 736;

/** A column's width as a percentage of the row: a `%` length as it is, pixels (a bare number or `px`) as a share. */
function percentOf(width: unknown): number | undefined {
  const length = width as { unit?: unknown; value?: unknown } | null | undefined;
  const pixels = typeof width === 'number' ? width : length?.unit === 'px' ? length.value : undefined;
  const percent =
    typeof pixels === 'number'
      ? (pixels / CONTENT_WIDTH_PX) * 100
      : length?.unit === '%' && typeof length.value === 'number'
        ? length.value
        : undefined;
  return percent !== undefined && Number.isFinite(percent) && percent > 0 ? Math.min(percent, 100) : undefined;
}

/**
 * Adaptive content: on a published site, shown only when its expression
 * holds for the visitor (the reader evaluated each one); to members in the
 * app, always shown, under the condition it depends on.
 */
export function ifBlock(context: RenderContext, node: AnyNode): ElementContent[] {
  const expression = stringField(node.data, 'expression') ?? '';
  const { conditions } = context.input;
  if (conditions) return ownEntry(conditions, expression) === true ? context.blocks(node.nodes) : [];
  return [
    h('div.conditional', [
      h('p.conditional-label', ['Shown to visitors when ', h('code', expression)]),
      ...context.blocks(node.nodes),
    ]),
  ];
}

const DATE_FORMATS: Record<string, Intl.DateTimeFormatOptions> = {
  full: { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' },
  short: { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' },
  numeric: { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' },
};

/** Updates: a timeline, newest as the author ordered them, each with its date and tags above its content. */
export function updatesBlock(context: RenderContext, node: AnyNode): Element {
  const format =
    typeof node.data?.format === 'string' && Object.hasOwn(DATE_FORMATS, node.data.format) ? node.data.format : 'full';
  const formatter = new Intl.DateTimeFormat('en-US', DATE_FORMATS[format]);
  const updates = (node.nodes ?? []).filter((update) => update.type === 'update');
  return h(
    'ol.updates',
    updates.map((update) => {
      const date = stringField(update.data, 'date') ?? '';
      const time = Date.parse(date);
      const tagRefs = update.data?.tags;
      const tags = (Array.isArray(tagRefs) ? tagRefs : [])
        .map((tag) => (tag as { tag?: unknown } | null)?.tag)
        .filter((tag): tag is string => typeof tag === 'string' && tag !== '');
      return h('li.update', [
        h('div.update-meta', [
          Number.isNaN(time)
            ? h('span.update-date', date)
            : h('time.update-date', { dateTime: new Date(time).toISOString() }, formatter.format(time)),
          ...(tags.length > 0
            ? [
                h(
                  'ul.update-tags',
                  tags.map((tag) => h('li.tag', tag)),
                ),
              ]
            : []),
        ]),
        h('div.update-body', context.blocks(update.nodes)),
      ]);
    }),
  );
}
