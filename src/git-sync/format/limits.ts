/** The repository's size bounds: reading any more is refused whole, with one problem naming the bound. */
export const REPOSITORY_LIMITS = Object.freeze({
  /** Files under the content root. */
  files: 20_000,
  /** Their bytes together. */
  bytes: 512 * 1024 * 1024,
  /** Levels of nesting in SUMMARY.md (a top-level page is at level 1). */
  summaryDepth: 12,
  /** Items of SUMMARY.md's list. */
  summaryEntries: 10_000,
});
