import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that take far longer than their size says, longest first: they
 * start processes (servers, an embedded PostgreSQL, a browser), walk random
 * sequences or whole matrices: those of 9 s or more in .ci/run's
 * .vitest-results.json on a slow machine. A file missing here only starts later.
 */
const SLOW_FILES = [
  'test/properties.test.ts',
  'test/http-cache.test.ts',
  'test/embedded-server.test.ts',
  'test/server.test.ts',
  'test/sites-structure.test.ts',
  'test/instances.test.ts',
  'test/openapi-lint.test.ts',
  'test/git-remote.test.ts',
  'test/tenant-matrix.test.ts',
  'test/sites-access.test.ts',
  'test/import-runs.test.ts',
  'test/git-sync-merge.test.ts',
  'test/specs-worker.test.ts',
  'test/keys-at-rest.test.ts',
  'test/faults.test.ts',
  'test/site-reader-browser.test.ts',
  'test/faults-crash.test.ts',
  'test/cli.test.ts',
  'test/document-blocks.test.ts',
  'test/db-types.test.ts',
  'test/content-cache-budget.test.ts',
  'test/git-sync-transport.test.ts',
  'test/work-pool.test.ts',
  'test/integration-events.test.ts',
  'test/document-colour-marks.test.ts',
  'test/readme.test.ts',
  'test/regex.test.ts',
  'test/import.test.ts',
  'test/git-sync-format-space.test.ts',
  'test/git-sync-redirects.test.ts',
  'test/document-html-blocks.test.ts',
  'test/git-sync-installations-sync.test.ts',
  'test/git-sync-operations.test.ts',
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
