import type { AttackResult } from './attack.js';
import type { Measurement } from './measure.js';
import { CONTENT_TABLES, MERGE_CYCLE_AIM_MS, type Latencies, type MergeMeasurement } from './merge.js';
import { BASELINE, type Scenario } from './scenarios.js';

export interface ScenarioResult extends Measurement {
  scenario: Scenario;
  path: string;
  /** Of the body as sent (compressed where the endpoint compressed it). */
  bytes: number;
  /** The same bytes after one primary-key query, measured in turns with the endpoint. */
  floor: Measurement;
  /** The ratio to the floor in each turn: how much the run moved. */
  roundRatios: number[];
}

export interface RunInfo {
  database: string;
  durationS: number;
  connections: number;
  /** The service's PROCESSES. */
  processes: number;
}

interface Row {
  name: string;
  path: string;
  bytes: number;
  requestsPerSecond: number;
  floorRequestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  /** Requests/s over the floor's: what the endpoint's own work costs beyond moving its bytes. */
  ratio: number;
  /** The lowest and highest ratio of one turn. */
  ratioRange: [number, number];
  /** Requests/s over the baseline's from the same run, so runs on different machines compare. */
  baselineRatio: number;
  aim: number | null;
  p99AimMs: number | null;
  meetsAim: boolean | null;
}

function rows(results: ScenarioResult[]): Row[] {
  const baseline = results.find((result) => result.scenario === BASELINE);
  if (!baseline) throw new Error('The baseline scenario was not measured');
  return results.map(({ scenario, path, bytes, floor, roundRatios, ...measured }) => {
    const ratio = measured.requestsPerSecond / floor.requestsPerSecond;
    const aims = [
      ...(scenario.aim === null ? [] : [ratio >= scenario.aim]),
      ...(scenario.p99AimMs === undefined ? [] : [measured.p99Ms <= scenario.p99AimMs]),
    ];
    return {
      name: scenario.name,
      path,
      bytes,
      ...measured,
      floorRequestsPerSecond: floor.requestsPerSecond,
      ratio,
      ratioRange: [Math.min(...roundRatios), Math.max(...roundRatios)],
      baselineRatio: measured.requestsPerSecond / baseline.requestsPerSecond,
      aim: scenario.aim,
      p99AimMs: scenario.p99AimMs ?? null,
      meetsAim: aims.length === 0 ? null : aims.every(Boolean),
    };
  });
}

/** autocannon's latency histogram has 1 ms resolution; a decimal would suggest more precision than there is. */
const ms = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

function table(header: string[], body: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...body.map((row) => row[i]!.length)));
  // Text columns left-aligned, numbers right-aligned.
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** Two decimals, or four for the few endpoints (a multi-MB body) that are a small fraction of the baseline. */
const ratioText = (value: number) => value.toFixed(value >= 0.01 ? 2 : 4);

function aimText(row: Row): string {
  return [
    ...(row.aim === null ? [] : [`ratio >= ${ratioText(row.aim)}`]),
    ...(row.p99AimMs === null ? [] : [`p99 <= ${row.p99AimMs} ms`]),
  ].join(', ');
}

/** A body's size as sent. */
const bytesText = (value: number) => (value >= 10_000 ? `${(value / 1024).toFixed(0)} KB` : `${value} B`);

/** Median / p99 / max of a step. */
const spread = (l: Latencies) => `${l.medianMs.toFixed(1)} / ${l.p99Ms.toFixed(1)} / ${l.maxMs.toFixed(1)}`;

/** Bytes are whole 8 KB pages of the tables, spread over the merges: a few hundred bytes either way are noise. */
const bytes = (value: number) =>
  Math.abs(value) >= 10_000 ? `${(value / 1024).toFixed(1)} KB` : `${Math.round(value)} B`;

/** Rows are exact; a fraction would mean something else wrote during the measurement. */
const rowCount = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

