import type { Element, ElementContent } from 'hast';
import type { AnyNode } from './render-types.js';

/** A node's text, its marks and inlines left out. */
export function plainText(node: AnyNode): string {
  if (node.object === 'text') return (node.leaves ?? []).map((leaf) => leaf.text).join('');
  return (node.nodes ?? []).map(plainText).join('');
}

/** A plain paragraph's content without the paragraph, where a caption or a cell holds one line. */
export function unwrapParagraph(element: ElementContent): ElementContent[] {
  const plain = element.type === 'element' && element.tagName === 'p' && !element.properties.className;
  return plain ? element.children : [element];
}

/** A data field that should be a string: undefined when it is anything else, or empty. */
export function stringField(data: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = data?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The named fragment of a node (a caption, an expandable's title ...). */
export function fragmentOf(node: AnyNode, name: string): AnyNode | undefined {
  return node.fragments?.find((fragment) => fragment.fragment === name);
}

/** http(s), mailto and tel addresses, and those relative to the page; anything else (javascript:, data:) is dropped. */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const trimmed = url.trim();
  if (/^(?:https?:|mailto:|tel:)/i.test(trimmed)) return trimmed;
  if (/^[/#?.]/.test(trimmed) && !trimmed.startsWith('//')) return trimmed;
  // A scheme-less word ("docs/intro") is relative too, unless it names a scheme before any slash.
  return /^[^:/?#]+(?:[/?#]|$)/.test(trimmed) ? trimmed : undefined;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A GitBook Length as a pixel count or a percentage, the forms an HTML
 * `width` attribute takes (the reader's pages allow no inline style);
 * undefined for anything else (other units, negative or absurd values).
 */
export function lengthAttribute(length: unknown): number | string | undefined {
  if (typeof length === 'number')
    return Number.isFinite(length) && length > 0 && length <= 10_000 ? Math.round(length) : undefined;
  const value = length as { unit?: unknown; value?: unknown } | null | undefined;
  if (typeof value?.value !== 'number' || !Number.isFinite(value.value) || value.value <= 0) return undefined;
  if (value.unit === '%') return value.value <= 100 ? `${Math.round(value.value)}%` : undefined;
  if (value.unit === 'px') return value.value <= 10_000 ? Math.round(value.value) : undefined;
  return undefined;
}

/** GitBook's text alignment (`start`, `center`, `end`) as the renderer's class, none for the default. */
export function alignClass(align: unknown): string[] {
  if (align === 'center') return ['align-center'];
  if (align === 'end' || align === 'right') return ['align-right'];
  return [];
}

/** A record's own entry: a key a document chose ("constructor", "__proto__") never reaches the prototype. */
export function ownEntry<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The element with one class of its own. */
export function withClass(element: Element, name: string): Element {
  return { ...element, properties: { ...element.properties, className: [name] } };
}

/** A `className` property when there are classes: an empty list would still write `class=""`. */
export function classes(names: string[]): { className?: string[] } {
  return names.length > 0 ? { className: names } : {};
}
