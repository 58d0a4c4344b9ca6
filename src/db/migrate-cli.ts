import { ConfigError, loadConfig } from '../config.js';
import { withCommandDatabase } from './command-database.js';
import { migrateToLatest } from './migrate.js';

/** `npm run migrate`: applies pending migrations to the configured database. */
try {
  const config = loadConfig();
  const applied = await withCommandDatabase(config, (databaseUrl) =>
    migrateToLatest({ databaseUrl, log: (message) => process.stdout.write(`${message}\n`) }),
  );
  process.stdout.write(
    applied.length > 0 ? `Applied ${applied.length} migration(s).\n` : 'The database is up to date.\n',
  );
} catch (error) {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`}\n`,
  );
  process.exitCode = 1;
}
