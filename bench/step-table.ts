import type { FastifyInstance } from 'fastify';

/** The middle run (the later of two): what a bench of a few runs reports. */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A markdown table of timed steps: each step's runs and their median, in seconds. */
export function stepTable(title: string, steps: ReadonlyArray<readonly [step: string, ms: readonly number[]]>): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return [
    title,
    '',
    '| Step | Runs (s) | Median (s) |',
    '| --- | --- | --- |',
    ...steps.map(([step, ms]) => `| ${step} | ${ms.map(seconds).join(' / ')} | ${seconds(median(ms))} |`),
  ].join('\n');
}

type Measure<T> = (
  app: FastifyInstance,
  base: string,
  authorization: string,
  organizationId: string,
  log: (message: string) => void,
  pages: number,
) => Promise<T>;

/**
 * A bench of its own, out of `npm run bench`: the service on a throwaway
 * database, one measurement of `pages` pages (`pagesVariable` in the
 * environment, else `defaultPages`), its table on stdout.
 */
export async function runAlone<T>(
  measure: Measure<T>,
  table: (measured: T) => string,
  pagesVariable: string,
  defaultPages: number,
): Promise<void> {
  const { startService } = await import('./gitbook-docs-service.js');
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const service = await startService(log);
  try {
    const pages = Number(process.env[pagesVariable] ?? defaultPages);
    const measured = await measure(
      service.app,
      service.base,
      `Bearer ${service.token}`,
      service.organizationId,
      log,
      pages,
    );
    process.stdout.write(`${table(measured)}\n`);
  } finally {
    await service.close();
  }
}
