import type { PhrasingContent } from 'mdast';
import { escapeHtml } from './html-tag.js';
import { urlFromRef } from './links.js';
import { asObject, asString, fail, field, optionalString, type At, type JsonObject } from './read-json.js';

/**
 * Buttons and images markdown has no syntax for, written as GitBook writes
 * them inside a paragraph, in the forms inline-html.ts reads back.
 */

const attribute = (name: string, value: string) => ` ${name}="${escapeHtml(value)}"`;

const KINDS = new Set(['primary', 'secondary']);
const ACTIONS = new Set(['search', 'ask', 'select']);

/** `<a href class="button …">` for a button to content, `<button type="button" data-action>` for one that acts. */
export function buttonPhrasing(node: JsonObject, at: At): PhrasingContent[] {
  const dataAt = field(at, 'data');
  const data = asObject(node.data, dataAt);
  const label = asString(data.label, field(dataAt, 'label'));
  const kind = data.kind === undefined ? 'primary' : asString(data.kind, field(dataAt, 'kind'));
  if (!KINDS.has(kind)) fail(field(dataAt, 'kind'), 'must be one of: primary, secondary');
  const icon = optionalString(data.icon, field(dataAt, 'icon'));
  const classes = attribute('class', `button ${kind}`);
  const iconAttribute = icon ? attribute('data-icon', icon) : '';
  if (data.action !== undefined) {
    const actionAt = field(dataAt, 'action');
    const action = asObject(data.action, actionAt);
    const name = asString(action.action, field(actionAt, 'action'));
    if (!ACTIONS.has(name)) fail(field(actionAt, 'action'), 'must be one of: search, ask, select');
    const query = optionalString(action.query, field(actionAt, 'query'));
    const slug = optionalString(action.slug, field(actionAt, 'slug'));
    const opening =
      `<button type="button"${classes}${attribute('data-action', name)}` +
      (query ? attribute('data-query', query) : '') +
      (slug ? attribute('data-slug', slug) : '') +
      iconAttribute;
    return [{ type: 'html', value: `${opening}>${escapeHtml(label)}</button>` }];
  }
  const url = data.ref === undefined ? '' : urlFromRef(asObject(data.ref, field(dataAt, 'ref')));
  // A reference markdown cannot name (another space's page) keeps the label as text.
  if (url === null) return [{ type: 'text', value: label }];
  const href = url === '' ? '' : attribute('href', url);
  return [{ type: 'html', value: `<a${href}${classes}${iconAttribute}>${escapeHtml(label)}</a>` }];
}

/** An icon as GitBook writes it, `<i class="fa-github">:github:</i>`; one whose name would break the tag is left out. */
export function iconPhrasing(node: JsonObject, at: At): PhrasingContent[] {
  const dataAt = field(at, 'data');
  const icon = asString(asObject(node.data, dataAt).icon, field(dataAt, 'icon'));
  if (!/^[a-z0-9-]{1,50}$/.test(icon)) return [];
  return [{ type: 'html', value: `<i class="fa-${icon}">:${icon}:</i>` }];
}

/**
 * An inline image with a dark variant as `<picture>`, or one sized to the
 * line as `<img data-size="line">`; null for an image markdown's `![]()` says all of.
 */
export function inlineImageHtml(url: string, alt: string, data: JsonObject, dataAt: At): string | null {
  const size = optionalString(data.size, field(dataAt, 'size'));
  const darkUrl = data.refDark === undefined ? null : urlFromRef(asObject(data.refDark, field(dataAt, 'refDark')));
  if (darkUrl === null && size !== 'line') return null;
  const image = `<img${attribute('src', url)}${attribute('alt', alt)}${size === 'line' ? ' data-size="line"' : ''}>`;
  if (darkUrl === null) return image;
  const source = `<source${attribute('srcset', darkUrl)} media="(prefers-color-scheme: dark)">`;
  return `<picture>${source}${image}</picture>`;
}
