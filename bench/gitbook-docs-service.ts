import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/config.js';
import { createOrganization } from '../src/orgs/queries.js';
import { createApiToken } from '../src/users/api-token-queries.js';
import { createUser } from '../src/users/user-queries.js';
import { freePort } from '../test/support/app.js';
import { createBenchDatabase, type BenchDatabase } from './database.js';

/** The service in this process on a throwaway database, and the user a migrating team would write as. */
export interface RunningService {
  app: FastifyInstance;
  database: BenchDatabase;
  /** The service's base URL, which is also its PUBLIC_URL: the published pages' links and images lead here. */
  base: string;
  token: string;
  organizationId: string;
  close(): Promise<void>;
}

/**
 * The environment of the run: a service's defaults, with outbound fetches to
 * 127.0.0.1 allowed (the large assets are served from there) and no rate limit
 * or cache in the way of what is measured.
 */
function environment(publicUrl: string): NodeJS.ProcessEnv {
  return {
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'gitbook-docs-bench-secret-key-0123456789abcdef',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_MAX: '10000000',
    RATE_LIMIT_ORGANIZATION_MAX: '10000000',
    SITE_CACHE_TTL_MS: '0',
    MAX_EVENT_LOOP_DELAY_MS: '0',
    CONVERSION_QUEUE_WAIT_MS: '120000',
  };
}

export async function startService(log: (message: string) => void): Promise<RunningService> {
  let database: BenchDatabase | undefined;
  let app: FastifyInstance | undefined;
  try {
    database = await createBenchDatabase((created) => (database = created));
    log(`database ${database.name} (${database.source}), migrated`);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    app = await buildApp({ ...loadConfig(environment(base)), databaseUrl: database.url });
    await app.ready();
    await app.listen({ host: '127.0.0.1', port });
    const { token, organizationId } = await app.context.db.transaction().execute(async (tx) => {
      const user = await createUser(tx, systemClock, { email: 'migrator@example.com', displayName: 'Docs migrator' });
      const issued = await createApiToken(tx, systemClock, { userId: user.id, label: 'gitbook-docs' });
      const organization = await createOrganization(tx, systemClock, { title: 'GitBook docs' }, user.id);
      return { token: issued.token, organizationId: organization.id };
    });
    const [running, held] = [app, database];
    return {
      app: running,
      database: held,
      base,
      token,
      organizationId,
      close: async () => {
        await running.close().catch((error: unknown) => log(`closing the app failed: ${String(error)}`));
        if (process.env.BENCH_KEEP_DATABASE === 'true') {
          await held.keep();
          log(`kept ${held.url}; drop it yourself when done`);
        } else {
          await held.drop();
        }
      },
    };
  } catch (error) {
    // Nothing of a run that could not start is left behind.
    await app?.close().catch(() => {});
    await database?.drop().catch(() => {});
    throw error;
  }
}

/** Serves the files of `folder` on 127.0.0.1, for the assets too large to send inline. */
export async function serveFolder(folder: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? '/').slice(1).split('?')[0]!);
    const file = path.join(folder, name);
    if (!file.startsWith(folder + path.sep)) return void response.writeHead(404).end();
    stat(file).then(
      (found) => {
        response.writeHead(200, { 'content-length': found.size, 'content-type': 'application/octet-stream' });
        createReadStream(file).pipe(response);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
