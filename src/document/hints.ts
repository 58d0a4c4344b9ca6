import type { Blockquote, BlockContent, DefinitionContent, Paragraph } from 'mdast';
import { tagLine } from './tag-attributes.js';
import type { HintStyle } from './types.js';

/**
 * Hints in markdown. GitBook writes them as `{% hint style="info" %}` …
 * `{% endhint %}` lines (read with the other block tags, block-tags.ts);
 * GitHub writes them as `> [!NOTE]` quotes.
 */

export const HINT_STYLES: readonly HintStyle[] = ['info', 'warning', 'danger', 'success'];

/** `{% hint style="…" %}`, with `icon="…"` when the hint names one. */
export function openHintTag(style: HintStyle, icon?: string): string {
  return tagLine('hint', [
    ['style', style],
    ['icon', icon],
  ]);
}
export const CLOSE_HINT_TAG = '{% endhint %}';

/** The style a hint tag's `style="…"` names, or null for none of them. */
export function hintStyleOf(style: string | null): HintStyle | null {
  return HINT_STYLES.find((s) => s === style) ?? null;
}

type FlowContent = BlockContent | DefinitionContent;

const ALERT_STYLES: Record<string, HintStyle> = {
  NOTE: 'info',
  TIP: 'success',
  IMPORTANT: 'info',
  WARNING: 'warning',
  CAUTION: 'danger',
};

/**
 * A GitHub alert (`> [!NOTE]` alone on the quote's first line) as a hint
 * style and the quote's content without the marker; null for other quotes.
 */
export function githubAlert(quote: Blockquote): { style: HintStyle; children: FlowContent[] } | null {
  const [first, ...rest] = quote.children;
  const text = first?.type === 'paragraph' ? first.children[0] : undefined;
  if (first?.type !== 'paragraph' || text?.type !== 'text' || !text.value.startsWith('[!')) return null;
  const end = text.value.indexOf(']');
  const style = end === -1 ? undefined : ALERT_STYLES[text.value.slice(2, end).toUpperCase()];
  if (!style) return null;
  const lines = text.value.slice(end + 1).split(/\r\n|\r|\n/);
  if (lines[0]!.trim() !== '') return null;
  const after = first.children.slice(1);
  if (lines.length > 1) {
    const paragraph: Paragraph = {
      type: 'paragraph',
      children: [{ type: 'text', value: lines.slice(1).join('\n') }, ...after],
    };
    return { style, children: [paragraph, ...rest] };
  }
  // `[!NOTE]` ending in two spaces is followed by a hard break rather than a soft one.
  if (after.length > 0 && after[0]!.type !== 'break') return null;
  const remaining = after.slice(1);
  return { style, children: remaining.length > 0 ? [{ type: 'paragraph', children: remaining }, ...rest] : rest };
}
