import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Each file gets its own database, so files run in parallel safely.
    pool: 'forks',
    // A file spends most of its time loading modules and waiting on PostgreSQL,
    // so one worker per core, and at least two, keeps the machine busy: on two
    // cores the suite takes about half the time of Vitest's default (one worker).
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker runs its files one after another in one module graph instead of
    // loading the app anew for each: loading took about 4 s per file, more than
    // most files' tests. Files share no state but what modules keep, which is
    // caches of compiled queries and serialisers; each file still has its own
    // database, app and pool. On two cores the suite went from 10 to 6 minutes.
    isolate: false,
    // Slow files first, so that neither worker is left alone with one at the end (test/support/sequencer.ts).
    sequence: { sequencer: SlowFilesFirst },
    // Hang guards, not speed bounds: a test's speed is the bench's business, and
    // the same test takes three times as long on a slow or loaded machine as on
    // a fast one (a 17 s test alone took 34 s beside the suite on one).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
