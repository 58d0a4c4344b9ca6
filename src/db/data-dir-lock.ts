import { unlinkSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

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

export const LOCK_FILE = 'quire.lock';

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

/**
 * Takes the data folder for this process, as PostgreSQL takes its data folder
 * with postmaster.pid: a file created only if absent, naming its holder. A
 * file whose holder no longer runs on this host is stale and taken over. The
 * file goes when the lock is released, and also when the process exits
 * without releasing it.
 */
export async function lockDataDir(dir: string, role: 'server' | 'command'): Promise<DataDirLock> {
  const resolved = path.resolve(dir);
  await mkdir(resolved, { recursive: true });
  const file = path.join(resolved, LOCK_FILE);
  const holder: LockHolder = { pid: process.pid, host: hostname(), role, since: new Date().toISOString() };
  // Two processes taking over one stale file may both unlink it; PostgreSQL
  // accepts the same race by trying again, and so do we.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createWithContent(file, JSON.stringify(holder))) return held(file);
    const current = await readHolder(file);
    if (current === 'gone') continue;
    if (current !== 'unreadable' && isHeld(current)) throw new DataDirInUseError(resolved, current);
    // Unreadable: written by no version of this code, since the file appears whole; no holder can be named.
    await unlink(file).catch(() => {});
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing hands`);
}

/** The process that holds the data folder, or undefined when none does. */
export async function dataDirHolder(dir: string): Promise<LockHolder | undefined> {
  const current = await readHolder(path.join(path.resolve(dir), LOCK_FILE));
  return typeof current === 'object' && isHeld(current) ? current : undefined;
}

/**
 * Creates `file` holding `content` unless it exists. A hard link of a file
 * already written appears whole, so a reader never sees a half-written lock.
 */
async function createWithContent(file: string, content: string): Promise<boolean> {
  const draft = `${file}.${process.pid}.draft`;
  await writeFile(draft, content, { mode: 0o644 });
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(draft).catch(() => {});
  }
}

function held(file: string): DataDirLock {
  // An exit handler may only do synchronous work.
  const onExit = () => {
    try {
      unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', onExit);
  return {
    async release() {
      process.removeListener('exit', onExit);
      await unlink(file).catch(() => {});
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
