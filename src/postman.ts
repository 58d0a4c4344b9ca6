/**
 * `npm run postman [-- --out <file>]`: writes the API as a Postman collection
 * (quire.postman_collection.json by default), made from the OpenAPI document
 * the service publishes at /openapi.json. Its `baseUrl` is PUBLIC_URL (else
 * http://localhost:$PORT); its `bearerToken` is left empty.
 *
 * No database is needed: the app is built to describe itself and closed
 * before its first query.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { postmanCollection } from './ops/postman.js';

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { out: { type: 'string', default: 'quire.postman_collection.json' } },
  });
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  const { redisUrl: _counters, ...rateLimit } = config.rateLimit;
  const app = await buildApp({
    ...config,
    // The pool connects at its first query, which never comes.
    databaseUrl: 'postgres://unused.invalid/quire',
    // Without a key, the app would read the stored one from the database; nothing is signed here.
    secretKey: randomBytes(32).toString('base64url'),
    rateLimit,
    logLevel: 'silent',
    conversion: { ...config.conversion, threads: 1 },
  });
  try {
    await app.ready();
    const collection = await postmanCollection(app.swagger(), config.publicUrl);
    await writeFile(values.out, `${JSON.stringify(collection, null, 2)}\n`);
  } finally {
    await app.close();
  }
  process.stdout.write(`${values.out}: ${config.publicUrl}, set bearerToken to an API token\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
