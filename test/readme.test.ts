import { execFile, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.js';
import { freePort } from './support/app.js';
import { startServerProcess } from './support/server-process.js';

const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');

/** The README's "first five minutes": the shell block between its markers, and the output it says it prints. */
function firstFiveMinutes(): { script: string; prints: string } {
  const marked = /<!-- first-five-minutes -->\s*```sh\n([\s\S]*?)```\s*<!-- \/first-five-minutes -->/.exec(readme);
  const prints = /<!-- \/first-five-minutes -->[\s\S]*?```text\n([\s\S]*?)```/.exec(readme);
  if (!marked || !prints) throw new Error('README.md has no first-five-minutes block with its output');
  return { script: marked[1]!, prints: prints[1]! };
}

/** The printed output as a pattern: each `…` stands for an id or some text of the line. */
function asPattern(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '[^\\n]+');
  return new RegExp(`^${escaped}$`);
}

function has(command: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('the README', () => {
  // The block is for a shell with curl and jq, as the README says; a machine without them cannot run it.
  it.skipIf(!['bash', 'curl', 'jq'].every(has))(
    'first five minutes run as pasted against a started server and print what the README shows',
    async () => {
      const { script, prints } = firstFiveMinutes();
      const database = await createTestDatabase();
      // A port of its own rather than 0: the default PUBLIC_URL, which published addresses start with, names it.
      const server = await startServerProcess({ DATABASE_URL: database.url, PORT: String(await freePort()) });
      try {
        const token = String(server.logs.find((entry) => typeof entry.token === 'string')!.token);
        // -e and pipefail: a step that fails stops the run here, where pasted into a terminal it would go on.
        const { stdout } = await promisify(execFile)('bash', ['-e', '-o', 'pipefail', '-c', script], {
          env: { ...process.env, QUIRE: server.baseUrl, TOKEN: token },
        });
        expect(stdout).toMatch(asPattern(prints));

        // What it wrote is there: the space, its two pages, the comment.
        const headers = { authorization: `Bearer ${token}` };
        const orgs = (await (await fetch(`${server.baseUrl}/v1/orgs`, { headers })).json()) as {
          items: Array<{ id: string }>;
        };
        const spaces = (await (
          await fetch(`${server.baseUrl}/v1/orgs/${orgs.items[0]!.id}/spaces`, { headers })
        ).json()) as { items: Array<{ id: string; title: string }> };
        expect(spaces.items.map((space) => space.title)).toEqual(['Handbook']);
        const pages = (await (
          await fetch(`${server.baseUrl}/v1/spaces/${spaces.items[0]!.id}/content/pages`, { headers })
        ).json()) as { pages: Array<{ title: string; pages: Array<{ title: string }> }> };
        expect(pages.pages.map((page) => [page.title, page.pages.map((child) => child.title)])).toEqual([
          ['Welcome', ['Setup']],
        ]);
      } finally {
        const stopped = once(server.child, 'exit');
        server.child.kill('SIGTERM');
        await stopped;
        await database.drop();
      }
    },
    120_000,
  );
});
