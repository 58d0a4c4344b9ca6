import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest } from '../../src/db/migrate.js';
import { startThrowawayPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection URL of the server's maintenance database, for CREATE/DROP DATABASE. */
    adminDatabaseUrl: string;
    /** The migrated database each test file clones. */
    templateDatabase: string;
    /** Prefix of every database this run creates, so teardown can find them. */
    databasePrefix: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));
// TypeScript's native compiler, as `npm run build` runs it (its package exports no bin/ path).
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')),
  'bin/tsc',
);

/**
 * dist/, as `npm start`'s prestart builds it, for the servers the suite starts
 * as processes (test/support/server-process.ts): they start on half the CPU
 * they took from source through tsx. Only what changed since the last build is
 * built again; CI's checks have built it all by then.
 */
async function buildService(): Promise<void> {
  await promisify(execFile)(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root })
    // The editor's bundle, as `npm run build` makes it after the compiler: the app serves it from dist/.
    .then(() => promisify(execFile)(process.execPath, ['dist/app-reader/markdown-editor-build.js'], { cwd: root }))
    .catch((error: { stdout?: string; message: string }) => {
      throw new Error(`The service does not build (npm run build):\n${error.stdout || error.message}`);
    });
}

/**
 * Builds the service, starts one PostgreSQL for the run and migrates a
 * template database once; every test file then gets a fresh copy of it
 * (CREATE DATABASE … TEMPLATE).
 */
export default async function setup(project: TestProject) {
  const built = buildService();
  // Awaited below; a failure before then must not go unhandled meanwhile.
  built.catch(() => {});
  const server = await startThrowawayPostgres();
  const prefix = `quire_t${randomBytes(4).toString('hex')}`;
  const template = `${prefix}_template`;
  const adminUrl = server.url('postgres');

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  // The migrations' commits need not wait for the disk either (see createTestDatabase).
  await admin.query(`ALTER DATABASE ${template} SET synchronous_commit = off`);
  await migrateToLatest({ databaseUrl: server.url(template) });
  await admin.end();
  await built.catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);
  project.provide('databasePrefix', prefix);
  process.stdout.write(`Test databases: ${server.source} (${prefix}_*)\n`);

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${prefix}\\_%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.end();
    await server.stop();
  };
}
