import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Test files that take far longer than their size says, longest first: they
 * start processes (servers, an embedded PostgreSQL, a browser), walk random
 * sequences or whole matrices. Measured on the CI machine (per-file durations
 * in .ci/run's .vitest-results.json); a file missing here only starts later.
 */
const SLOW_FILES = [
  'test/document-blocks.test.ts',
  'test/git-remote.test.ts',
  'test/http-cache.test.ts',
  'test/sites-structure.test.ts',
  'test/instances.test.ts',
  'test/sites-access.test.ts',
  'test/tenant-matrix.test.ts',
  'test/git-sync-merge.test.ts',
  'test/embedded-server.test.ts',
  'test/faults-crash.test.ts',
  'test/document-gitbook-tags-roundtrip.test.ts',
  'test/resource-bounds.test.ts',
  'test/document-colour-marks.test.ts',
  'test/properties.test.ts',
  'test/comment-counters.test.ts',
  'test/integration-events.test.ts',
  'test/site-drafts.test.ts',
  'test/import-runs.test.ts',
  'test/server.test.ts',
  'test/readme.test.ts',
  'test/cli.test.ts',
  'test/migrations.test.ts',
  'test/db-types.test.ts',
  'test/site-reader.test.ts',
  'test/duplicate-content.test.ts',
  'test/semantic-changes.test.ts',
  'test/faults.test.ts',
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
