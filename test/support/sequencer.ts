import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that take far longer than their size says, longest first: they
 * start processes (servers, an embedded PostgreSQL, a browser), walk random
 * sequences or whole matrices: those of 7 s or more in a run of the whole
 * suite on two cores (2026-12-02). A file missing here only starts later.
 */
const SLOW_FILES = [
  'test/app-reader-browser.test.ts',
  'test/git-remote.test.ts',
  'test/embedded-server.test.ts',
  'test/instances.test.ts',
  'test/properties.test.ts',
  'test/http-cache.test.ts',
  'test/server.test.ts',
  'test/git-sync-merge.test.ts',
  'test/sites-structure.test.ts',
  'test/site-reader-browser.test.ts',
  'test/processes.test.ts',
  'test/faults-crash.test.ts',
  'test/faults.test.ts',
  'test/git-sync-operations.test.ts',
  'test/openapi-lint.test.ts',
  'test/sites-access.test.ts',
  'test/document-colour-marks-browser.test.ts',
  'test/cli.test.ts',
  'test/git-sync-transport.test.ts',
  'test/keys-at-rest.test.ts',
  'test/tenant-matrix.test.ts',
  'test/import-runs.test.ts',
  'test/git-sync-redirects.test.ts',
  'test/git-sync-installations-sync.test.ts',
  'test/integration-events.test.ts',
  'test/browser-harness.test.ts',
  'test/readme.test.ts',
  'test/db-types.test.ts',
  'test/specs-worker.test.ts',
  'test/site-reader-blocks-browser.test.ts',
  'test/git-sync-format-space.test.ts',
  'test/work-pool.test.ts',
  'test/comment-counters.test.ts',
  'test/accounts.test.ts',
  'test/import.test.ts',
];

const rank = new Map(SLOW_FILES.map((file, index) => [file, index]));

/**
 * With no results of an earlier run (a clean clone, where CI runs), Vitest
 * starts the largest files first; a slow small file then starts last, and one
 * worker runs it alone while the other has nothing left. The files known to
 * be slow go first instead, and the rest by Vitest's own order after them.
 */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rankOf = (spec: TestSpecification) =>
      rank.get(spec.moduleId.slice(spec.project.config.root.length + 1)) ?? SLOW_FILES.length;
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return sorted.sort((a, b) => rankOf(a) - rankOf(b));
  }
}
