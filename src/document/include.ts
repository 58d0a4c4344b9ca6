import { escapeTagValue } from './tag-attributes.js';
import type { DocumentBlockReusableContent } from './types.js';

/**
 * Reusable content included in a page: `{% include "…" %}`. The spec names a
 * reusable content by its id, so the service writes `/reusable-contents/<id>`,
 * as it writes `/pages/<id>` for a page. A path of a Git Sync repository
 * (`.gitbook/includes/x.md`) names a file the service does not keep; such a
 * tag stays the text it was written as.
 */

const REUSABLE_CONTENTS = '/reusable-contents/';

/** `{% include "path" %}` (or `'path'`): the path, or null for any other shape. */
export function readIncludeTag(text: string): { path: string } | null {
  const argument = text.trim();
  const quote = argument[0];
  if ((quote !== '"' && quote !== "'") || argument.length < 2 || !argument.endsWith(quote)) return null;
  const path = argument.slice(1, -1);
  return path !== '' && !path.includes(quote) ? { path } : null;
}

/** The id a path names, or null when it names no reusable content of the space. */
export function reusableContentOf(path: string): string | null {
  if (!path.startsWith(REUSABLE_CONTENTS)) return null;
  const id = path.slice(REUSABLE_CONTENTS.length);
  return id !== '' && !/[/?#"'\s]/.test(id) ? id : null;
}

export function reusableContentBlock(id: string): DocumentBlockReusableContent {
  return {
    object: 'block',
    type: 'reusable-content',
    data: { ref: { kind: 'reusable-content', reusableContent: id } },
    isVoid: true,
  };
}

/** The include tag of a reusable content of this space; null for one of another space, which no path names. */
export function includeTag(ref: Record<string, unknown>): string | null {
  if (ref.kind !== 'reusable-content' || ref.space !== undefined) return null;
  const id = typeof ref.reusableContent === 'string' ? ref.reusableContent : '';
  return reusableContentOf(REUSABLE_CONTENTS + id) === null
    ? null
    : `{% include "${escapeTagValue(REUSABLE_CONTENTS + id)}" %}`;
}
