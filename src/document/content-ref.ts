import type { Paragraph, RootContent } from 'mdast';
import { refFromUrl } from './links.js';
import { formatDestination } from './rewrite-urls.js';
import { closingTag, tagLine, type TagAttributes } from './tag-attributes.js';
import type { DocumentBlockContentRef } from './types.js';

/**
 * Content references (cards linking to a page): `{% content-ref url="x.md" %}`,
 * a link to the same target on the next line (`[x.md](x.md)`), then
 * `{% endcontent-ref %}`. The link is what page paths are resolved in, as any
 * link is, so its URL is the target; the tag's own URL serves without it.
 */

export function readContentRefTag(attributes: TagAttributes): { url: string } | null {
  const url = attributes.get('url');
  return url ? { url } : null;
}

/** The URL of a body that is one link and nothing else, or null. */
export function linkUrlOf(body: RootContent | null): string | null {
  if (body?.type !== 'paragraph') return null;
  const [link, ...others] = body.children.filter((child) => child.type !== 'text' || child.value.trim() !== '');
  return link?.type === 'link' && others.length === 0 ? link.url : null;
}

export function contentRefBlock(url: string): DocumentBlockContentRef {
  return { object: 'block', type: 'content-ref', data: { ref: refFromUrl(url) }, isVoid: true };
}

/**
 * A line linking to `url` and labelled with it, as GitBook writes it:
 * `[url](url)` even for a URL markdown would write as `<url>`.
 */
export function linkLine(url: string): Paragraph {
  const label = url.replace(/[\\[\]]/g, '\\$&').replace(/[\n\r]+/g, ' ');
  return { type: 'paragraph', children: [{ type: 'html', value: `[${label}](${formatDestination(url)})` }] };
}

/** The tag, the link line and the closing tag of a content reference to `url`. */
export function contentRefLines(url: string): { open: string; link: Paragraph; close: string } {
  return { open: tagLine('content-ref', [['url', url]]), link: linkLine(url), close: closingTag('content-ref') };
}
