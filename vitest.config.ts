import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Each file gets its own database, so files run in parallel safely.
    pool: 'forks',
    // A file spends much of its time loading modules, waiting on PostgreSQL
    // and on the server processes some tests start, so one worker more than
    // there are cores, and at least three, keeps the machine busy.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
