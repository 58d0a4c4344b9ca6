import type { Html, Link, PhrasingContent } from 'mdast';
import { hasClass, readHtmlTag, type HtmlTag } from './html-tag.js';
import { imageRefFromUrl, refFromUrl } from './links.js';
import { plainText } from './markdown-tree.js';
import type {
  ButtonKind,
  DocumentAction,
  DocumentInlineButton,
  DocumentInlineIcon,
  DocumentInlineImage,
  ImageRef,
} from './types.js';

/** What GitBook writes as inline HTML and this reads back. */
export type HtmlInline = DocumentInlineImage | DocumentInlineButton | DocumentInlineIcon;

declare module 'mdast' {
  interface LinkData {
    /** An inline read from HTML, which the link only carries (see `carrying`). */
    htmlInline?: HtmlInline;
    /** An inline HTML tag, which the link only carries (see `carryingTag`). */
    htmlTag?: string;
  }
}

/**
 * GitBook writes some inlines as HTML inside a paragraph: images as
 * `<img src alt data-size="line">`, images with a dark variant as
 * `<picture><source srcset media="(prefers-color-scheme: dark)"><img></picture>`,
 * and buttons as `<a href class="button primary">Label</a>` or, for a button
 * that opens search or the assistant, `<button type="button" class="button
 * primary" data-action="ask" data-query="…">Label</button>`, and icons as
 * `<i class="fa-github">:github:</i>`. The parser hands
 * each tag over as an HTML node of its own; these are read back here into
 * the document's inlines. Other tags are left to be dropped.
 */

const DARK_MEDIA = 'prefers-color-scheme: dark';

/** Whether a `<source>` names the image shown in dark mode. */
export function darkSource(tag: HtmlTag): ImageRef | null {
  const srcset = tag.attributes.get('srcset')?.trim();
  return srcset && tag.attributes.get('media')?.includes(DARK_MEDIA) ? imageRefFromUrl(srcset) : null;
}

export function inlineImageOfTag(tag: HtmlTag, refDark: ImageRef | null): DocumentInlineImage | null {
  const src = tag.attributes.get('src');
  if (!src) return null;
  const alt = tag.attributes.get('alt');
  const size = tag.attributes.get('data-size');
  return {
    object: 'inline',
    type: 'inline-image',
    data: {
      ref: imageRefFromUrl(src),
      ...(refDark ? { refDark } : {}),
      ...(alt ? { alt } : {}),
      ...(size === 'line' || size === 'original' ? { size } : {}),
    },
    isVoid: true,
  };
}

const ACTIONS = new Set(['search', 'ask']);

/** A button's data from its opening tag, or null when the tag is no GitBook button. */
export function buttonData(tag: HtmlTag, label: string): DocumentInlineButton['data'] | null {
  const classes = tag.attributes.get('class');
  if (!hasClass(classes, 'button')) return null;
  const kind: ButtonKind = hasClass(classes, 'secondary') ? 'secondary' : 'primary';
  const icon = tag.attributes.get('data-icon');
  const common = { label, kind, ...(icon ? { icon } : {}) };
  if (tag.name === 'a') {
    // An `<a>` without `href` is GitBook's inactive button: it points nowhere.
    return { ...common, ref: refFromUrl(tag.attributes.get('href') ?? '') };
  }
  const action = tag.attributes.get('data-action') ?? '';
  const query = tag.attributes.get('data-query');
  if (ACTIONS.has(action)) return { ...common, action: { action, ...(query ? { query } : {}) } as DocumentAction };
  const slug = tag.attributes.get('data-slug');
  return action === 'select' && slug ? { ...common, action: { action: 'select', slug } } : null;
}

/** The Font Awesome name of an `<i class="fa-…">`, or null. */
export function iconName(tag: HtmlTag): string | null {
  const name = tag.attributes
    .get('class')
    ?.split(/\s+/)
    .find((c) => c.startsWith('fa-') && c.length > 3);
  return name ? name.slice(3) : null;
}

