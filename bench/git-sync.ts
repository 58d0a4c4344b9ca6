/**
 * Git Sync of a large repository: a GitBook repository of GIT_SYNC_PAGES
 * pages (groups, sections with subpages, links between pages, images),
 * served by a real `git http-backend` on 127.0.0.1, imported into a new
 * space; then one page changed in Git and imported, and one page changed in
 * the space and exported, GIT_SYNC_RUNS times each. Each step is timed from
 * the API request that queues it to the end of the worker's run.
 *
 * Runs within `npm run bench`, or alone: `npx tsx bench/git-sync.ts` (with
 * TEST_DATABASE_URL or BENCH_DATABASE_URL, else embedded PostgreSQL).
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { runAlone, stepTable } from './step-table.js';
import { createGitSyncProcessor } from '../src/git-sync/processor.js';
import { startGitServer, type GitServer } from '../test/support/git-server.js';
import { random, TOPICS } from './seed-content.js';

export const GIT_SYNC_PAGES = 1000;
export const GIT_SYNC_RUNS = 3;
export const GIT_SYNC_BENCH_NAME = `Git Sync (${GIT_SYNC_PAGES}-page repository)`;

const GROUPS = 10;
const SECTIONS_PER_GROUP = 9;
const ASSETS = 10;

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

export interface GitSyncMeasurement {
  label: string;
  pages: number;
  files: number;
  firstImportMs: number;
  /** Each run's milliseconds: one page changed in Git, imported. */
  gitChangeMs: number[];
  /** Each run's milliseconds: one page changed in the space, exported. */
  spaceChangeMs: number[];
}

const topic = (i: number) => TOPICS[i % TOPICS.length]!;

function pageText(title: string, n: number, siblings: { previous?: string; section: string }): string {
  const next = random(n);
  const paragraphs = Array.from(
    { length: 4 },
    (_, p) =>
      `${topic(n + p)} works with ${topic(n + p + 3).toLowerCase()} in ${Math.floor(next() * 90) + 10} ways. ` +
      `Read the section's [overview](${siblings.section}) before you change anything, and keep ` +
      `the ${topic(n + p + 5).toLowerCase()} settings at their defaults until the first run succeeds.`,
  );
  return [
    `# ${title}`,
    '',
    paragraphs[0],
    '',
    `## Before you start`,
    '',
    `* ${topic(n + 1)} installed`,
    `* ${topic(n + 2)} configured`,
    `* an account with the **admin** role`,
    '',
    paragraphs[1],
    '',
    '```bash',
    `service ${topic(n).toLowerCase().replace(/ /g, '-')} --start --port ${8000 + (n % 1000)}`,
    '```',
    '',
    '| Setting | Default |',
    '| --- | --- |',
    `| retries | ${n % 7} |`,
    `| timeout | ${(n % 5) + 1}s |`,
    '',
    paragraphs[2],
    '',
    `![Diagram](${'../'.repeat(siblings.section.split('/').length - 1)}.gitbook/assets/diagram-${n % ASSETS}.png)`,
    '',
    ...(siblings.previous ? [`See also [the previous page](${siblings.previous}).`, ''] : []),
    paragraphs[3],
    '',
  ].join('\n');
}

