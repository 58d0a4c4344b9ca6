import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataDirHolder, lockDataDir } from '../src/db/data-dir-lock.js';

/** A process that takes `dir` as a server and holds it until killed. */
async function holdingProcess(dir: string): Promise<ChildProcess> {
  const script =
    `import('./src/db/data-dir-lock.ts').then(async ({ lockDataDir }) => {` +
    ` await lockDataDir(${JSON.stringify(dir)}, 'server'); console.log('held'); setInterval(() => {}, 1000); })`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return child;
}

describe('the data folder lock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'quire-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a second holder while the first runs, naming it, and is taken over once it was killed', async () => {
    const first = await holdingProcess(dir);
    expect(await dataDirHolder(dir)).toMatchObject({ pid: first.pid, host: hostname(), role: 'server' });
    await expect(lockDataDir(dir, 'server')).rejects.toThrow(
      `DATA_DIR ${dir} is in use by another quire server (pid ${first.pid}, since `,
    );

    first.kill('SIGKILL');
    await once(first, 'exit');
    expect(await dataDirHolder(dir)).toBeUndefined();
    const lock = await lockDataDir(dir, 'command');
    expect(await dataDirHolder(dir)).toMatchObject({ pid: process.pid, role: 'command' });
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock file of an earlier version whose holder is gone', async () => {
    const dead = { pid: 2 ** 22 + 1, host: hostname(), role: 'server', since: new Date().toISOString() };
    await writeFile(path.join(dir, 'quire.lock'), JSON.stringify(dead));
    const lock = await lockDataDir(dir, 'server');
    expect(await dataDirHolder(dir)).toMatchObject({ pid: process.pid });
    await lock.release();
  });
});