/**
 * An inline read from HTML outside a paragraph's markdown (a table cell's,
 * a caption's; see html-content.ts), carried through mdast as an empty link:
 * a link is phrasing, so the HTML-to-markdown conversion keeps it in its
 * paragraph, where a raw HTML node would start a block of its own.
 */
export function carrying(inline: HtmlInline): Link {
  return { type: 'link', url: '', title: null, children: [], data: { htmlInline: inline } };
}

/** The inline a link made by `carrying` holds. */
export function carried(node: Link): HtmlInline | undefined {
  return node.data?.htmlInline;
}

/**
 * An inline HTML tag outside a paragraph's markdown (a table cell's
 * `<mark>`), carried through mdast as an empty link for the same reason:
 * the conversion takes an HTML node for a block.
 */
export function carryingTag(html: string): Link {
  return { type: 'link', url: '', title: null, children: [], data: { htmlTag: html } };
}

/** The tag a link made by `carryingTag` holds, as the inline HTML node a paragraph's markdown would have. */
export function carriedTag(node: Link): Html | undefined {
  const tag = node.data?.htmlTag;
  return tag === undefined ? undefined : { type: 'html', value: tag };
}

function tagOf(node: PhrasingContent): HtmlTag | null {
  return node.type === 'html' ? readHtmlTag(node.value) : null;
}

/** Where the tag closing `name` is among `children`, from `from` on, or -1. */
function closeAt(children: PhrasingContent[], from: number, name: string): number {
  for (let at = from; at < children.length; at += 1) {
    const tag = tagOf(children[at]!);
    if (tag?.closing && tag.name === name) return at;
    // A button holds a label, not another button or link; an icon holds its name.
    if (tag && !tag.closing && (tag.name === 'a' || tag.name === 'button' || tag.name === 'i')) return -1;
  }
  return -1;
}

/**
 * Sibling phrasing with GitBook's inline HTML read: image tags as inline
 * images, a button's tags and label as one button. Tags it does not read
 * stay as they are. One pass: a button's close is looked for once, up to the
 * next opening `<a>` or `<button>`.
 */
export function readInlineHtml(children: PhrasingContent[]): Array<PhrasingContent | HtmlInline> {
  if (!children.some((child) => child.type === 'html')) return children;
  const out: Array<PhrasingContent | HtmlInline> = [];
  let refDark: ImageRef | null = null;
  for (let at = 0; at < children.length; at += 1) {
    const child = children[at]!;
    const tag = tagOf(child);
    if (!tag) {
      out.push(child);
      continue;
    }
    if (tag.name === 'picture') refDark = null;
    else if (tag.name === 'source' && !tag.closing) refDark = darkSource(tag) ?? refDark;
    else if (tag.name === 'img' && !tag.closing) {
      const image = inlineImageOfTag(tag, refDark);
      refDark = null;
      out.push(image ?? child);
      continue;
    } else if ((tag.name === 'a' || tag.name === 'button') && !tag.closing) {
      const close = closeAt(children, at + 1, tag.name);
      const label = children.slice(at + 1, close === -1 ? at + 1 : close);
      const data =
        close === -1
          ? null
          : buttonData(
              tag,
              label
                .map((node) => plainText(node))
                .join('')
                .trim(),
            );
      if (data) {
        out.push({ object: 'inline', type: 'button', data, isVoid: true });
        at = close;
        continue;
      }
    } else if (tag.name === 'i' && !tag.closing) {
      const icon = iconName(tag);
      const close = icon === null ? -1 : closeAt(children, at + 1, 'i');
      if (icon !== null && close !== -1) {
        out.push({ object: 'inline', type: 'icon', data: { icon }, isVoid: true });
        at = close;
        continue;
      }
    }
    out.push(child);
  }
  return out;
}
