import type { StoredChange, StoredFile } from './semantic.js';

/** The spec's RevisionSemanticChange for a stored one: a file's `downloadURL` signed now, for the reader. */
export function presentChange(change: StoredChange, downloadUrl: (file: StoredFile) => string): object {
  if (!('file' in change)) return change;
  const { versionId: _version, ...file } = change.file;
  return { ...change, file: { ...file, downloadURL: downloadUrl(change.file) } };
}

/** The spec's RevisionSemanticChanges: the first `limit` changes, and how many were left out. */
export function presentSemanticChanges(
  changes: readonly StoredChange[],
  limit: number,
  downloadUrl: (file: StoredFile) => string,
  mergedFrom: object | undefined,
) {
  const more = Math.max(0, changes.length - limit);
  return {
    ...(mergedFrom ? { mergedFrom } : {}),
    changes: changes.slice(0, limit).map((change) => presentChange(change, downloadUrl)),
    ...(more > 0 ? { more } : {}),
  };
}

/**
 * A page's block diff between two revisions, as JSON text around the stored
 * one (never parsed on the event loop); a page whose document the pair did
 * not change has no blocks changed.
 */
export function presentPageDiff(pageId: string, pair: { from: string | null; to: string }, stored: string | undefined) {
  const head = JSON.stringify({ object: 'page-diff', page: pageId, from: pair.from, to: pair.to });
  const diff = stored ?? '{"blocks":[]}';
  // Both are JSON objects: the stored diff's fields follow the head's.
  return `${head.slice(0, -1)},${diff.slice(1)}`;
}
