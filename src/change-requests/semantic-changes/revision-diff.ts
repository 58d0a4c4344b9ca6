import { diffBlocks, type BlockChange, type DiffBlock } from './block-diff.js';
import { semanticChanges, type RevisionSide, type StoredChange } from './semantic.js';

/**
 * Characters of JSON (both sides together) past which a page's documents are
 * not diffed block by block: the page is named as changed, its diff as too
 * large. Far above any page written by hand.
 */
export const MAX_PAGE_DIFF_CHARACTERS = 4 * 1024 * 1024;

/** A page's documents compared block by block, or too large to be. */
export type PageDiff = { blocks: BlockChange[] } | { tooLarge: true };

/**
 * What is sent to the worker: both sides, the JSON text of the documents of
 * the pages whose content changed, and the ids of those left out as too large.
 */
export interface RevisionDiffInput {
  before: RevisionSide;
  after: RevisionSide;
  documents: Record<string, string>;
  tooLarge: string[];
}

/** The changes, and each changed page's PageDiff as JSON text: stored and sent as it is, never serialised on the event loop. */
export interface RevisionDiff {
  changes: StoredChange[];
  pages: Array<{ pageId: string; diff: string }>;
}

const blocksOf = (json: string | undefined): DiffBlock[] =>
  json === undefined ? [] : ((JSON.parse(json) as { nodes?: DiffBlock[] }).nodes ?? []);

/** The semantic changes between two revisions, and each changed page's document diff. Pure: runs on a worker. */
export function revisionDiff(input: RevisionDiffInput): RevisionDiff {
  const { changes, documents } = semanticChanges(input.before, input.after);
  const tooLarge = new Set(input.tooLarge);
  const pages = documents.map(({ pageId, before, after }) => {
    const beforeJson = before === null ? undefined : input.documents[before];
    const afterJson = after === null ? undefined : input.documents[after];
    const characters = (beforeJson?.length ?? 0) + (afterJson?.length ?? 0);
    const diff: PageDiff =
      characters > MAX_PAGE_DIFF_CHARACTERS || tooLarge.has(before ?? '') || tooLarge.has(after ?? '')
        ? { tooLarge: true }
        : { blocks: diffBlocks(blocksOf(beforeJson), blocksOf(afterJson)) };
    return { pageId, diff: JSON.stringify(diff) };
  });
  return { changes, pages };
}
