/**
 * `npx tsx bench/git-sync-roundtrip.ts <folder> [--out report.json] [--tree <dir>]`
 *
 * Takes a Git Sync tree through the service and back, and says what comes
 * back otherwise: reads the folder's files with `readRepository`, writes the
 * content into a new space of a service started in this process on a
 * throwaway database (git-sync-roundtrip-space.ts), merges, reads the space
 * back with `repositoryOfSpace`, writes its files with `writeRepository`, and
 * compares them with the folder's (git-sync-roundtrip-compare.ts): files
 * byte-identical, differing (by cause, with a diff excerpt each), missing and
 * extra, the problems the reader reported, and the time of each step. Prints
 * a table; `--out` saves the report as JSON; `--tree` saves the files written
 * back, to look into a difference. BENCH_DATABASE_URL or
 * TEST_DATABASE_URL names the PostgreSQL server (see bench/database.ts).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readRepository, repositoryOfSpace, writeRepository } from '../src/git-sync/format/index.js';
import { compareTrees } from './git-sync-roundtrip-compare.js';
import { roundtripReport, roundtripTable } from './git-sync-roundtrip-report.js';
import { writeIntoNewSpace } from './git-sync-roundtrip-space.js';
import { startService, type RunningService } from './gitbook-docs-service.js';

const log = (message: string) => process.stderr.write(`[git-sync-roundtrip] ${message}\n`);

/** Every file under `root` by its path from there, `.git/` aside. */
async function readTree(root: string): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const visit = async (folder: string) => {
    for (const item of await readdir(path.join(root, folder), { withFileTypes: true })) {
      const relative = folder ? `${folder}/${item.name}` : item.name;
      if (item.isDirectory()) {
        if (relative !== '.git') await visit(relative);
      } else if (item.isFile()) {
        files.set(relative, await readFile(path.join(root, relative)));
      }
    }
  };
  await visit('');
  return files;
}

/** Writes the files under `root`, which must not hold them yet. */
async function saveTree(root: string, files: ReadonlyMap<string, Uint8Array>): Promise<void> {
  for (const [file, bytes] of files) {
    const target = path.join(root, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes, { flag: 'wx' });
  }
}

async function timed<T>(task: () => T | Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await task();
  return { result, ms: performance.now() - started };
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { out: { type: 'string' }, tree: { type: 'string' } },
  });
  if (positionals.length !== 1)
    throw new Error('Usage: npx tsx bench/git-sync-roundtrip.ts <folder> [--out report.json] [--tree dir]');
  const files = await readTree(path.resolve(positionals[0]!));
  const bytes = [...files.values()].reduce((sum, file) => sum + file.byteLength, 0);
  log(`${files.size} files, ${bytes} bytes`);

  const read = await timed(() => readRepository(files));
  const { content, problems } = read.result;
  let service: RunningService | undefined;
  try {
    service = await startService(log);
    const { app, base, token, organizationId } = service;
    const written = await timed(() => writeIntoNewSpace({ app, base, token, organizationId }, content));
    log(`written in ${written.result.writes} writes and ${written.result.uploads} uploads, merged`);
    const back = await timed(() => repositoryOfSpace(app.context, organizationId, written.result.spaceId));
    const out = await timed(() => writeRepository(back.result));

    const report = roundtripReport(
      { files: files.size, bytes },
      compareTrees(files, out.result),
      problems,
      written.result,
      { readMs: read.ms, writeIntoSpaceMs: written.ms, readBackMs: back.ms, writeOutMs: out.ms },
    );
    process.stdout.write(`\n${roundtripTable(report)}\n`);
    if (values.out) {
      await writeFile(values.out, `${JSON.stringify(report, null, 2)}\n`);
      log(`report written to ${values.out}`);
    }
    if (values.tree) {
      await saveTree(path.resolve(values.tree), out.result);
      log(`files written back saved under ${values.tree}`);
    }
  } finally {
    await service?.close();
  }
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}
