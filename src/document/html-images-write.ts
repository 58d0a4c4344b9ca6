import type { Element, ElementContent, Properties } from 'hast';
import { h } from 'hastscript';
import type { Html, PhrasingContent } from 'mdast';
import { htmlOf, inlineHast } from './html-write.js';
import { urlFromRef } from './links.js';
import { asObject, childObjects, field, optionalString, type At, type JsonObject } from './read-json.js';

/**
 * An image block written back. Images markdown can say (a URL and alt text)
 * are `![alt](url)`, side by side in one paragraph; any with a caption, a
 * size or a dark variant, or a block framed, aligned or full width, is
 * written as GitBook writes it: `<figure><img><figcaption><p>…</p>
 * </figcaption></figure>`, inside a `<div>` holding the block's settings
 * when it has any or several images.
 */

interface Image {
  url: string;
  alt: string;
  data: JsonObject;
  dataAt: At;
  caption: Array<[JsonObject, At]>;
}

function readImage(image: JsonObject, at: At): Image | null {
  const dataAt = field(at, 'data');
  const data = asObject(image.data, dataAt);
  const url = urlFromRef(asObject(data.ref, field(dataAt, 'ref')));
  if (url === null) return null;
  const alt = optionalString(data.alt, field(dataAt, 'alt')) ?? '';
  const fragment = childObjects(image, at, 'fragments', false).find(([f]) => f.fragment === 'caption');
  const caption = fragment
    ? childObjects(...fragment, 'nodes').filter(([p, pAt]) => inlineHast(p, pAt).length > 0)
    : [];
  return { url, alt, data, dataAt, caption };
}

const lengthAttribute = (value: unknown): string | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'object' || value === null) return undefined;
  const { unit, value: amount } = value as JsonObject;
  return typeof unit === 'string' && typeof amount === 'number' && /^[a-z%]+$/i.test(unit)
    ? `${amount}${unit}`
    : undefined;
};

function darkUrl(image: Image): string | null {
  return image.data.refDark === undefined
    ? null
    : urlFromRef(asObject(image.data.refDark, field(image.dataAt, 'refDark')));
}

function needsHtml(image: Image): boolean {
  return (
    image.caption.length > 0 ||
    darkUrl(image) !== null ||
    lengthAttribute(image.data.width) !== undefined ||
    lengthAttribute(image.data.height) !== undefined
  );
}

function figure(image: Image): Element {
  const properties: Properties = { src: image.url, alt: image.alt };
  const width = lengthAttribute(image.data.width);
  const height = lengthAttribute(image.data.height);
  if (width !== undefined) properties.width = width;
  if (height !== undefined) properties.height = height;
  const img = h('img', properties);
  const dark = darkUrl(image);
  const media =
    dark === null ? img : h('picture', [h('source', { srcSet: dark, media: '(prefers-color-scheme: dark)' }), img]);
  const caption: ElementContent[] = image.caption.map(([p, pAt]) => h('p', inlineHast(p, pAt)));
  return h('figure', [media, h('figcaption', caption)]);
}

/** The `<div>` attributes of a block's settings, in the order GitBook writes them. */
function blockProperties(data: JsonObject): Properties {
  const properties: Properties = {};
  if (data.align === 'left' || data.align === 'center' || data.align === 'right') properties.align = data.align;
  if (typeof data.fullWidth === 'boolean') properties.dataFullWidth = String(data.fullWidth);
  if (data.withFrame === true) properties.dataWithFrame = 'true';
  return properties;
}

/** The block's images, as a paragraph of markdown images or as one HTML block; nothing when none has a URL. */
export function imagesMarkdown(
  block: JsonObject,
  nodes: Array<[JsonObject, At]>,
  at: At,
): Array<Html | { type: 'paragraph'; children: PhrasingContent[] }> {
  const images = nodes.flatMap(([image, imageAt]) => readImage(image, imageAt) ?? []);
  if (images.length === 0) return [];
  const settings = blockProperties(block.data === undefined ? {} : asObject(block.data, field(at, 'data')));
  const hasSettings = Object.keys(settings).length > 0;
  if (hasSettings || images.some(needsHtml)) {
    const figures = images.map(figure);
    const html = figures.length === 1 && !hasSettings ? htmlOf(figures[0]!) : htmlOf(h('div', settings, figures));
    return [{ type: 'html', value: html }];
  }
  const children = images.flatMap((image, index): PhrasingContent[] => [
    ...(index === 0 ? [] : [{ type: 'text' as const, value: ' ' }]),
    { type: 'image', url: image.url, alt: image.alt, title: null },
  ]);
  return [{ type: 'paragraph', children }];
}
