/** What a finished operation records besides its state. */
export interface RunOutcome {
  /** The commit the space now matches: the one imported, or the one pushed. */
  commitSha: string | null;
  /** The change request an import opened. */
  changeRequestId: string | null;
}

/** `main` for `refs/heads/main`. */
export const branchName = (ref: string) => ref.replace(/^refs\/heads\//, '');

export const shortCommit = (commit: string) => commit.slice(0, 7);
