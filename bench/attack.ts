import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { measure, type LoadSettings, type Measurement } from './measure.js';

const run = promisify(execFile);

export interface AttackResult {
  alone: Measurement;
  underAttack: Measurement;
  attack: { statuses: Record<string, number>; p50Ms: number; maxMs: number; requests: number };
}

const percentile = (sorted: number[], share: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0);

/**
 * Another organization's read, measured alone and then while an attacker
 * (attacker.ts) posts slow markdown as comments in its own organization, one after another,
 * from a process of its own.
 */
export async function measureUnderAttack(
  read: { url: string; headers: Record<string, string> },
  attack: { url: string; authorization: string },
  settings: LoadSettings,
): Promise<AttackResult> {
  const alone = await measure(read.url, read.headers, settings);
  const script = new URL('./attacker.ts', import.meta.url).pathname;
  const attacking = run(
    process.execPath,
    [...process.execArgv, script, JSON.stringify({ ...attack, durationS: settings.warmupS + settings.durationS })],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const underAttack = await measure(read.url, read.headers, settings);
  const { statuses, latenciesMs } = JSON.parse((await attacking).stdout) as {
    statuses: Record<string, number>;
    latenciesMs: number[];
  };
  const sorted = latenciesMs.sort((a, b) => a - b);
  return {
    alone,
    underAttack,
    attack: { statuses, p50Ms: percentile(sorted, 0.5), maxMs: percentile(sorted, 1), requests: sorted.length },
  };
}
