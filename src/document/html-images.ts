import type { Element } from 'hast';
import { attribute, elementsOnly, isElement, paragraphsOf, type HtmlContext } from './html-content.js';
import { isEmptyInlineContent } from './build.js';
import { imageRefFromUrl } from './links.js';
import type { DocumentBlockImage, DocumentBlockImages, DocumentLength, ImageRef } from './types.js';

/**
 * Images as GitBook writes them in HTML: `<figure><img src alt width>
 * <figcaption><p>…</p></figcaption></figure>`, a `<picture>` whose
 * `<source media="(prefers-color-scheme: dark)">` is the dark variant, or a
 * bare `<img>`; several, or one framed or aligned, inside a `<div>` (or a
 * `<p align>`) whose attributes are the image block's.
 */

const MEDIA = ['img', 'picture'];
const IMAGE_ELEMENTS = ['figure', ...MEDIA];

export function isImageElement(element: Element): boolean {
  return IMAGE_ELEMENTS.includes(element.tagName);
}

const DARK_MEDIA = 'prefers-color-scheme: dark';

/** `375` and `375px` are pixels; `50%` is a length in a unit; anything else is not read. */
export function lengthOf(value: string | undefined): DocumentLength | undefined {
  const match = value === undefined ? null : /^(\d+(?:\.\d+)?|\.\d+)(px|%|em|rem|vw)?$/i.exec(value.trim());
  if (!match) return undefined;
  const number = Number(match[1]);
  const unit = match[2]?.toLowerCase();
  return unit === undefined || unit === 'px' ? number : { unit, value: number };
}

/** The `<img>` of a `<picture>` and its dark variant, or null when it has none or holds anything else. */
function pictureParts(picture: Element): { img: Element; refDark: ImageRef | null } | null {
  const parts = elementsOnly(picture.children);
  const img = parts?.find((part) => isElement(part, 'img'));
  if (!parts || !img || parts.some((part) => !isElement(part, 'img', 'source'))) return null;
  const dark = parts.find((part) => isElement(part, 'source') && (attribute(part, 'media') ?? '').includes(DARK_MEDIA));
  const srcset = dark ? attribute(dark, 'srcSet')?.trim() : undefined;
  return { img, refDark: srcset ? imageRefFromUrl(srcset) : null };
}

/** A `<figure>`'s picture or image and its caption; null unless it holds exactly those. */
function figureParts(figure: Element): { media: Element; caption: Element | null } | null {
  const parts = elementsOnly(figure.children);
  if (!parts) return null;
  const media = parts.filter((part) => isElement(part, ...MEDIA));
  const captions = parts.filter((part) => isElement(part, 'figcaption'));
  if (media.length !== 1 || captions.length > 1 || media.length + captions.length !== parts.length) return null;
  return { media: media[0]!, caption: captions[0] ?? null };
}

/** The image a `<figure>`, `<picture>` or `<img>` shows, or null when it shows none (a figure without an image). */
export function imageOf(element: Element, context: HtmlContext): DocumentBlockImage | null {
  const figure = element.tagName === 'figure' ? figureParts(element) : { media: element, caption: null };
  if (!figure) return null;
  const picture =
    figure.media.tagName === 'picture' ? pictureParts(figure.media) : { img: figure.media, refDark: null };
  const src = picture ? attribute(picture.img, 'src') : undefined;
  if (!picture || !src) return null;
  const alt = attribute(picture.img, 'alt');
  const width = lengthOf(attribute(picture.img, 'width'));
  const height = lengthOf(attribute(picture.img, 'height'));
  const caption = figure.caption
    ? paragraphsOf(figure.caption.children, context).filter((p) => !isEmptyInlineContent(p.nodes))
    : [];
  return {
    object: 'block',
    type: 'image',
    data: {
      ref: imageRefFromUrl(src),
      ...(picture.refDark ? { refDark: picture.refDark } : {}),
      ...(alt ? { alt } : {}),
      ...(width !== undefined ? { width } : {}),
      ...(height !== undefined ? { height } : {}),
    },
    fragments: caption.length > 0 ? [{ object: 'fragment', fragment: 'caption', nodes: caption }] : [],
    isVoid: true,
  };
}

const ALIGNMENTS = new Set(['left', 'center', 'right']);

/** The image block's settings from the attributes of the element around its images. */
function imagesData(container: Element | null): DocumentBlockImages['data'] {
  if (!container) return {};
  const align = attribute(container, 'align')?.toLowerCase();
  const frame = attribute(container, 'dataWithFrame');
  const fullWidth = attribute(container, 'dataFullWidth');
  return {
    ...(align && ALIGNMENTS.has(align) ? { align: align as 'left' | 'center' | 'right' } : {}),
    ...(fullWidth === 'true' || fullWidth === 'false' ? { fullWidth: fullWidth === 'true' } : {}),
    ...(frame === 'true' || frame === '' ? { withFrame: true } : {}),
  };
}

/** An image block of `elements`, each an image; null when one of them shows none. */
export function imagesBlock(
  elements: Element[],
  container: Element | null,
  context: HtmlContext,
): DocumentBlockImages | null {
  const images: DocumentBlockImage[] = [];
  for (const element of elements) {
    const image = imageOf(element, context);
    if (!image) return null;
    images.push(image);
  }
  if (images.length === 0) return null;
  return { object: 'block', type: 'images', data: imagesData(container), nodes: images, isVoid: false };
}

/** A `<div>` or `<p>` holding nothing but images, as their image block; null for anything else. */
export function imagesInContainer(container: Element, context: HtmlContext): DocumentBlockImages | null {
  const elements = elementsOnly(container.children);
  if (!elements || elements.length === 0 || !elements.every(isImageElement)) return null;
  return imagesBlock(elements, container, context);
}
