import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptThreads, ownThreads } from '../src/core/thread-source.js';

let dir: string;
let options: { filename: string; maxThreads: number; minThreads: number };
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'quire-threads-'));
  // A task module that answers with the id of the thread it ran on.
  const filename = path.join(dir, 'thread-id.mjs');
  await writeFile(filename, "import { threadId } from 'node:worker_threads';\nexport default () => threadId;\n");
  options = { filename: pathToFileURL(filename).href, maxThreads: 1, minThreads: 0 };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('kept threads', () => {
  it('give the next holder of the same options the threads a released holder started, and others their own', async () => {
    const kept = new KeptThreads();
    const first = kept.hold(options, () => {});
    const thread = (await first.pool.run(null)) as number;
    await first.release();
    expect(first.pool.threads).toHaveLength(1);

    const next = kept.hold(options, () => {});
    expect(next.pool).toBe(first.pool);
    expect(await next.pool.run(null)).toBe(thread);
    const other = kept.hold({ ...options, maxThreads: 2 }, () => {});
    expect(other.pool).not.toBe(first.pool);

    await Promise.all([next.pool.close({ force: true }), other.pool.close({ force: true })]);
  });

  it('tell a thread’s failure to its holders only while they hold it', async () => {
    const kept = new KeptThreads();
    const heard: string[] = [];
    const first = kept.hold(options, () => heard.push('first'));
    const second = kept.hold(options, () => heard.push('second'));
    await first.release();
    first.pool.emit('error', new Error('a thread could not start'));
    expect(heard).toEqual(['second']);
    await second.release();
    // Heard by nobody, and not thrown.
    expect(() => first.pool.emit('error', new Error('a thread could not start'))).not.toThrow();
    await first.pool.close({ force: true });
  });
});

describe('own threads', () => {
  it('are a pool of the holder’s own, stopped when released', async () => {
    const one = ownThreads.hold(options, () => {});
    const two = ownThreads.hold(options, () => {});
    expect(two.pool).not.toBe(one.pool);
    expect(typeof (await one.pool.run(null))).toBe('number');
    expect(one.pool.threads).toHaveLength(1);
    await one.release();
    expect(one.pool.threads).toHaveLength(0);
    await two.release();
  });
});
