import { describe, expect, it } from 'vitest';
import { compareTrees, lineHunks, unifiedExcerpt } from '../bench/git-sync-roundtrip-compare.js';
import { roundtripReport, roundtripTable } from '../bench/git-sync-roundtrip-report.js';

// A tiny Git Sync tree of our own, and what a round trip might give back for it.

const files = (entries: Record<string, string | Buffer>) =>
  new Map(Object.entries(entries).map(([path, value]) => [path, Buffer.from(value) as Uint8Array]));

const INPUT = files({
  'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Setup](setup.md)\n',
  'README.md': '---\ndescription: The start.\n---\n\n# Home\n\nRead [setup](setup.md).\n',
  'setup.md': '# Setup\n\nStep one.\n\nStep two.\n\nStep three.\n',
  'notes.md': '# Notes\r\n\r\nKept.\r\n',
  'spaces.md': '# Spaces\n\nA line.\n\n',
  'retitled.md': '# Old title\n\nBody.\n',
  '.gitbook/assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]),
  '.gitbook/tags.yaml': '- tag: beta\n',
});

const OUTPUT = files({
  'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Set up](setup.md)\n',
  'README.md': '# Home\n\nRead [setup](setup.md).\n',
  'setup.md': '# Setup\n\nStep one.\n\nStep 2.\n\nStep three.\n',
  'notes.md': '# Notes\n\nKept.\n',
  'spaces.md': '# Spaces\n\nA line.\n',
  'retitled.md': '# New title\n\nBody!\n',
  '.gitbook/assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]),
  'extra.md': '# Extra\n',
});

describe('the Git Sync round-trip bench compares a tree with the one written back', () => {
  it('sorts the files into identical, differing by cause, missing and extra', () => {
    const comparison = compareTrees(
      new Map([...INPUT, ['same.md', Buffer.from('# Same\n')]]),
      new Map([...OUTPUT, ['same.md', Buffer.from('# Same\n')]]),
    );
    expect(comparison.identical).toEqual(['same.md']);
    expect(comparison.missing).toEqual(['.gitbook/tags.yaml']);
    expect(comparison.extra).toEqual(['extra.md']);
    expect(comparison.differing.map(({ path, causes }) => ({ path, causes }))).toEqual([
      { path: '.gitbook/assets/logo.png', causes: ['bytes'] },
      { path: 'README.md', causes: ['frontmatter'] },
      { path: 'SUMMARY.md', causes: ['summary'] },
      { path: 'notes.md', causes: ['line-endings'] },
      { path: 'retitled.md', causes: ['title', 'content'] },
      { path: 'setup.md', causes: ['content'] },
      { path: 'spaces.md', causes: ['whitespace'] },
    ]);
    expect(comparison.differing[0]!.excerpt).toBe('binary file: 5 bytes in, 5 bytes written back');
  });

  it('shows each difference as a unified diff with two lines of context, near hunks as one', () => {
    const { differing } = compareTrees(INPUT, OUTPUT);
    expect(differing.find((file) => file.path === 'setup.md')!.excerpt).toBe(
      [
        '--- setup.md (input)',
        '+++ setup.md (written back)',
        '@@ -3,5 +3,5 @@',
        ' Step one.',
        ' ',
        '-Step two.',
        '+Step 2.',
        ' ',
        ' Step three.',
      ].join('\n'),
    );
    expect(differing.find((file) => file.path === 'retitled.md')!.excerpt).toBe(
      [
        '--- retitled.md (input)',
        '+++ retitled.md (written back)',
        '@@ -1,4 +1,4 @@',
        '-# Old title',
        '+# New title',
        ' ',
        '-Body.',
        '+Body!',
        ' ',
      ].join('\n'),
    );
  });

  it('finds the lines that changed, as the longest common run of lines leaves them', () => {
    expect(lineHunks(['a', 'b', 'c'], ['a', 'b', 'c'])).toEqual([]);
    expect(lineHunks(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([
      { from: [1, 2], to: [1, 2] },
      { from: [4, 4], to: [4, 5] },
    ]);
    expect(lineHunks(['a', 'b'], [])).toEqual([{ from: [0, 2], to: [0, 0] }]);
  });

  it('shows a long line from where it changed, cut short', () => {
    const long = (word: string) => `${'x'.repeat(300)} ${word} ${'y'.repeat(300)}`;
    const a = [long('old')];
    const b = [long('new')];
    const excerpt = unifiedExcerpt('long.md', a, b, lineHunks(a, b)).split('\n');
    expect(excerpt[3]).toBe(`-…${'x'.repeat(39)} old ${'y'.repeat(116)}…`);
    expect(excerpt[4]).toBe(`+…${'x'.repeat(39)} new ${'y'.repeat(116)}…`);
  });

  it('reports the causes with the most files first, the problems by kind and the timings', () => {
    const comparison = compareTrees(INPUT, OUTPUT);
    const report = roundtripReport(
      { files: INPUT.size, bytes: 10 },
      comparison,
      [{ kind: 'unlisted-page', path: 'notes.md', message: 'notes.md is not in SUMMARY.md; added at the top level' }],
      { writes: 3, uploads: 0 },
      { readMs: 1, writeIntoSpaceMs: 20, readBackMs: 5, writeOutMs: 1 },
    );
    expect(report.counts).toEqual({ identical: 0, differing: 7, missing: 1, extra: 1 });
    expect(report.causes.map(({ cause, files }) => [cause, files])).toEqual([
      ['content', 2],
      ['frontmatter', 1],
      ['title', 1],
      ['line-endings', 1],
      ['whitespace', 1],
      ['summary', 1],
      ['bytes', 1],
    ]);
    expect(report.problems.byKind).toEqual({ 'unlisted-page': 1 });
    const table = roundtripTable(report);
    expect(table).toContain('Identical 0   differing 7   missing 1   extra 1');
    expect(table).toContain('  content            2 files');
    expect(table).toContain('Timings: read 1 ms, write into the space 20 ms, read back 5 ms, write out 1 ms');
  });
});
