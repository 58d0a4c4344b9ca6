/**
 * `npx tsx bench/gitbook-docs.ts <docs folder> [--out findings.json] [--html <dir>] [--screenshots <dir>]`
 *
 * Writes a GitBook Git Sync docs tree (SUMMARY.md, its pages, the
 * `.gitbook/assets/` files they use) into a new space of a service started in
 * this process on a throwaway database, in one pass through the public API,
 * merges it and publishes it as a site; then reads every page back through
 * the API and the published reader and counts, per page and by kind, what it
 * loses (gitbook-docs-judge.ts). Prints a table; `--out` saves the per-page
 * findings as JSON; `--html` saves each published page's HTML; `--screenshots` saves full-page screenshots of the three
 * richest pages. BENCH_DATABASE_URL or TEST_DATABASE_URL names the PostgreSQL
 * server (see bench/database.ts); BENCH_KEEP_DATABASE=true keeps the database.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addressChecker, readBack, type ReadPage } from './gitbook-docs-read.js';
import { judgePages } from './gitbook-docs-judge.js';
import { summarize, table } from './gitbook-docs-report.js';
import { richestPages, screenshots } from './gitbook-docs-screenshots.js';
import { serveFolder, startService, type RunningService } from './gitbook-docs-service.js';
import { markAnchorsBrokenInSource, readPageSource, type PageSource } from './gitbook-docs-source.js';
import { readDocsTree } from './gitbook-docs-tree.js';
import { clients, writeTree } from './gitbook-docs-write.js';

/** Each published page's HTML, named after its path, to look into a finding. */
async function saveHtml(pages: Iterable<ReadPage>, folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const page of pages) {
    if (page.html) await writeFile(path.join(folder, `${page.path.replace(/\//g, '__') || 'index'}.html`), page.html);
  }
}

const log = (message: string) => process.stderr.write(`[gitbook-docs] ${message}\n`);

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string' }, screenshots: { type: 'string' }, html: { type: 'string' } },
  });
  if (positionals.length !== 1)
    throw new Error(
      'Usage: npx tsx bench/gitbook-docs.ts <docs folder> [--out file.json] [--html dir] [--screenshots dir]',
    );
  const root = path.resolve(positionals[0]!);

  const tree = await readDocsTree(root);
  const pagePaths = new Set(tree.markdown.keys());
  const sources = new Map<string, PageSource>();
  for (const [gitPath, markdown] of tree.markdown) sources.set(gitPath, readPageSource(gitPath, markdown, pagePaths));
  markAnchorsBrokenInSource(sources);
  const assets = new Set([...sources.values()].flatMap((source) => [...source.assets]));
  log(
    `${tree.markdown.size} pages (${tree.unlisted.length} not in SUMMARY.md), ${tree.entries.length} entries, ${assets.size} assets named`,
  );

  let service: RunningService | undefined;
  const assetServer = await serveFolder(path.join(root, '.gitbook', 'assets'));
  try {
    service = await startService(log);
    const api = clients(service.base, service.token);
    const written = await writeTree(api, service.organizationId, tree, assets, assetServer.url, log);
    log(`merged in ${(written.importMs / 1000).toFixed(1)} s; published at ${written.site.published}`);
    for (const [key, why] of written.refused) log(`refused ${key}: ${why}`);

    const read = await readBack(api, written.spaceId, written.site.published, log);
    if (values.html) await saveHtml(read.pages.values(), path.resolve(values.html));
    const findings = await judgePages({
      sources,
      ids: written.ids,
      refused: written.refused,
      read,
      check: addressChecker(service.base),
    });
    const summary = summarize(findings, written, read.reportedBrokenTotal);
    process.stdout.write(`\n${table(summary, findings)}\n`);
    if (values.out) {
      await writeFile(
        values.out,
        `${JSON.stringify({ summary, missingAssets: written.files.missing, pages: findings }, null, 2)}\n`,
      );
      log(`findings written to ${values.out}`);
    }
    if (values.screenshots) {
      const picked = richestPages(sources.values()).flatMap((source) => {
        const url = findings.find((page) => page.gitPath === source.gitPath)?.url;
        return url ? [{ gitPath: source.gitPath, url }] : [];
      });
      const saved = await screenshots(picked, path.resolve(values.screenshots));
      process.stdout.write(`\nScreenshots:\n${saved.map((file) => `  ${file}`).join('\n')}\n`);
    }
  } finally {
    await assetServer.close();
    await service?.close();
  }
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}
