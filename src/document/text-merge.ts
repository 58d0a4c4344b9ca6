import { diff3Merge } from 'node-diff3';

/** The lines a merge keeps both versions between, as Git writes them. */
export const MERGE_MARKS = { start: '<<<<<<< yours', middle: '=======', end: '>>>>>>> theirs' } as const;

/** Three versions of a page's markdown: the one a writer started from, theirs since, and the writer's own. */
export interface TextMergeInput {
  original: string;
  theirs: string;
  mine: string;
}

/** The versions merged line by line: where both changed the same lines, both are kept between marks. */
export interface TextMerge {
  text: string;
  /** How many places both changed, each kept between `<<<<<<< yours`, `=======` and `>>>>>>> theirs`. */
  clashes: number;
}

/**
 * Merges a writer's markdown with another writer's saved since, from the
 * version both started from (diff3, as Git merges files): what only one
 * changed is taken, and where both changed the same lines, both versions
 * are kept one after the other between Git's conflict marks, for the writer
 * to choose.
 */
export function mergeTexts({ original, theirs, mine }: TextMergeInput): TextMerge {
  const lines: string[] = [];
  let clashes = 0;
  for (const block of diff3Merge(mine, original, theirs, { stringSeparator: /\r?\n/, excludeFalseConflicts: true })) {
    if (block.conflict) {
      clashes += 1;
      lines.push(MERGE_MARKS.start, ...block.conflict.a, MERGE_MARKS.middle, ...block.conflict.b, MERGE_MARKS.end);
    } else if (block.ok) {
      lines.push(...block.ok);
    }
  }
  return { text: lines.join('\n'), clashes };
}
