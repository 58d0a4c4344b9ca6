import { appendFile } from 'node:fs/promises';
import path from 'node:path';

/** A setting of the service's own, `section.name`, and a value that needs no quoting in Git's config syntax. */
const KEY = /^([a-z]+)\.([a-z][a-z0-9]*)$/i;
const VALUE = /^[\w/.:-]+$/;

/**
 * Adds `settings` to a repository's config file as `git config <key> <value>`
 * would, in one write: a process for each setting made creating a repository
 * or receiving a push start five to seven `git`s more. Only the service's
 * own constants come here; anything Git's syntax would need quoted is refused.
 */
export async function addGitSettings(
  gitDir: string,
  settings: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  const lines: string[] = [];
  for (const [key, value] of settings) {
    const parts = KEY.exec(key);
    if (!parts || !VALUE.test(value)) throw new Error(`Not a setting written without quoting: ${key}=${value}`);
    lines.push(`[${parts[1]}]`, `\t${parts[2]} = ${value}`);
  }
  await appendFile(path.join(gitDir, 'config'), `${lines.join('\n')}\n`);
}
