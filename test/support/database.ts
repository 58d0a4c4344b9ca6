import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

/** The database the next caller in this worker gets, cloned while the current file's tests run. */
let spare: Promise<TestDatabase> | undefined;

/**
 * A fresh, migrated database of its own, cloned from the run's template. The
 * clone takes a third of a second, which a file would otherwise wait for
 * before its first test: the worker clones the next one in the background
 * (the run's teardown drops the one left over).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const next = spare ?? cloneTemplate();
  // One clone at a time: two of the same template at once collide (see cloneTemplate).
  spare = next.then(cloneTemplate, cloneTemplate);
  // Awaited by the next caller; a failure meanwhile must not go unhandled, and that caller sees it.
  spare.catch(() => undefined);
  return next;
}

async function cloneTemplate(): Promise<TestDatabase> {
  const name = `${inject('databasePrefix')}_${randomBytes(5).toString('hex')}`;
  // Names are generated here from hex digits only, never from input.
  await admin(async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
        break;
      } catch (error) {
        // Two files cloning the template at the same instant can collide; the second waits and retries.
        if (attempt >= 10 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    // A commit need not wait for its WAL to reach the disk: the data is thrown away, what a commit
    // shows other sessions is the same, and on a server with fsync on (the machine's PostgreSQL, named
    // by TEST_DATABASE_URL) that wait was 9 to 13 ms a commit on the loaded CI machine.
    await client.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
