import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGitSettings } from '../src/git-sync/remote-server/git-config.js';

const run = promisify(execFile);
let repository: string;

beforeAll(async () => {
  repository = await mkdtemp(path.join(tmpdir(), 'git-config-'));
  await run('git', ['init', '--bare', '--quiet', repository]);
});
afterAll(() => rm(repository, { recursive: true, force: true }));

describe('settings written to a repository’s config file', () => {
  it('are read by git as `git config` would have set them', async () => {
    await addGitSettings(repository, [
      ['transfer.hideRefs', 'refs/quire/'],
      ['core.hooksPath', '/dev/null'],
      ['receive.denyNonFastForwards', 'false'],
    ]);
    const read = async (key: string) =>
      (await run('git', ['--git-dir', repository, 'config', '--get', key])).stdout.trim();
    expect(await read('transfer.hiderefs')).toBe('refs/quire/');
    expect(await read('core.hooksPath')).toBe('/dev/null');
    expect(await read('receive.denyNonFastForwards')).toBe('false');
    // git init's own settings are kept.
    expect(await read('core.bare')).toBe('true');
  });

  it('refuses a key or value Git’s syntax would need quoted, and writes nothing', async () => {
    const before = await readFile(path.join(repository, 'config'), 'utf8');
    for (const setting of [
      ['user.name', 'two words'],
      ['core.editor', 'vi ; rm'],
      ['remote.origin.url', 'x'],
      ['core.x', 'a\n[core]\n\tbare = false'],
      ['core', 'true'],
    ] as const) {
      await expect(addGitSettings(repository, [['core.ok', 'true'], setting])).rejects.toThrow(/without quoting/);
    }
    expect(await readFile(path.join(repository, 'config'), 'utf8')).toBe(before);
  });
});
