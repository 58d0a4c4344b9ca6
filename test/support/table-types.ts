import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { format, type FormatConfig } from 'oxfmt';
import { migrateToLatest } from '../../src/db/migrate.js';
import { startThrowawayPostgres } from './postgres.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The tables' types, as kysely-codegen writes them with the settings beside them. */
export const TABLE_TYPES_PATH = path.join(ROOT, 'src/db/tables.generated.ts');
const CONFIG_PATH = path.join(ROOT, 'src/db/kysely-codegen.json');
/** The formatter's settings, which `npm run format` applies to the checked-in file. */
const FORMAT_CONFIG_PATH = path.join(ROOT, '.oxfmtrc.json');

/** What kysely-codegen writes for the database at `databaseUrl`, formatted as the checked-in file is. */
export async function generatedTableTypes(databaseUrl: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quire-table-types-'));
  try {
    const out = path.join(dir, 'tables.generated.ts');
    await promisify(execFile)(
      path.join(ROOT, 'node_modules/.bin/kysely-codegen'),
      ['--config-file', CONFIG_PATH, '--url', databaseUrl, '--out-file', out, '--log-level', 'error'],
      { cwd: ROOT },
    );
    const { ignorePatterns: _, ...options } = JSON.parse(await readFile(FORMAT_CONFIG_PATH, 'utf8')) as FormatConfig & {
      ignorePatterns?: string[];
    };
    const formatted = await format(TABLE_TYPES_PATH, await readFile(out, 'utf8'), options);
    if (formatted.errors.length > 0) throw new Error(formatted.errors.map((error) => error.message).join('\n'));
    return formatted.code;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `npm run db:types`: migrates a throwaway database and writes its tables' types to TABLE_TYPES_PATH. */
async function main(): Promise<void> {
  const server = await startThrowawayPostgres();
  const name = `quire_types_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.url('postgres') });
  await admin.connect();
  try {
    // The name is made of hex digits here, never of input.
    await admin.query(`CREATE DATABASE ${name}`);
    await migrateToLatest({ databaseUrl: server.url(name) });
    await writeFile(TABLE_TYPES_PATH, await generatedTableTypes(server.url(name)));
    console.log(`wrote ${path.relative(ROOT, TABLE_TYPES_PATH)}`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