/** The repository's files: SUMMARY.md, the pages, the assets. */
export function largeRepository(pages = GIT_SYNC_PAGES): { files: Record<string, string | Buffer>; pages: string[] } {
  const files: Record<string, string | Buffer> = {};
  const summary = ['# Table of contents', '', '* [Welcome](README.md)', ''];
  const paths: string[] = ['README.md'];
  files['README.md'] = pageText('Welcome', 0, { section: 'README.md' });
  const perSection = Math.max(1, Math.ceil((pages - 1) / (GROUPS * SECTIONS_PER_GROUP)) - 1);
  let n = 1;
  for (let g = 0; g < GROUPS && n < pages; g++) {
    const group = `${topic(g).toLowerCase().replace(/ /g, '-')}-${g}`;
    summary.push(`## ${topic(g)} ${g}`, '');
    for (let s = 0; s < SECTIONS_PER_GROUP && n < pages; s++) {
      const folder = `${group}/section-${s}`;
      files[`${folder}/README.md`] = pageText(`Section ${g}.${s}`, n++, { section: 'README.md' });
      paths.push(`${folder}/README.md`);
      summary.push(`* [Section ${g}.${s}](${folder}/README.md)`);
      let previous: string | undefined;
      for (let p = 0; p < perSection && n < pages; p++) {
        const name = `page-${p}.md`;
        files[`${folder}/${name}`] = pageText(`Page ${g}.${s}.${p}`, n++, {
          section: 'README.md',
          ...(previous ? { previous } : {}),
        });
        paths.push(`${folder}/${name}`);
        summary.push(`  * [Page ${g}.${s}.${p}](${folder}/${name})`);
        previous = name;
      }
    }
    summary.push('');
  }
  files['SUMMARY.md'] = summary.join('\n');
  for (let a = 0; a < ASSETS; a++) files[`.gitbook/assets/diagram-${a}.png`] = PNG;
  return { files, pages: paths };
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function measureGitSync(
  app: FastifyInstance,
  base: string,
  authorization: string,
  organizationId: string,
  log: (message: string) => void,
  pages = GIT_SYNC_PAGES,
): Promise<GitSyncMeasurement> {
  const git: GitServer = await startGitServer();
  let clone: string | undefined;
  try {
    const post = async (path: string, body: unknown, status = 200): Promise<unknown> => {
      const response = await fetch(base + path, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status !== status && !(status === 200 && response.ok))
        throw new Error(`${GIT_SYNC_BENCH_NAME}: POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
      return text ? JSON.parse(text) : undefined;
    };
    const processor = createGitSyncProcessor(app.context);
    const { files, pages: paths } = largeRepository(pages);
    log(`${GIT_SYNC_BENCH_NAME}: writing ${Object.keys(files).length} files into a repository`);
    await git.create('large');
    await git.commit('large', 'main', files as Record<string, string>);
    const space = (await post(`/v1/orgs/${organizationId}/spaces`, { title: 'Git Sync bench' })) as { id: string };
    const remote = { url: git.url('large'), ref: 'refs/heads/main' };

    const sync = async (direction: 'import' | 'export') => {
      const body = direction === 'export' ? { ...remote, commitMessage: 'Edit from the space' } : remote;
      await post(`/v1/spaces/${space.id}/git/${direction}`, body, 204);
      while (await processor.runNext());
      const operation = await app.context.db
        .selectFrom('git_sync_operations')
        .select(['state', 'error'])
        .where('space_id', '=', space.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      if (operation.state !== 'success') throw new Error(`The ${direction} failed: ${operation.error}`);
    };

    log(`${GIT_SYNC_BENCH_NAME}: first import`);
    const first = await timed(() => sync('import'));
    const listed = await app.inject({
      method: 'GET',
      url: `/v1/spaces/${space.id}/content`,
      headers: { authorization },
    });
    const revision = listed.json() as { pages: unknown[] };
    if (revision.pages.length === 0) throw new Error('The first import made no pages');

    const gitChangeMs: number[] = [];
    const spaceChangeMs: number[] = [];
    // A writer's clone: each Git change is one file edited on the branch as it is (the space's last export), pushed.
    const work = (clone = await mkdtemp(path.join(tmpdir(), 'git-sync-bench-')));
    const gitIn = (args: string[]) => execute('git', ['-C', work, ...args], { env: writerEnv() });
    await execute('git', ['clone', '--quiet', remote.url, work], { env: writerEnv() });
    for (let run = 0; run < GIT_SYNC_RUNS; run++) {
      const file = paths[1 + ((run * 37) % (paths.length - 1))]!;
      await gitIn(['pull', '--quiet', '--ff-only']);
      await appendFile(path.join(work, file), `\nEdited in Git, run ${run}.\n`);
      await gitIn(['commit', '--quiet', '-am', `Edit ${file}`]);
      await gitIn(['push', '--quiet', 'origin', 'HEAD:main']);
      log(`${GIT_SYNC_BENCH_NAME}: one page changed in Git, imported (run ${run + 1})`);
      gitChangeMs.push((await timed(() => sync('import'))).ms);

      const page = await app.inject({
        method: 'GET',
        url: `/v1/spaces/${space.id}/content/path/${encodeURIComponent(paths[2 + run]!.replace(/(\/README)?\.md$/, ''))}`,
        headers: { authorization },
      });
      const pageId = (page.json() as { id?: string }).id;
      if (!pageId) throw new Error(`No page at ${paths[2 + run]}: ${page.body}`);
      const changeRequest = (await post(`/v1/spaces/${space.id}/change-requests`, { subject: `Edit ${run}` })) as {
        id: string;
      };
      await post(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
        changes: [
          { operation: 'update_page', page: pageId, document: { markdown: `Edited in the space, run ${run}.\n` } },
        ],
      });
      await post(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, {});
      log(`${GIT_SYNC_BENCH_NAME}: one page changed in the space, exported (run ${run + 1})`);
      spaceChangeMs.push((await timed(() => sync('export'))).ms);
    }
    return {
      label: GIT_SYNC_BENCH_NAME,
      pages: paths.length,
      files: Object.keys(files).length,
      firstImportMs: first.ms,
      gitChangeMs,
      spaceChangeMs,
    };
  } finally {
    await git.close();
    if (clone) await rm(clone, { recursive: true, force: true });
  }
}

const execute = promisify(execFile);

function writerEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Writer',
    GIT_AUTHOR_EMAIL: 'writer@example.com',
    GIT_COMMITTER_NAME: 'Writer',
    GIT_COMMITTER_EMAIL: 'writer@example.com',
  };
}

export function gitSyncTable(measured: GitSyncMeasurement): string {
  return stepTable(`${measured.label}: ${measured.pages} pages, ${measured.files} files`, [
    ['First import', [measured.firstImportMs]],
    ['One page changed in Git, imported', measured.gitChangeMs],
    ['One page changed in the space, exported', measured.spaceChangeMs],
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`)
  await runAlone(measureGitSync, gitSyncTable, 'GIT_SYNC_PAGES', GIT_SYNC_PAGES);