function mergeTables(merges: MergeMeasurement[]): string {
  const cycles = merges[0]?.cycles ?? 0;
  const latency = table(
    ['one-page merge', 'pages', 'create ms', 'write ms', 'merge ms', 'cycle ms', 'aim'],
    merges.map((m) => [
      m.label,
      String(m.pages),
      spread(m.createMs),
      spread(m.writeMs),
      spread(m.mergeMs),
      spread(m.cycleMs),
      `${m.meetsAim ? 'OK' : 'MISSED'} (cycle median <= ${MERGE_CYCLE_AIM_MS} ms)`,
    ]),
  );
  // Rows are counted per table; bytes are the growth of pg_total_relation_size (heap, TOAST and indexes).
  const growth = table(
    ['growth per merge', 'bytes', ...CONTENT_TABLES.map((t) => `${t} rows`), 'bytes by table'],
    merges.map((m) => [
      m.label,
      bytes(m.bytesPerMerge),
      ...CONTENT_TABLES.map((t) => rowCount(m.rowsPerMerge[t])),
      CONTENT_TABLES.filter((t) => m.bytesPerMergeByTable[t] !== 0)
        .map((t) => `${t} ${bytes(m.bytesPerMergeByTable[t])}`)
        .join(', ') || 'none',
    ]),
  );
  const heading =
    `${cycles} sequential cycles over HTTP: create a change request, update_page one page, merge ` +
    `(ms: median / p99 / max; with ${cycles} cycles the p99 is the slowest)`;
  return `${heading}\n\n${latency}\n\n${growth}`;
}

/** Prints the tables for people and one `BENCH_RESULT {json}` line for scripts. */
function attackTable(attack: AttackResult): string {
  const statuses = Object.entries(attack.attack.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(', ');
  return table(
    ['page read of another organization', 'req/s', 'p50 ms', 'p99 ms'],
    [
      ['alone', attack.alone.requestsPerSecond.toFixed(0), ms(attack.alone.p50Ms), ms(attack.alone.p99Ms)],
      [
        'while slow markdown is posted',
        attack.underAttack.requestsPerSecond.toFixed(0),
        ms(attack.underAttack.p50Ms),
        ms(attack.underAttack.p99Ms),
      ],
    ],
  ).concat(
    `\nthe attacker's ${attack.attack.requests} posts: ${statuses}; answered in ${attack.attack.p50Ms} ms (median), ${attack.attack.maxMs} ms at most`,
  );
}

export function report(
  results: ScenarioResult[],
  merges: MergeMeasurement[],
  attack: AttackResult,
  info: RunInfo,
): void {
  const all = rows(results);
  const body = all.map((row) => [
    row.name,
    bytesText(row.bytes),
    row.requestsPerSecond.toFixed(0),
    ms(row.p50Ms),
    ms(row.p99Ms),
    row.floorRequestsPerSecond.toFixed(0),
    ratioText(row.ratio),
    row.ratioRange[0] === row.ratioRange[1]
      ? ratioText(row.ratio)
      : `${ratioText(row.ratioRange[0])}–${ratioText(row.ratioRange[1])}`,
    ratioText(row.baselineRatio),
    row.meetsAim === null ? '-' : `${row.meetsAim ? 'OK' : 'MISSED'} (${aimText(row)})`,
  ]);
  const header = [
    'scenario',
    'bytes',
    'req/s',
    'p50 ms',
    'p99 ms',
    'floor req/s',
    'ratio',
    'turns',
    'vs baseline',
    'aim',
  ];
  process.stdout.write(
    `\n${table(header, body)}\n\nratio: requests/s over the floor's, a route answering the same bytes after one primary-key query; ` +
      `measured in turns with it (turns: the lowest and highest ratio of one turn)\n\n`,
  );
  process.stdout.write(`${attackTable(attack)}\n\n`);
  if (merges.length > 0) process.stdout.write(`${mergeTables(merges)}\n\n`);
  const summary = { ...info, node: process.version, scenarios: all, attack, merges };
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(summary)}\n`);
}
