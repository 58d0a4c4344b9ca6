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

/** A fresh, migrated database of its own, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `${inject('databasePrefix')}_${randomBytes(5).toString('hex')}`;
  // Names are generated here from hex digits only, never from input.
  await admin(async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await client.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
      } catch (error) {
        // Two files cloning the template at the same instant can collide; the second waits and retries.
        if (attempt >= 10 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  });
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
