import type { Measurement } from './measure.js';
import type { Scenario } from './scenarios.js';

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
  meetsAim: boolean | null;
}

function rows(results: ScenarioResult[]): Row[] {
  const baseline = results.find((result) => result.scenario.aim === null);
  if (!baseline) throw new Error('No baseline scenario (aim null) was measured');
  return results.map(({ scenario, path, ...measured }) => {
    const ratio = measured.requestsPerSecond / baseline.requestsPerSecond;
    return { name: scenario.name, path, ...measured, ratio, aim: scenario.aim, meetsAim: scenario.aim === null ? null : ratio >= scenario.aim };
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

/** Prints the table for people and one `BENCH_RESULT {json}` line for scripts. */
export function report(results: ScenarioResult[], info: RunInfo): void {
  const all = rows(results);
  const body = all.map((row) => [
    row.name,
    row.requestsPerSecond.toFixed(0),
    ms(row.p50Ms),
    ms(row.p99Ms),
    row.ratio.toFixed(2),
    row.aim === null ? '-' : `${row.meetsAim ? 'OK' : 'BELOW'} (>= ${row.aim.toFixed(2)})`,
  ]);
  process.stdout.write(`\n${table(['scenario', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'aim'], body)}\n\n`);
  const summary = { ...info, node: process.version, scenarios: all };
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(summary)}\n`);
}
