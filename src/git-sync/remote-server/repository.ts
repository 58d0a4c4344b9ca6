import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { perContext, type Context } from '../../context.js';
import { runGit } from './git-process.js';
import { addGitSettings } from './git-config.js';

/**
 * Each space's bare repository on this instance's disk
 * (GIT_REMOTE_DIR/<spaceId>.git): a cache of commits the database can make
 * again (history.ts), written under the space's lock, read by upload-pack.
 */

/** Refs of the service's own work, never shown to a client. */
export const HIDDEN_REFS = 'refs/quire/';

export const MAIN = 'refs/heads/main';

export function remoteDir(context: Context): string {
  return context.config.gitRemote.dir ?? path.join(tmpdir(), 'quire-git-remote');
}

export function repositoryPath(context: Context, spaceId: string): string {
  return path.join(remoteDir(context), `${spaceId}.git`);
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** The space's repository, made empty when missing: initialised aside, then moved in place whole. */
export async function ensureRepository(context: Context, spaceId: string): Promise<string> {
  const repository = repositoryPath(context, spaceId);
  if (await exists(path.join(repository, 'HEAD'))) return repository;
  const root = remoteDir(context);
  await mkdir(root, { recursive: true });
  const fresh = await mkdtemp(path.join(root, `.new-${spaceId}-`));
  const timeoutMs = context.config.gitRemote.timeoutMs;
  await runGit(['init', '--bare', '--quiet', '--initial-branch=main', fresh], { timeoutMs });
  const settings: Array<[string, string]> = [
    ['transfer.hideRefs', HIDDEN_REFS],
    ['core.logAllRefUpdates', 'false'],
    ['uploadpack.allowFilter', 'true'],
    ['receive.denyNonFastForwards', 'false'],
  ];
  await addGitSettings(fresh, settings);
  await rm(repository, { recursive: true, force: true });
  await rename(fresh, repository);
  return repository;
}

/** The repository's branches by ref name. */
export async function listRefs(context: Context, repository: string): Promise<Map<string, string>> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/'], {
    gitDir: repository,
    timeoutMs: context.config.gitRemote.timeoutMs,
  });
  const refs = new Map<string, string>();
  for (const line of stdout.toString('utf8').split('\n')) {
    const [name, sha] = line.split(' ');
    if (name && sha) refs.set(name, sha);
  }
  return refs;
}

/** Which of `shas` the repository holds as commits. */
export async function presentCommits(context: Context, repository: string, shas: readonly string[]) {
  const wanted = [...new Set(shas)];
  if (wanted.length === 0) return new Set<string>();
  const { stdout } = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    gitDir: repository,
    input: `${wanted.join('\n')}\n`,
    timeoutMs: context.config.gitRemote.timeoutMs,
  });
  const present = new Set<string>();
  for (const line of stdout.toString('utf8').split('\n')) {
    const [sha, type] = line.split(' ');
    if (sha && type === 'commit') present.add(sha);
  }
  return present;
}

/** Sets and deletes refs in one transaction: all or none. */
export async function updateRefs(
  context: Context,
  repository: string,
  updates: ReadonlyArray<{ ref: string; sha: string | null }>,
): Promise<void> {
  if (updates.length === 0) return;
  const input = updates.map(({ ref, sha }) => (sha === null ? `delete ${ref}\n` : `update ${ref} ${sha}\n`)).join('');
  await runGit(['update-ref', '--stdin'], { gitDir: repository, input, timeoutMs: context.config.gitRemote.timeoutMs });
}

/** This instance's side of the locks: a queue per space, and a bound on the builds that hold a connection. */
interface LocalLocks {
  spaces: Map<string, Promise<void>>;
  running: number;
  waiting: Array<() => void>;
}

/** Per app (its context), so that apps built side by side, as tests build them, share nothing. */
const localLocksOf = perContext((): LocalLocks => ({ spaces: new Map(), running: 0, waiting: [] }));

/**
 * Builds holding a database connection for their lock at once: a quarter of
 * the pool, so that the queries of the builds themselves always find one.
 */
const maxHolders = (context: Context) => Math.max(1, Math.floor(context.config.databasePoolSize / 4));

/**
 * Runs `work` holding the space's lock: one builder of its repository at a
 * time on this instance (a queue per space, waiting without a connection),
 * and across instances sharing GIT_REMOTE_DIR (a transaction-scoped advisory
 * lock, as PgBouncer in transaction mode allows).
 */
export async function withSpaceLock<T>(context: Context, spaceId: string, work: () => Promise<T>): Promise<T> {
  const locks = localLocksOf(context);
  const previous = locks.spaces.get(spaceId) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const chained = previous.then(() => mine);
  locks.spaces.set(spaceId, chained);
  await previous;
  try {
    // A slot to hold a connection; a build ending hands its slot to the next one waiting.
    if (locks.running < maxHolders(context)) locks.running += 1;
    else await new Promise<void>((resolve) => locks.waiting.push(resolve));
    try {
      return await context.db.transaction().execute(async (tx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`git-remote:${spaceId}`}, 0))`.execute(tx);
        return work();
      });
    } finally {
      const next = locks.waiting.shift();
      if (next) next();
      else locks.running -= 1;
    }
  } finally {
    release();
    if (locks.spaces.get(spaceId) === chained) locks.spaces.delete(spaceId);
  }
}

/**
 * Copies the objects a push brought into a staging repository (whose
 * alternates are the space's repository) into the space's repository: each
 * file copied aside, then renamed in place, so no reader sees half of one;
 * a pack's index after its pack.
 */
export async function adoptObjects(staging: string, repository: string): Promise<void> {
  const from = path.join(staging, 'objects');
  const to = path.join(repository, 'objects');
  const moveIn = async (source: string, target: string) => {
    if (await exists(target)) return;
    await mkdir(path.dirname(target), { recursive: true });
    const aside = `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await copyFile(source, aside);
    await rename(aside, target);
  };
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (!entry.isDirectory() || !/^[0-9a-f]{2}$/.test(entry.name)) continue;
    for (const file of await readdir(path.join(from, entry.name))) {
      await moveIn(path.join(from, entry.name, file), path.join(to, entry.name, file));
    }
  }
  const packs = path.join(from, 'pack');
  if (!(await exists(packs))) return;
  const names = await readdir(packs);
  for (const suffix of ['.pack', '.rev', '.idx']) {
    for (const name of names.filter((candidate) => candidate.endsWith(suffix))) {
      await moveIn(path.join(packs, name), path.join(to, 'pack', name));
    }
  }
}
