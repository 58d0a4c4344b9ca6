/**
 * A space as a Git remote: a space of GIT_REMOTE_PAGES pages written through
 * the API, cloned with the real `git` client over smart HTTP (the first clone
 * builds the space's commit, the next ones find it built); then one page
 * merged in the space and pulled, and one page pushed to main and merged,
 * GIT_REMOTE_RUNS times each. Each step is timed around the `git` command.
 *
 * Runs within `npm run bench` (BENCH_ONLY=git), or alone: `npx tsx bench/git-remote.ts`
 * (with TEST_DATABASE_URL or BENCH_DATABASE_URL, else embedded PostgreSQL).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { runAlone, stepTable } from './step-table.js';
import { seedContentSpace } from './seed-content.js';

export const GIT_REMOTE_PAGES = 1000;
export const GIT_REMOTE_RUNS = 3;
export const GIT_REMOTE_BENCH_NAME = `git clone (${GIT_REMOTE_PAGES}-page space)`;

export interface GitRemoteMeasurement {
  label: string;
  pages: number;
  files: number;
  firstCloneMs: number;
  /** Clones once the space's commit is built. */
  cloneMs: number[];
  /** One page merged in the space, then `git pull`. */
  pullMs: number[];
  /** One page edited, committed and pushed to main, merged. */
  pushMs: number[];
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function measureGitRemote(
  app: FastifyInstance,
  base: string,
  authorization: string,
  organizationId: string,
  log: (message: string) => void,
  pages = GIT_REMOTE_PAGES,
): Promise<GitRemoteMeasurement> {
  const work = await mkdtemp(path.join(tmpdir(), 'git-remote-bench-'));
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
  };
  const git = (args: string[], cwd = work) =>
    new Promise<string>((resolve, reject) =>
      execFile(
        'git',
        ['-c', 'credential.helper=', ...args],
        { cwd, env, maxBuffer: 1 << 28 },
        (error, stdout, stderr) => (error ? reject(new Error(`git ${args[0]} failed: ${stderr}`)) : resolve(stdout)),
      ),
    );
  try {
    log(`${GIT_REMOTE_BENCH_NAME}: writing ${pages} pages into a space through the API`);
    const shape = { sections: Math.max(1, Math.round(pages / 100)), pagesPerSection: Math.min(100, pages) };
    const seeded = await seedContentSpace(app, authorization, organizationId, shape, 'Git remote bench');
    const token = authorization.replace(/^Bearer /, '');
    const url = `${base.replace('http://', `http://bench:${token}@`)}/git/${seeded.spaceId}.git`;
    let clones = 0;
    const clone = () => git(['clone', '--quiet', url, `clone-${++clones}`]);

    log(`${GIT_REMOTE_BENCH_NAME}: first clone`);
    const first = await timed(clone);
    const dir = path.join(work, 'clone-1');
    const files = (await git(['ls-files'], dir)).split('\n').filter(Boolean).length;
    const cloneMs: number[] = [];
    for (let run = 0; run < GIT_REMOTE_RUNS; run++) cloneMs.push((await timed(clone)).ms);

    const pullMs: number[] = [];
    const pushMs: number[] = [];
    const inject = async (method: 'POST', url: string, payload: unknown) => {
      const answer = await app.inject({ method, url, headers: { authorization }, payload: payload as object });
      if (answer.statusCode >= 300) throw new Error(`${method} ${url} answered ${answer.statusCode}: ${answer.body}`);
      return answer.json() as { id: string; result?: string };
    };
    const pageFiles = (await readdir(dir, { recursive: true })).filter(
      (file) => file.endsWith('.md') && !file.startsWith('.git') && file !== 'SUMMARY.md',
    );
    for (let run = 0; run < GIT_REMOTE_RUNS; run++) {
      const leaf = seeded.leafPageIds[run % seeded.leafPageIds.length]!;
      const changes = `/v1/spaces/${seeded.spaceId}/change-requests`;
      const changeRequest = await inject('POST', changes, { subject: `Bench edit ${run}` });
      await inject('POST', `${changes}/${changeRequest.id}/content`, {
        changes: [
          { operation: 'update_page', page: leaf, document: { markdown: `Edited in the space, run ${run}.\n` } },
        ],
      });
      const merged = await inject('POST', `${changes}/${changeRequest.id}/merge`, {});
      if (merged.result !== 'merge') throw new Error(`The bench edit ${run} did not merge`);
      log(`${GIT_REMOTE_BENCH_NAME}: one page merged in the space, pulled (run ${run + 1})`);
      pullMs.push((await timed(() => git(['pull', '--quiet', '--ff-only'], dir))).ms);

      const file = path.join(dir, pageFiles[(run * 37 + 11) % pageFiles.length]!);
      await writeFile(file, `${await readFile(file, 'utf8')}\nEdited in Git, run ${run}.\n`);
      await git(['commit', '--quiet', '-am', `Bench push ${run}`], dir);
      log(`${GIT_REMOTE_BENCH_NAME}: one page pushed to main, merged (run ${run + 1})`);
      pushMs.push((await timed(() => git(['push', '--quiet', 'origin', 'main'], dir))).ms);
      await git(['pull', '--quiet', '--ff-only'], dir);
    }
    return {
      label: GIT_REMOTE_BENCH_NAME,
      pages: seeded.pages,
      files,
      firstCloneMs: first.ms,
      cloneMs,
      pullMs,
      pushMs,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export function gitRemoteTable(measured: GitRemoteMeasurement): string {
  return stepTable(`${measured.label}: ${measured.pages} pages, ${measured.files} files`, [
    ['First clone (builds the commit)', [measured.firstCloneMs]],
    ['Clone', measured.cloneMs],
    ['One page merged in the space, git pull', measured.pullMs],
    ['One page pushed to main, merged', measured.pushMs],
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`)
  await runAlone(measureGitRemote, gitRemoteTable, 'GIT_REMOTE_PAGES', GIT_REMOTE_PAGES);
