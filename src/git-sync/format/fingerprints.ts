import { createHash } from 'node:crypto';

/**
 * What a repository's content was made of, by hash: its table of contents
 * (`.gitbook.yaml` and SUMMARY.md together), each page file, each asset.
 * Kept with a sync, they tell the next one what Git changed since: a page
 * file Git left alone is no change of Git's, even where the format cannot
 * hold all of it (its page tags, its own way of writing a list), and so no
 * conflict with what the space changed meanwhile.
 */
export interface RepositoryFingerprints {
  structure: string;
  /** By page file, from the content root. */
  pages: Record<string, string>;
  /** By asset name. */
  assets: Record<string, string>;
}

export function fingerprintOf(...parts: ReadonlyArray<Uint8Array | string | undefined>): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    // A separator that no part holds alone, so that ('ab', '') and ('a', 'b') differ.
    hash.update(part === undefined ? '\u0000-' : `\u0000${Buffer.byteLength(part)}:`);
    if (part !== undefined) hash.update(part);
  }
  return hash.digest('base64url').slice(0, 27);
}

/** What Git left as it was between two syncs' fingerprints. */
export interface UnchangedSince {
  structure: boolean;
  pages: ReadonlySet<string>;
  assets: ReadonlySet<string>;
}

export function unchangedSince(previous: RepositoryFingerprints, now: RepositoryFingerprints): UnchangedSince {
  const same = (was: Record<string, string>, is: Record<string, string>) =>
    new Set(Object.keys(is).filter((key) => Object.hasOwn(was, key) && was[key] === is[key]));
  return {
    structure: previous.structure === now.structure,
    pages: same(previous.pages, now.pages),
    assets: same(previous.assets, now.assets),
  };
}
