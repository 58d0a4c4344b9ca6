import type { FormatProblem } from '../src/git-sync/format/index.js';
import { byCause, type Cause, type TreeComparison } from './git-sync-roundtrip-compare.js';

/** What a round trip found, as saved with `--out`, and the table printed at the end of a run. */

export interface Timings {
  /** readRepository over the input's files. */
  readMs: number;
  /** The uploads, writes and merge that make the space. */
  writeIntoSpaceMs: number;
  /** repositoryOfSpace. */
  readBackMs: number;
  /** writeRepository. */
  writeOutMs: number;
}

export interface RoundtripReport {
  input: { files: number; bytes: number };
  counts: { identical: number; differing: number; missing: number; extra: number };
  /** Differing files by cause, most files first; a file with several causes counts under each. */
  causes: Array<{ cause: Cause; files: number; examples: Array<{ path: string; excerpt: string }> }>;
  missing: string[];
  extra: string[];
  problems: { byKind: Record<string, number>; all: FormatProblem[] };
  space: { writes: number; uploads: number };
  timings: Timings;
}

export function roundtripReport(
  input: { files: number; bytes: number },
  comparison: TreeComparison,
  problems: FormatProblem[],
  space: { writes: number; uploads: number },
  timings: Timings,
): RoundtripReport {
  const byKind: Record<string, number> = {};
  for (const problem of problems) byKind[problem.kind] = (byKind[problem.kind] ?? 0) + 1;
  return {
    input,
    counts: {
      identical: comparison.identical.length,
      differing: comparison.differing.length,
      missing: comparison.missing.length,
      extra: comparison.extra.length,
    },
    causes: byCause(comparison.differing).map(({ cause, files }) => ({
      cause,
      files: files.length,
      examples: files.map(({ path, excerpt }) => ({ path, excerpt })),
    })),
    missing: comparison.missing,
    extra: comparison.extra,
    problems: { byKind, all: problems },
    space,
    timings,
  };
}

const EXAMPLES_SHOWN = 2;
const PATHS_SHOWN = 10;

const list = (paths: readonly string[]) =>
  paths.length <= PATHS_SHOWN
    ? paths.map((path) => `  ${path}`)
    : [...paths.slice(0, PATHS_SHOWN).map((path) => `  ${path}`), `  … and ${paths.length - PATHS_SHOWN} more`];

const ms = (value: number) => `${Math.round(value)} ms`;

/** The report as text: counts, causes with an excerpt or two each, missing and extra files, problems, timings. */
export function roundtripTable(report: RoundtripReport): string {
  const { counts, timings } = report;
  const lines = [
    `Input: ${report.input.files} files, ${report.input.bytes} bytes`,
    `Identical ${counts.identical}   differing ${counts.differing}   missing ${counts.missing}   extra ${counts.extra}`,
    '',
    'Differing files by cause:',
    ...report.causes.map(({ cause, files }) => `  ${cause.padEnd(14)} ${String(files).padStart(5)} files`),
  ];
  for (const { cause, files, examples } of report.causes) {
    lines.push('', `${cause} (${files} files), for example:`);
    for (const { excerpt } of examples.slice(0, EXAMPLES_SHOWN)) lines.push(excerpt, '');
  }
  if (report.missing.length > 0) lines.push('', 'Missing (in the input, not written back):', ...list(report.missing));
  if (report.extra.length > 0) lines.push('', 'Extra (written back, not in the input):', ...list(report.extra));
  const kinds = Object.entries(report.problems.byKind);
  lines.push(
    '',
    `Problems readRepository reported: ${report.problems.all.length}`,
    ...kinds.map(([kind, count]) => `  ${kind.padEnd(16)} ${count}`),
    ...report.problems.all.slice(0, PATHS_SHOWN).map((problem) => `  ${problem.message}`),
    '',
    `Space: ${report.space.writes} writes, ${report.space.uploads} uploads`,
    `Timings: read ${ms(timings.readMs)}, write into the space ${ms(timings.writeIntoSpaceMs)}, read back ${ms(timings.readBackMs)}, write out ${ms(timings.writeOutMs)}`,
  );
  return lines.join('\n');
}
