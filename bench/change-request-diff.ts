/**
 * What a change request changes, for one touching DIFF_PAGES pages: a space
 * of DIFF_PAGES pages (a paragraph, a table and a code block each) merged,
 * then a change request that edits a table cell and a code line on every
 * page. Timed through the API: the first getChangeRequestChanges (the diff
 * computed on the worker pool and stored), the reads after it (read back),
 * and one page's block diff. DIFF_RUNS change requests, each on the space as
 * the last one left it.
 *
 * Runs within `npm run bench`, or alone: `npx tsx bench/change-request-diff.ts`
 * (with TEST_DATABASE_URL or BENCH_DATABASE_URL, else embedded PostgreSQL).
 */
import type { FastifyInstance } from 'fastify';
import { median, runAlone, stepTable } from './step-table.js';

export const DIFF_PAGES = 500;
export const DIFF_RUNS = 2;
export const DIFF_BENCH_NAME = `Change request diff (${DIFF_PAGES} pages)`;

/** Stored reads timed after each first computation. */
const STORED_READS = 5;
/** Changes per content write, as a client would batch them. */
const BATCH = 50;

export interface DiffMeasurement {
  pages: number;
  changes: number;
  firstMs: number[];
  storedMs: number[];
  pageDiffMs: number[];
}

function pageMarkdown(n: number, version: number): string {
  return [
    `Page ${n} explains step ${n} of the setup, version ${version}.`,
    '',
    '| Setting | Value |',
    '| --- | --- |',
    `| retries | ${3 + version} |`,
    `| timeout | ${30 * (n % 7)} |`,
    '',
    '```sh',
    `quire setup --step ${n}`,
    `quire check --level ${version}`,
    'quire done',
    '```',
    '',
  ].join('\n');
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

export async function measureChangeRequestDiff(
  _app: FastifyInstance,
  base: string,
  authorization: string,
  organizationId: string,
  log: (message: string) => void,
  pages = DIFF_PAGES,
): Promise<DiffMeasurement> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/v1${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const writeAll = async (spaceId: string, changeRequestId: string, changes: unknown[]) => {
    const written: string[] = [];
    for (let i = 0; i < changes.length; i += BATCH) {
      const answer = await call('POST', `/spaces/${spaceId}/change-requests/${changeRequestId}/content?compat=false`, {
        changes: changes.slice(i, i + BATCH),
      });
      for (const change of answer.changes as Array<{ page?: { id: string } }>) written.push(change.page?.id ?? '');
    }
    return written;
  };

  const space = await call('POST', `/orgs/${organizationId}/spaces`, { title: DIFF_BENCH_NAME });
  const spaceId = space.id as string;
  log(`${DIFF_BENCH_NAME}: writing and merging ${pages} pages`);
  const seed = await call('POST', `/spaces/${spaceId}/change-requests`, { subject: 'Seed' });
  const pageIds = await writeAll(
    spaceId,
    seed.id as string,
    Array.from({ length: pages }, (_, n) => ({
      operation: 'insert_page',
      title: `Step ${n}`,
      document: { markdown: pageMarkdown(n, 0) },
    })),
  );
  await call('POST', `/spaces/${spaceId}/change-requests/${seed.id as string}/merge`);

  const measured: DiffMeasurement = { pages, changes: 0, firstMs: [], storedMs: [], pageDiffMs: [] };
  for (let run = 1; run <= DIFF_RUNS; run++) {
    log(`${DIFF_BENCH_NAME}: a change request editing every page (run ${run})`);
    const changeRequest = await call('POST', `/spaces/${spaceId}/change-requests`, { subject: `Edit ${run}` });
    const changeRequestId = changeRequest.id as string;
    await writeAll(
      spaceId,
      changeRequestId,
      pageIds.map((page, n) => ({ operation: 'update_page', page, document: { markdown: pageMarkdown(n, run) } })),
    );
    const changesPath = `/spaces/${spaceId}/change-requests/${changeRequestId}/changes?limit=1000`;
    const first = await timed(() => call('GET', changesPath));
    measured.firstMs.push(first.ms);
    measured.changes = (first.value.changes as unknown[]).length;
    for (let read = 0; read < STORED_READS; read++)
      measured.storedMs.push((await timed(() => call('GET', changesPath))).ms);
    const pagePath = `/spaces/${spaceId}/change-requests/${changeRequestId}/changes/pages/${pageIds[pages >> 1]!}`;
    measured.pageDiffMs.push((await timed(() => call('GET', pagePath))).ms);
    await call('POST', `/spaces/${spaceId}/change-requests/${changeRequestId}/merge`);
  }
  return measured;
}

export function changeRequestDiffTable(measured: DiffMeasurement): string {
  return stepTable(
    `${DIFF_BENCH_NAME}: ${measured.changes} changes listed, median stored read ${median(measured.storedMs).toFixed(1)} ms`,
    [
      ['First read: computed on the pool and stored', measured.firstMs],
      ['Later reads: read back', measured.storedMs],
      ['One page’s block diff', measured.pageDiffMs],
    ],
  );
}

if (import.meta.url === `file://${process.argv[1]}`)
  await runAlone(measureChangeRequestDiff, changeRequestDiffTable, 'DIFF_PAGES', DIFF_PAGES);
