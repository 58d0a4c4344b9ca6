import { unlinkSync } from 'node:fs';
import { lstat, mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { check, lock } from 'proper-lockfile';

/**
 * Who holds a data folder: one server, or one command running its database
 * itself. Written into the lock file so that a refusal can name the holder.
 */
export interface LockHolder {
  pid: number;
  host: string;
  /** `server` or `command`. */
  role: string;
  since: string;
}

export interface DataDirLock {
  release(): Promise<void>;
}

/** The lock, a folder (proper-lockfile's), and the file that names its holder. */
export const LOCK_FILE = 'quire.lock';
const HOLDER_FILE = 'quire.lock.holder';

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      holder.host === hostname()
        ? `DATA_DIR ${dir} is in use by another ${holder.role === 'server' ? 'quire server' : 'quire command'} ` +
            `(pid ${holder.pid}, since ${holder.since}). Stop it first, or give this one another DATA_DIR.`
        : `DATA_DIR ${dir} is locked by a process on host ${holder.host} (pid ${holder.pid}). If that host no longer ` +
            `uses it, remove ${path.join(dir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** How long a lock whose holder stopped touching it is kept (proper-lockfile's `stale`; it touches it every half of that). */
const STALE_MS = 30_000;

/**
 * Takes the data folder for this process with proper-lockfile: the lock is a
 * folder (created only if absent, so one process has it) that its holder
 * touches while it runs, and a file beside it names the holder, so that a
 * refusal can name it. A lock whose holder no longer runs on this host is
 * taken over at once; one nobody touched for STALE_MS (its holder, on any
 * host, gone) by proper-lockfile. The lock goes when it is released, and also
 * when the process exits without releasing it.
 */
export async function lockDataDir(dir: string, role: 'server' | 'command'): Promise<DataDirLock> {
  const resolved = path.resolve(dir);
  await mkdir(resolved, { recursive: true });
  const files = lockFiles(resolved);
  const holder: LockHolder = { pid: process.pid, host: hostname(), role, since: new Date().toISOString() };
  // Two processes taking over one dead holder's lock may both remove it; PostgreSQL
  // accepts the same race by trying again, and so do we.
  for (let attempt = 0; attempt < 5; attempt++) {
    // Before proper-lockfile, the lock was a file naming its holder.
    if ((await lstat(files.lock).catch(() => undefined))?.isFile()) {
      const earlier = await readHolder(files.lock);
      if (typeof earlier === 'object' && isHeld(earlier)) throw new DataDirInUseError(resolved, earlier);
      await rm(files.lock, { force: true });
    }
    let release: () => Promise<void>;
    try {
      release = await lock(resolved, {
        lockfilePath: files.lock,
        realpath: false,
        stale: STALE_MS,
        onCompromised: (error) =>
          process.emitWarning(
            `The lock on DATA_DIR ${resolved} was lost (${error.message}): another process may use it`,
          ),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const current = await readHolder(files.holder);
      if (typeof current === 'object' && isHeld(current)) throw new DataDirInUseError(resolved, current);
      if (current === 'gone') {
        // Taken a moment ago: its holder is writing its name.
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      // Its holder is dead, or is no version of this code and cannot be named.
      await rm(files.lock, { recursive: true, force: true });
      continue;
    }
    await writeHolder(files.holder, holder);
    return held(files, release);
  }
  throw new Error(`Could not take the lock ${files.lock}: it keeps changing hands`);
}

/** The process that holds the data folder, or undefined when none does. */
export async function dataDirHolder(dir: string): Promise<LockHolder | undefined> {
  const resolved = path.resolve(dir);
  const files = lockFiles(resolved);
  if (!(await check(resolved, { lockfilePath: files.lock, realpath: false, stale: STALE_MS }))) return undefined;
  const current = await readHolder(files.holder);
  return typeof current === 'object' && isHeld(current) ? current : undefined;
}

function lockFiles(dir: string) {
  return { lock: path.join(dir, LOCK_FILE), holder: path.join(dir, HOLDER_FILE) };
}

/** Writes the holder's name whole: a reader sees the file before or after, never half of it. */
async function writeHolder(file: string, holder: LockHolder): Promise<void> {
  const draft = `${file}.${process.pid}.draft`;
  await writeFile(draft, JSON.stringify(holder), { mode: 0o644 });
  await rename(draft, file);
}

function held(files: { lock: string; holder: string }, release: () => Promise<void>): DataDirLock {
  // proper-lockfile removes the lock itself when the process exits; the holder's name goes too.
  // An exit handler may only do synchronous work.
  const onExit = () => {
    try {
      unlinkSync(files.holder);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', onExit);
  return {
    async release() {
      process.removeListener('exit', onExit);
      await unlink(files.holder).catch(() => {});
      await release();
    },
  };
}

async function readHolder(file: string): Promise<LockHolder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') {
      return { pid: parsed.pid, host: parsed.host, role: String(parsed.role), since: String(parsed.since) };
    }
  } catch {
    // Fall through.
  }
  return 'unreadable';
}

/** A holder on another host cannot be checked, so it holds; on this host, while its process lives. */
function isHeld(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  return processRuns(holder.pid);
}

export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
