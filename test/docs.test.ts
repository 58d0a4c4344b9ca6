import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const docs = join(root, 'docs');

/** The README stays a first read: longer material goes to docs/. */
const README_MAX_LINES = 220;

function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Every markdown file under a folder, as absolute paths. */
function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The text outside fenced code blocks, where headings are real. */
function unfenced(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text outside any code, where links are real. */
function prose(markdown: string): string {
  return unfenced(markdown).replace(/`[^`\n]*`/g, '');
}

/** The targets of a page's markdown links and images: `[text](target)`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(<?([^)\s>]+)/g)].map((match) => match[1]!);
}

/** The anchors a page's headings (as GitHub and GitBook make them) and its `<a id>` tags give. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const text = unfenced(markdown);
  for (const match of text.matchAll(/<a id="([^"]+)"/g)) anchors.add(match[1]!);
  const seen = new Map<string, number>();
  for (const line of text.split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .trim()
      .replace(/\]\([^)]*\)/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** Each relative link of a page whose file, or whose anchor in that file, is missing. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(read(page))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const file = path === '' ? page : resolve(dirname(page), decodeURI(path.split('?')[0]!));
    if (!existsSync(file)) broken.push(`${target}: no such file`);
    else if (anchor && file.endsWith('.md') && !anchorsOf(read(file)).has(anchor)) {
      broken.push(`${target}: no such heading`);
    }
  }
  return broken;
}

/** The files SUMMARY.md lists, relative to docs/, with the nesting of each line checked. */
function summaryEntries(): string[] {
  const summary = read(join(docs, 'SUMMARY.md'));
  const entries: string[] = [];
  for (const line of summary.split('\n')) {
    if (line.trim() === '' || /^#{1,6} /.test(line)) continue;
    const item = /^((?: {2})*)\* \[[^\]]+\]\(([^)#\s]+)\)$/.exec(line);
    if (!item) throw new Error(`SUMMARY.md: not a table-of-contents item: ${line}`);
    entries.push(item[2]!);
  }
  return entries;
}

describe('the documentation', () => {
  it(`keeps README.md to ${README_MAX_LINES} lines at most`, () => {
    const lines = read(join(root, 'README.md')).split('\n').length;
    expect(lines, 'README.md lines').toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('is laid out for GitBook: .gitbook.yaml names docs/ and its home and summary pages', () => {
    const config = read(join(root, '.gitbook.yaml'));
    expect(config).toMatch(/^root: \.\/docs\/$/m);
    expect(config).toMatch(/^ {2}readme: README\.md$/m);
    expect(config).toMatch(/^ {2}summary: SUMMARY\.md$/m);
    expect(read(join(docs, 'SUMMARY.md')).startsWith('# Table of contents\n')).toBe(true);
    expect(existsSync(join(docs, 'README.md'))).toBe(true);
  });

  it('lists in SUMMARY.md only pages that exist', () => {
    const missing = summaryEntries().filter((entry) => !existsSync(join(docs, entry)));
    expect(missing, 'SUMMARY.md entries with no file').toEqual([]);
  });

  it('lists every page of docs/ in SUMMARY.md, once', () => {
    const entries = summaryEntries();
    const pages = markdownFiles(docs)
      .map((file) => relative(docs, file))
      .filter((page) => page !== 'SUMMARY.md');
    expect(
      pages.filter((page) => !entries.includes(page)),
      'pages missing from SUMMARY.md',
    ).toEqual([]);
    expect(entries.filter((entry, index) => entries.indexOf(entry) !== index)).toEqual([]);
  });

  it('links, from README.md and every docs page, only to files and headings that exist', () => {
    const broken = [join(root, 'README.md'), ...markdownFiles(docs)].flatMap((page) =>
      brokenLinks(page).map((link) => `${relative(root, page)}: ${link}`),
    );
    expect(broken).toEqual([]);
  });

  it('tells a missing file or heading from a link that holds, and ignores links in code', () => {
    const folder = mkdtempSync(join(tmpdir(), 'docs-test-'));
    try {
      writeFileSync(join(folder, 'other.md'), '# Other page\n\n## The `config.cache` contract\n');
      const page = join(folder, 'page.md');
      writeFileSync(
        page,
        [
          '# Home',
          '[a](missing.md) [b](#nowhere) [c](#home) [d](other.md#the-configcache-contract) [e](other.md#gone)',
          '[f](https://example.com/x.md) `[g](gone.md)`',
          '```md\n[h](gone.md)\n```',
        ].join('\n\n'),
      );
      expect(brokenLinks(page)).toEqual([
        'missing.md: no such file',
        '#nowhere: no such heading',
        'other.md#gone: no such heading',
      ]);
    } finally {
      rmSync(folder, { recursive: true });
    }
  });
});
