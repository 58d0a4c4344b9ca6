import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { pageMarkdown, type SeededContentSpace } from './seed-content.js';
import { jsonPoster } from './post-json.js';

/**
 * One-page change requests, merged one after another: not a load test but
 * the latency of the write path and what each merge adds to the database.
 */
export const MERGE_CYCLES = 30;
/** The most the median create + write + merge cycle should take, in ms. */
export const MERGE_CYCLE_AIM_MS = 200;

/** Every table content writes add to. */
export const CONTENT_TABLES = [
  'documents',
  'page_versions',
  'tree_entries',
  'revisions',
  'change_requests',
  'file_versions',
  'blobs',
] as const;
export type ContentTable = (typeof CONTENT_TABLES)[number];

export interface Latencies {
  medianMs: number;
  /** Nearest rank: with 30 cycles, the slowest one. */
  p99Ms: number;
  maxMs: number;
}

export interface MergeMeasurement {
  label: string;
  spaceId: string;
  pages: number;
  cycles: number;
  createMs: Latencies;
  writeMs: Latencies;
  mergeMs: Latencies;
  /** The three steps of one cycle together. */
  cycleMs: Latencies;
  /** Growth of pg_total_relation_size summed over CONTENT_TABLES, per merge: whole 8 KB pages, so only roughly per merge. */
  bytesPerMerge: number;
  bytesPerMergeByTable: Record<ContentTable, number>;
  /** Rows added per merge: exact, and independent of how PostgreSQL lays them out. */
  rowsPerMerge: Record<ContentTable, number>;
  meetsAim: boolean;
}

function latencies(samples: number[]): Latencies {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { medianMs: median, p99Ms: sorted[Math.ceil(0.99 * sorted.length) - 1]!, maxMs: sorted[sorted.length - 1]! };
}

type Counts = Record<ContentTable, number>;

async function tableSizes(db: Db): Promise<Counts> {
  const { rows } = await sql<{ name: ContentTable; bytes: string }>`
    select c.relname as name, pg_total_relation_size(c.oid) as bytes from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and c.relname = any(${[...CONTENT_TABLES]}::text[])`.execute(
    db,
  );
  return Object.fromEntries(
    CONTENT_TABLES.map((table) => [table, Number(rows.find((row) => row.name === table)?.bytes ?? NaN)]),
  ) as Counts;
}

async function rowCounts(db: Db): Promise<Counts> {
  // The names are the constants above, never input.
  const { rows } = await sql<{ name: ContentTable; n: string }>`${sql.raw(
    CONTENT_TABLES.map((table) => `select '${table}' as name, count(*) as n from ${table}`).join(' union all '),
  )}`.execute(db);
  return Object.fromEntries(
    CONTENT_TABLES.map((table) => [table, Number(rows.find((row) => row.name === table)?.n ?? NaN)]),
  ) as Counts;
}

const perMerge = (before: Counts, after: Counts, cycles: number) =>
  Object.fromEntries(CONTENT_TABLES.map((table) => [table, (after[table] - before[table]) / cycles])) as Counts;

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

/**
 * Runs `cycles` times, one after another, over HTTP: open a change request,
 * update one page's markdown in it, merge it. Each cycle updates another
 * page without subpages. Nothing else may write while it runs, or its row
 * counts are not the merges' alone.
 */
export async function measureMerges(
  db: Db,
  base: string,
  authorization: string,
  space: SeededContentSpace,
  label: string,
  cycles = MERGE_CYCLES,
): Promise<MergeMeasurement> {
  const call = jsonPoster(base, authorization, label);
  const changeRequests = `/v1/spaces/${space.spaceId}/change-requests`;

  const sizesBefore = await tableSizes(db);
  const rowsBefore = await rowCounts(db);
  const create: number[] = [];
  const write: number[] = [];
  const merge: number[] = [];
  for (let i = 0; i < cycles; i++) {
    const pageId = space.leafPageIds[i % space.leafPageIds.length]!;
    // The same markdown for the same cycle in every space, so their growth compares.
    const markdown = pageMarkdown({ title: `Merged page ${i + 1}`, previousSlug: null }, 1_000_000 + i, i + 1);
    const opened = await timed(() => call<{ id: string }>(changeRequests, { subject: `Bench merge ${i + 1}` }));
    const written = await timed(() =>
      call<{ changes: Array<{ object: string }> }>(`${changeRequests}/${opened.value.id}/content?compat=false`, {
        changes: [{ operation: 'update_page', page: pageId, document: { markdown } }],
      }),
    );
    if (written.value.changes[0]?.object !== 'updated_page')
      throw new Error(`${label}: the write did not update page ${pageId}: ${JSON.stringify(written.value.changes)}`);
    const merged = await timed(() => call<{ result: string }>(`${changeRequests}/${opened.value.id}/merge`, {}));
    if (merged.value.result !== 'merge')
      throw new Error(`${label}: change request ${opened.value.id} did not merge: ${merged.value.result}`);
    create.push(opened.ms);
    write.push(written.ms);
    merge.push(merged.ms);
  }
  const sizesAfter = await tableSizes(db);
  const rowsAfter = await rowCounts(db);

  const bytesPerMergeByTable = perMerge(sizesBefore, sizesAfter, cycles);
  const cycleMs = latencies(create.map((ms, i) => ms + write[i]! + merge[i]!));
  return {
    label,
    spaceId: space.spaceId,
    pages: space.pages,
    cycles,
    createMs: latencies(create),
    writeMs: latencies(write),
    mergeMs: latencies(merge),
    cycleMs,
    bytesPerMerge: CONTENT_TABLES.reduce((sum, table) => sum + bytesPerMergeByTable[table], 0),
    bytesPerMergeByTable,
    rowsPerMerge: perMerge(rowsBefore, rowsAfter, cycles),
    meetsAim: cycleMs.medianMs <= MERGE_CYCLE_AIM_MS,
  };
}
