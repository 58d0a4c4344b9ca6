/**
 * The several-machines topology on one machine, from Debian's packages: a
 * PostgreSQL 15 primary and a streaming replica made from it, PgBouncer in
 * transaction mode in front of both, Redis for the shared rate limit and
 * read-your-writes, three instances of the service, HAProxy in front of them.
 * Everything lives in `.cluster/` (made anew on each start); see docs/cluster.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync, chownSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIR = path.join(ROOT, '.cluster');
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface Ports {
  haproxy: number;
  instances: number[];
  pgbouncer: number;
  primary: number;
  replica: number;
  redis: number;
}

export function portsFrom(base: number): Ports {
  return {
    haproxy: base,
    instances: [base + 1, base + 2, base + 3],
    pgbouncer: base + 10,
    primary: base + 11,
    replica: base + 12,
    redis: base + 13,
  };
}

const log = (message: string) => process.stdout.write(`[cluster] ${message}\n`);

/** PostgreSQL refuses to run as root, and PgBouncer should not: as root, they run as `postgres`. */
const asRoot = process.getuid?.() === 0;
function serviceUser(): { uid: number; gid: number } | undefined {
  if (!asRoot) return undefined;
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!uid) throw new Error('Running as root, but there is no postgres user to run PostgreSQL as');
  return { uid, gid };
}

function run(
  command: string,
  args: string[],
  options: { user?: { uid: number; gid: number }; env?: Record<string, string> } = {},
) {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    encoding: 'utf8',
    ...(options.user ?? {}),
    env: { ...process.env, LC_ALL: 'C.UTF-8', ...options.env },
  });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/** What the topology needs from Debian: installed with apt-get when run as root, else named. */
export function ensurePackages(): void {
  const needed = [
    { file: `${PG_BIN}/pg_basebackup`, pkg: 'postgresql-15' },
    { file: '/usr/sbin/haproxy', pkg: 'haproxy' },
    { file: '/usr/sbin/pgbouncer', pkg: 'pgbouncer' },
    { file: '/usr/bin/redis-server', pkg: 'redis-server' },
  ].filter(({ file }) => !existsSync(file));
  if (needed.length === 0) return;
  const packages = needed.map(({ pkg }) => pkg);
  if (!asRoot) throw new Error(`Install first: sudo apt-get install -y ${packages.join(' ')}`);
  log(`installing ${packages.join(' ')} with apt-get`);
  // The packages' own services are not wanted: the cluster runs its own on other ports.
  writeFileSync('/usr/sbin/policy-rc.d', '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    run('apt-get', ['install', '-y', ...packages]);
  } finally {
    rmSync('/usr/sbin/policy-rc.d', { force: true });
  }
}

export interface Instance {
  index: number;
  port: number;
  process?: ChildProcess;
  logFile: string;
}

export interface Cluster {
  ports: Ports;
  url: string;
  adminToken: string;
  adminEmail: string;
  instances: Instance[];
  /** Starts instance `index` again (after it stopped or was killed). */
  startInstance(index: number): Promise<void>;
  /** Restarts the primary: a fast shutdown, then a start. */
  restartPrimary(): Promise<void>;
  /** A direct connection string to the primary, bypassing PgBouncer (for checks and migrations). */
  primaryUrl: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  base?: number;
  build?: boolean;
  /** Settings added to every instance's environment. */
  env?: Record<string, string>;
}

