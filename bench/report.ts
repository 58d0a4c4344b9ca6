import type { Measurement } from './measure.js';
import { BASELINE, type Scenario } from './scenarios.js';

export interface ScenarioResult extends Measurement {
  scenario: Scenario;
  path: string;
}

export interface RunInfo {
  database: string;
  durationS: number;
  connections: number;
}

interface Row {
  name: string;
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  completed: number;
  /** Requests/s over the baseline's from the same run, so runs on different machines compare. */
  ratio: number;
  aim: number | null;
  p99AimMs: number | null;
  meetsAim: boolean | null;
}

function rows(results: ScenarioResult[]): Row[] {
  const baseline = results.find((result) => result.scenario === BASELINE);
  if (!baseline) throw new Error('The baseline scenario was not measured');
  return results.map(({ scenario, path, ...measured }) => {
    const ratio = measured.requestsPerSecond / baseline.requestsPerSecond;
    const aims = [
      ...(scenario.aim === null ? [] : [ratio >= scenario.aim]),
      ...(scenario.p99AimMs === undefined ? [] : [measured.p99Ms <= scenario.p99AimMs]),
    ];
    return {
      name: scenario.name,
      path,
      ...measured,
      ratio,
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
    cells.map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

function aimText(row: Row): string {
  return [...(row.aim === null ? [] : [`ratio >= ${row.aim.toFixed(2)}`]), ...(row.p99AimMs === null ? [] : [`p99 <= ${row.p99AimMs} ms`])].join(', ');
}

/** Prints the table for people and one `BENCH_RESULT {json}` line for scripts. */
export function report(results: ScenarioResult[], info: RunInfo): void {
  const all = rows(results);
  const body = all.map((row) => [
    row.name,
    row.requestsPerSecond.toFixed(0),
    ms(row.p50Ms),
    ms(row.p99Ms),
    row.ratio.toFixed(2),
    row.meetsAim === null ? '-' : `${row.meetsAim ? 'OK' : 'MISSED'} (${aimText(row)})`,
  ]);
  process.stdout.write(`\n${table(['scenario', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'aim'], body)}\n\n`);
  const summary = { ...info, node: process.version, scenarios: all };
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(summary)}\n`);
}
