import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
