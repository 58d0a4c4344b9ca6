import { booleanAttribute, tagLine, type TagAttributes } from './tag-attributes.js';
import type { DocumentBlockEmbed } from './types.js';

/**
 * Embeds: `{% embed url="…" %}`, with `fullWidth="true"` when set. GitBook
 * may follow the tag with a caption and `{% endembed %}`; the spec's embed
 * has no caption, so it is read and not kept.
 */

export interface EmbedOptions {
  url: string;
  fullWidth?: boolean;
}

/** What an `{% embed %}` tag says, or null without a URL or with a value it cannot take. */
export function readEmbedTag(attributes: TagAttributes): EmbedOptions | null {
  const url = attributes.get('url');
  const fullWidth = booleanAttribute(attributes, 'fullWidth');
  if (!url || fullWidth === null) return null;
  return fullWidth === undefined ? { url } : { url, fullWidth };
}

export function embedBlock(options: EmbedOptions): DocumentBlockEmbed {
  return { object: 'block', type: 'embed', data: { ...options }, isVoid: true };
}

export function embedTag(data: Record<string, unknown>): string | null {
  if (typeof data.url !== 'string' || data.url === '') return null;
  const fullWidth = typeof data.fullWidth === 'boolean' ? String(data.fullWidth) : undefined;
  return tagLine('embed', [
    ['url', data.url],
    ['fullWidth', fullWidth],
  ]);
}
