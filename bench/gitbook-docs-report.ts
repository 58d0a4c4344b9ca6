import { KINDS, type Kind, type PageFindings } from './gitbook-docs-judge.js';
import type { Written } from './gitbook-docs-write.js';

/** The table printed at the end of a run, and the summary saved beside the per-page findings. */

const WORST = 12;

const total = (findings: PageFindings) => Object.values(findings.kinds).reduce((sum, kind) => sum + kind.count, 0);

export interface Summary {
  pages: number;
  pagesLosingSomething: number;
  kinds: Record<Kind, { pages: number; occurrences: number; checked?: number }>;
  linksReport: { reportedBroken: number; foundBroken: number; pagesReportMisses: number; pagesReportOnly: number };
  brokenInSource: number;
  import: {
    ms: number;
    writes: number;
    pagesWritten: number;
    pagesRefused: number;
    filesWritten: number;
    filesMissing: number;
    filesRefused: number;
  };
}

export function summarize(findings: PageFindings[], written: Written, reportedBrokenTotal: number): Summary {
  const kinds = Object.fromEntries(
    (Object.keys(KINDS) as Kind[]).map((kind) => {
      const affected = findings.filter((page) => (page.kinds[kind]?.count ?? 0) > 0);
      const occurrences = affected.reduce((sum, page) => sum + page.kinds[kind]!.count, 0);
      const counted = findings.filter((page) => page.checked[kind] !== undefined);
      const checked = counted.reduce((sum, page) => sum + page.checked[kind]!, 0);
      return [kind, { pages: affected.length, occurrences, ...(counted.length > 0 ? { checked } : {}) }];
    }),
  ) as Summary['kinds'];
  return {
    pages: findings.length,
    pagesLosingSomething: findings.filter((page) => total(page) > 0).length,
    kinds,
    linksReport: {
      reportedBroken: reportedBrokenTotal,
      foundBroken: findings.reduce((sum, page) => sum + page.linksReport.found, 0),
      pagesReportMisses: findings.filter((page) => page.linksReport.found > 0 && page.linksReport.reported === 0)
        .length,
      pagesReportOnly: findings.filter((page) => page.linksReport.found === 0 && page.linksReport.reported > 0).length,
    },
    brokenInSource: findings.reduce((sum, page) => sum + page.brokenInSource, 0),
    import: {
      ms: written.importMs,
      writes: written.writes,
      pagesWritten: written.ids.size,
      pagesRefused: written.refused.size,
      filesWritten: written.files.uploaded,
      filesMissing: written.files.missing.length,
      filesRefused: written.files.refused.size,
    },
  };
}

export function table(summary: Summary, findings: PageFindings[]): string {
  const rows = (Object.keys(KINDS) as Kind[]).map(
    (kind) =>
      `${KINDS[kind].padEnd(48)} ${String(summary.kinds[kind].pages).padStart(6)} ${String(summary.kinds[kind].occurrences).padStart(12)}` +
      (summary.kinds[kind].checked !== undefined ? ` of ${summary.kinds[kind].checked}` : ''),
  );
  const worst = [...findings]
    .filter((page) => total(page) > 0)
    .sort((a, b) => total(b) - total(a))
    .slice(0, WORST)
    .map((page) => {
      const kinds = (Object.keys(page.kinds) as Kind[]).map((kind) => `${kind}:${page.kinds[kind]!.count}`);
      return `  ${String(total(page)).padStart(4)}  ${page.gitPath}  ${kinds.join(' ')}`;
    });
  const { import: run, linksReport } = summary;
  return [
    `Import: ${run.pagesWritten} entries written, ${run.pagesRefused} refused, ${run.filesWritten} files written ` +
      `(${run.filesMissing} missing on disk, ${run.filesRefused} refused) in ${run.writes} writes, ` +
      `${(run.ms / 1000).toFixed(1)} s to merge`,
    '',
    `${'Kind'.padEnd(48)} ${'Pages'.padStart(6)} ${'Occurrences'.padStart(12)}`,
    ...rows,
    `${'Pages losing anything'.padEnd(48)} ${String(summary.pagesLosingSomething).padStart(6)} of ${summary.pages}`,
    '',
    `Links report (?status=broken): ${linksReport.reportedBroken} broken targets; this reading finds ${linksReport.foundBroken} ` +
      `broken links; ${linksReport.pagesReportMisses} pages with broken links the report does not flag, ` +
      `${linksReport.pagesReportOnly} pages it flags that read fine. ${summary.brokenInSource} links are broken in the source itself (counted as found broken, not as losses).`,
    '',
    'Worst pages (occurrences, path, per kind):',
    ...worst,
  ].join('\n');
}
