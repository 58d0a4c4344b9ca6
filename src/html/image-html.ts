import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import { fragmentOf, lengthAttribute, ownEntry, stringField, unwrapParagraph, withClass } from './html-helpers.js';
import type { AnyNode, RenderContext } from './render-types.js';

const IMAGE_ALIGNMENTS = new Set(['left', 'right', 'center']);

/**
 * An images block: its figures side by side, aligned (centred unless the
 * block says otherwise), framed or full width as the author chose.
 */
export function imagesBlock(context: RenderContext, node: AnyNode): Element {
  const data = node.data ?? {};
  const align = typeof data.align === 'string' && IMAGE_ALIGNMENTS.has(data.align) ? data.align : 'center';
  const classes = [
    'images',
    `images-${align}`,
    ...(data.fullWidth === true ? ['full-width'] : []),
    ...(data.withFrame === true ? ['with-frame'] : []),
  ];
  const images = (node.nodes ?? []).filter((image) => image.type === 'image');
  return h(
    'div',
    { className: classes },
    images.map((image) => imageFigure(context, image)),
  );
}

/** One image with its caption; its dark variant, when it has one, is the one shown in the dark theme. */
export function imageFigure(context: RenderContext, node: AnyNode): Element {
  const data = node.data ?? {};
  const alt = stringField(data, 'alt') ?? '';
  const light = imageElement(context, data.ref, alt, data);
  const dark = data.refDark ? imageElement(context, data.refDark, alt, data) : undefined;
  const caption = fragmentOf(node, 'caption');
  const captionContent = caption ? context.blocks(caption.nodes).flatMap(unwrapParagraph) : [];
  const shown: ElementContent[] = !light
    ? [h('span.missing', alt || 'image')]
    : dark
      ? [withClass(light, 'image-light'), withClass(dark, 'image-dark')]
      : [light];
  return h('figure', [...shown, ...(captionContent.length > 0 ? [h('figcaption', captionContent)] : [])]);
}

/** A drawing: the image GitBook keeps of it, centred as an image is. */
export function drawingBlock(context: RenderContext, node: AnyNode): Element {
  const image = imageElement(context, node.data?.ref, 'Drawing', {});
  return h('div.images.images-center', [h('figure', [image ?? h('span.missing', 'Drawing')])]);
}

/** An image inside a line of text. */
export function inlineImage(context: RenderContext, node: AnyNode): ElementContent[] {
  const data = node.data ?? {};
  const alt = stringField(data, 'alt') ?? '';
  const light = imageElement(context, data.ref, alt, data);
  if (!light) return [];
  // As in a figure: GitBook's inline <picture> icons have a dark variant, shown in the dark theme.
  const dark = data.refDark ? imageElement(context, data.refDark, alt, data) : undefined;
  return dark ? [withClass(light, 'image-light'), withClass(dark, 'image-dark')] : [light];
}

/**
 * An `<img>` for a reference, sized as the block says or else as the file
 * is, loaded lazily; undefined when the reference leads nowhere it may.
 */
export function imageElement(
  context: RenderContext,
  ref: unknown,
  alt: string,
  size: { width?: unknown; height?: unknown },
): Element | undefined {
  const src = context.imageSource(ref);
  if (!src) return undefined;
  let width = lengthAttribute(size.width);
  let height = lengthAttribute(size.height);
  const file = fileOf(context, ref);
  if (width === undefined && height === undefined && file?.width && file.height) {
    width = file.width;
    height = file.height;
  }
  return h('img', {
    src,
    alt,
    ...(width !== undefined ? { width } : {}),
    ...(height !== undefined ? { height } : {}),
    loading: 'lazy',
    decoding: 'async',
  });
}

function fileOf(context: RenderContext, ref: unknown) {
  const value = ref as { kind?: string; file?: unknown } | undefined;
  return value?.kind === 'file' && typeof value.file === 'string'
    ? ownEntry(context.input.files, value.file)
    : undefined;
}