export async function startCluster(options: StartOptions = {}): Promise<Cluster> {
  const ports = portsFrom(options.base ?? 7540);
  ensurePackages();
  if (options.build !== false) {
    log('building (npm run build)');
    run('npm', ['run', '-s', 'build']);
  }
  const user = serviceUser();
  rmSync(DIR, { recursive: true, force: true });
  for (const sub of ['', 'run', 'logs', 'pgbouncer']) mkdirSync(path.join(DIR, sub), { recursive: true });
  if (user) for (const sub of ['', 'run', 'logs', 'pgbouncer']) chownSync(path.join(DIR, sub), user.uid, user.gid);
  const children: ChildProcess[] = [];
  const logOf = (name: string) => path.join(DIR, 'logs', `${name}.log`);
  const daemon = (
    name: string,
    command: string,
    args: string[],
    env: Record<string, string> = {},
    asService = false,
  ) => {
    const out = createWriteStream(logOf(name), { flags: 'a' });
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asService && user ? user : {}),
    });
    child.stdout!.pipe(out);
    child.stderr!.pipe(out);
    children.push(child);
    return child;
  };

  // The primary, in its own folder, on its own port.
  const primaryDir = path.join(DIR, 'primary');
  const replicaDir = path.join(DIR, 'replica');
  const socketDir = path.join(DIR, 'run');
  log(`creating the primary (PostgreSQL 15, port ${ports.primary})`);
  run(`${PG_BIN}/initdb`, ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'], { user });
  appendFileSync(
    path.join(primaryDir, 'postgresql.conf'),
    [
      `port = ${ports.primary}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${socketDir}'`,
      'wal_level = replica',
      'max_wal_senders = 5',
      'hot_standby = on',
      // The replica tells the primary which rows its queries still read, so vacuum does not cancel them.
      'hot_standby_feedback = on',
      'max_connections = 200',
      '',
    ].join('\n'),
  );
  const pgCtl = (dir: string, ...args: string[]) =>
    run(`${PG_BIN}/pg_ctl`, ['-D', dir, '-l', logOf(path.basename(dir)), '-w', ...args], { user });
  pgCtl(primaryDir, 'start');
  const psql = (sqlText: string, port = ports.primary, db = 'postgres') =>
    run('psql', [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      db,
      '-v',
      'ON_ERROR_STOP=1',
      '-Atc',
      sqlText,
    ]);
  psql('create database quire');
  // PgBouncer drops startup parameters it does not know (ignore_startup_parameters below): what the
  // service sends as such (jit off, the statement timeout) is set on the database instead.
  psql("alter database quire set jit = off; alter database quire set statement_timeout = '30s'");

  const primaryUrl = `postgres://postgres@127.0.0.1:${ports.primary}/quire`;
  log('migrating the primary directly (node-pg-migrate keeps a session lock, which PgBouncer cannot)');
  run('node', ['dist/db/migrate-cli.js'], { env: { DATABASE_URL: primaryUrl } });

  // The replica: a base backup of the primary that follows its WAL (-R writes primary_conninfo).
  log(`creating the streaming replica (pg_basebackup -R, port ${ports.replica})`);
  run(
    `${PG_BIN}/pg_basebackup`,
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.primary),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ],
    { user },
  );
  appendFileSync(path.join(replicaDir, 'postgresql.conf'), `port = ${ports.replica}\n`);
  pgCtl(replicaDir, 'start');

  log(`starting Redis (port ${ports.redis})`);
  const redisDir = path.join(DIR, 'redis');
  mkdirSync(redisDir);
  daemon('redis', 'redis-server', [
    '--port',
    String(ports.redis),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    redisDir,
  ]);

  log(`starting PgBouncer 1.18 in transaction mode (port ${ports.pgbouncer})`);
  const bouncerDir = path.join(DIR, 'pgbouncer');
  writeFileSync(path.join(bouncerDir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    path.join(bouncerDir, 'pgbouncer.ini'),
    [
      '[databases]',
      `quire = host=127.0.0.1 port=${ports.primary} dbname=quire`,
      `quire_replica = host=127.0.0.1 port=${ports.replica} dbname=quire`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${ports.pgbouncer}`,
      `unix_socket_dir = ${socketDir}`,
      'auth_type = trust',
      `auth_file = ${path.join(bouncerDir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      'default_pool_size = 20',
      // The service's startup parameters: PgBouncer 1.18 refuses a client that sends one it does not know.
      'ignore_startup_parameters = extra_float_digits,options,statement_timeout',
      // A server that went away (the primary's restart) is retried soon, not after the default 15 s.
      'server_login_retry = 1',
      '',
    ].join('\n'),
  );
  daemon('pgbouncer', '/usr/sbin/pgbouncer', [path.join(bouncerDir, 'pgbouncer.ini')], {}, true);
  await waitFor('PgBouncer', () => {
    const probe = spawnSync('psql', [
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.pgbouncer),
      '-U',
      'postgres',
      '-d',
      'quire',
      '-Atc',
      'select 1',
    ]);
    return probe.status === 0;
  });

  const secrets = {
    SECRET_KEY: randomBytes(48).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    BOOTSTRAP_ADMIN_TOKEN: `quire_${randomBytes(24).toString('base64url')}`,
    BOOTSTRAP_ADMIN_EMAIL: 'admin@cluster.test',
  };
  const url = `http://127.0.0.1:${ports.haproxy}`;
  const instanceEnv = (port: number): Record<string, string> => ({
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    TRUST_PROXY: '127.0.0.1',
    DATABASE_URL: `postgres://postgres@127.0.0.1:${ports.pgbouncer}/quire`,
    DATABASE_REPLICA_URL: `postgres://postgres@127.0.0.1:${ports.pgbouncer}/quire_replica`,
    // LISTEN needs a session of its own: through PgBouncer in transaction mode it would hear nothing.
    DATABASE_LISTEN_URL: `postgres://postgres@127.0.0.1:${ports.primary}/quire`,
    // PgBouncer 1.18 keeps no protocol-level prepared statements.
    DATABASE_PREPARED_STATEMENTS: 'false',
    RATE_LIMIT_REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
    DATA_DIR: path.join(DIR, 'data'),
    GIT_REMOTE_DIR: path.join(DIR, 'git'),
    ...secrets,
    ...options.env,
  });
  const instances: Instance[] = ports.instances.map((port, index) => ({
    index,
    port,
    logFile: logOf(`instance-${index + 1}`),
  }));
  const startInstance = async (index: number) => {
    const instance = instances[index]!;
    instance.process = daemon(
      `instance-${index + 1}`,
      process.execPath,
      ['dist/server.js'],
      instanceEnv(instance.port),
    );
    await waitFor(
      `instance ${index + 1}`,
      async () => (await fetch(`http://127.0.0.1:${instance.port}/readyz`).catch(() => undefined))?.ok === true,
      120_000,
    );
  };
  log(`starting three instances (ports ${ports.instances.join(', ')})`);
  // The first alone: it makes the first organization and its admin; then the others.
  await startInstance(0);
  await Promise.all([startInstance(1), startInstance(2)]);

  log(`starting HAProxy (port ${ports.haproxy}), checking each instance's /readyz`);
  const haproxyConfig = path.join(DIR, 'haproxy.cfg');
  writeFileSync(
    haproxyConfig,
    [
      'global',
      '  maxconn 4000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  timeout http-keep-alive 10s',
      // A request whose connection could not be made goes to another instance; one already sent is never repeated (a write).
      '  retries 3',
      '  option redispatch',
      '  retry-on conn-failure',
      'frontend quire',
      `  bind 127.0.0.1:${ports.haproxy}`,
      '  option forwardfor',
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      // A check waits up to 2 s for its answer: a busy instance is slow, not gone.
      '  timeout check 2s',
      '  default-server inter 1s fall 3 rise 2',
      ...ports.instances.map((port, i) => `  server instance-${i + 1} 127.0.0.1:${port} check`),
      '',
    ].join('\n'),
  );
  const haproxy = daemon('haproxy', '/usr/sbin/haproxy', ['-f', haproxyConfig, '-db']);
  await waitFor('HAProxy', async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.ok === true);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    log('stopping: HAProxy, the instances (SIGTERM), PgBouncer, Redis, the replica, the primary');
    haproxy.kill('SIGTERM');
    await Promise.all(instances.map((instance) => stopChild(instance.process, 'SIGTERM', 30_000)));
    for (const child of children) await stopChild(child, 'SIGTERM', 5_000);
    for (const dir of [replicaDir, primaryDir]) {
      try {
        pgCtl(dir, '-m', 'fast', 'stop');
      } catch {
        // already stopped
      }
    }
  };

  return {
    ports,
    url,
    adminToken: secrets.BOOTSTRAP_ADMIN_TOKEN,
    adminEmail: secrets.BOOTSTRAP_ADMIN_EMAIL,
    instances,
    startInstance,
    primaryUrl,
    async restartPrimary() {
      pgCtl(primaryDir, '-m', 'fast', 'stop');
      pgCtl(primaryDir, 'start');
    },
    stop,
  };
}

async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function waitFor(what: string, ready: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline)
      throw new Error(`${what} did not become ready in ${timeoutMs / 1000} s (see ${DIR}/logs)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
