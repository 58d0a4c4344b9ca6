import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { imageElement } from './image-html.js';
import { ownEntry, withClass } from './html-helpers.js';
import type { AnyNode, RenderContext } from './render-types.js';
import { cellContent, fragmentsById, sortedRecords, viewColumns, type TableData } from './table-cells.js';

/**
 * A table in the cards view: a grid of cards (two or three across as the
 * card size says, one on a narrow screen), or one row that scrolls when the
 * cards do not wrap. Each card is a link to its target when it has one, with
 * its cover image (and dark cover) above the text of its other columns.
 */
export function cardsTable(context: RenderContext, node: AnyNode): Element {
  const data = (node.data ?? {}) as TableData;
  const view = data.view ?? {};
  const special = new Set([view.targetDefinition, view.coverDefinition, view.coverDefinitionDark]);
  const columns = viewColumns(data).filter((id) => !special.has(id));
  const fragments = fragmentsById(node);
  const size = view.cardSize === 'large' ? 'large' : 'medium';
  const scrolls = view.wrap === false;
  const cards = sortedRecords(data).map((record) => {
    const href = view.targetDefinition ? context.linkTarget(record.values[view.targetDefinition]) : undefined;
    const content = context.withinCard(href !== undefined, () => [
      ...cover(context, record.values, view.coverDefinition, view.coverDefinitionDark),
      h(
        'div.card-body',
        columns.flatMap((id) => {
          const definition = ownEntry(data.definition, id)!;
          const value = cellContent(context, definition, record.values[id], fragments);
          if (value.length === 0) return [];
          const title =
            view.hideColumnTitle === false && definition.title ? [h('span.card-label', definition.title)] : [];
          return [h('div.card-field', [...title, ...value])];
        }),
      ),
    ]);
    return h('li.card', href ? [h('a.card-link', { href }, content)] : content);
  });
  const classes = [
    'cards',
    `cards-${size}`,
    ...(scrolls ? ['cards-scroll'] : []),
    ...(data.fullWidth === true ? ['full-width'] : []),
  ];
  // A row that scrolls is reached by keyboard too.
  return h('ul', { className: classes, ...(scrolls ? { tabIndex: 0, ariaLabel: 'Cards' } : {}) }, cards);
}

/** The card's cover: its image, and its dark image for the dark theme when it has one. */
function cover(
  context: RenderContext,
  values: Record<string, unknown>,
  light: string | undefined,
  dark: string | undefined,
): ElementContent[] {
  // A cover column is an image column (a reference, or { ref, alt }) or a files column (file ids).
  const image = (column: string | undefined) => {
    const value = column ? values[column] : undefined;
    if (typeof value !== 'object' || value === null) return undefined;
    if (Array.isArray(value)) {
      const file = value.find((id): id is string => typeof id === 'string');
      return file ? imageElement(context, { kind: 'file', file }, '', {}) : undefined;
    }
    const { ref, alt } = value as { ref?: unknown; alt?: unknown };
    return imageElement(context, ref ?? value, typeof alt === 'string' ? alt : '', {});
  };
  const lightImage = image(light);
  const darkImage = image(dark);
  if (!lightImage && !darkImage) return [];
  const images =
    lightImage && darkImage
      ? [withClass(lightImage, 'image-light'), withClass(darkImage, 'image-dark')]
      : [(lightImage ?? darkImage)!];
  return [h('div.card-cover', images)];
}
