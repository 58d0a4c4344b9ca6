import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ContentTree, type FileState, type PageState } from '../src/content/tree.js';
import { gitSyncPageFrontmatter } from '../src/git-sync/format/page-frontmatter.js';
import { dumpYaml } from '../src/git-sync/format/yaml-dump.js';
import { PAGE_TIME as NOW, pageState as page } from './support/page-state.js';

// Frontmatter as GitBook's Git Sync writes it (js-yaml's dump style), on values of our own.

describe("Git Sync's frontmatter YAML", () => {
  it('writes a short string plain, and folds one past 78 columns at spaces under `>-`', () => {
    expect(dumpYaml({ description: 'Install the service on your machine.' })).toBe(
      'description: Install the service on your machine.\n',
    );
    const long =
      'Every release of the service, newest first, with what changed in it and what to do about it when you upgrade.';
    expect(dumpYaml({ description: long })).toBe(
      [
        'description: >-',
        '  Every release of the service, newest first, with what changed in it and what',
        '  to do about it when you upgrade.',
        '',
      ].join('\n'),
    );
    // 78 characters still fit on the key's line; 79 fold.
    expect(dumpYaml({ description: 'x'.repeat(39) + ' ' + 'y'.repeat(38) })).toBe(
      `description: ${'x'.repeat(39)} ${'y'.repeat(38)}\n`,
    );
    expect(dumpYaml({ description: 'x'.repeat(39) + ' ' + 'y'.repeat(39) })).toBe(
      `description: >-\n  ${'x'.repeat(39)}\n  ${'y'.repeat(39)}\n`,
    );
    // A word longer than the line is left whole.
    expect(dumpYaml({ description: 'z'.repeat(90) })).toBe(`description: >-\n  ${'z'.repeat(90)}\n`);
  });

  it('quotes what plain would read otherwise: types in single quotes, unprintable characters escaped in double', () => {
    expect(dumpYaml({ a: '1.0', b: 'true', c: 'yes', d: 'null', e: '2024-05-01', f: '0x1F', g: '12:30' })).toBe(
      "a: '1.0'\nb: 'true'\nc: 'yes'\nd: 'null'\ne: '2024-05-01'\nf: '0x1F'\ng: '12:30'\n",
    );
    expect(dumpYaml({ a: 'Note: read this', b: '- a dash', c: 'a # b', d: "it's: here", e: 'ends with:' })).toBe(
      "a: 'Note: read this'\nb: '- a dash'\nc: 'a # b'\nd: 'it''s: here'\ne: 'ends with:'\n",
    );
    expect(dumpYaml({ a: 'colon:inside', b: 'sharp#inside', c: 'C# and F#', d: '' })).toBe(
      "a: colon:inside\nb: sharp#inside\nc: C# and F#\nd: ''\n",
    );
    expect(dumpYaml({ description: 'Fast\u00a0and "safe"\ttoo \\ done\u2028' })).toBe(
      'description: "Fast\\_and \\"safe\\"\\ttoo \\\\ done\\L"\n',
    );
    // A long string with a no-break space stays on one double-quoted line.
    const long = `${'word '.repeat(20)}\u00a0end`;
    expect(dumpYaml({ description: long })).toBe(`description: "${'word '.repeat(20)}\\_end"\n`);
  });

  it('writes line breaks as a literal block, nested mappings two spaces in, numbers and flags as they are', () => {
    expect(dumpYaml({ note: 'first line\nsecond line' })).toBe('note: |-\n  first line\n  second line\n');
    expect(dumpYaml({ note: 'kept\n' })).toBe('note: |\n  kept\n');
    expect(
      dumpYaml({
        coverY: -24,
        coverHeight: 320.5,
        layout: { width: 'wide', cover: { visible: true, size: 'hero' }, title: { visible: false } },
        vars: {},
        hidden: true,
      }),
    ).toBe(
      [
        'coverY: -24',
        'coverHeight: 320.5',
        'layout:',
        '  width: wide',
        '  cover:',
        '    visible: true',
        '    size: hero',
        '  title:',
        '    visible: false',
        'vars: {}',
        'hidden: true',
        '',
      ].join('\n'),
    );
    expect(dumpYaml({ yes: 1, 'two words': 2, on: 'off' })).toBe("'yes': 1\ntwo words: 2\n'on': 'off'\n");
    expect(dumpYaml({})).toBe('{}\n');
  });

  it('reads back as the values it was given', () => {
    const values = {
      description: `${'A sentence that runs on. '.repeat(8)}\u00a0Then: more, # and 'quotes'.`,
      note: '  indented first\nthen\n\n\nblank lines\n',
      folded: `${'long line '.repeat(12)}\n\nnext paragraph ${'again '.repeat(15)}`,
      number: 1e21,
      small: 1e-7,
      nested: { deeper: { text: 'x '.repeat(60).trim() } },
    };
    expect(parse(dumpYaml(values))).toEqual(values);
  });
});

const COVER: FileState = {
  fileId: 'file-cover',
  versionId: 'file-cover-v',
  name: 'cover (1).png',
  contentType: 'image/png',
  sha256: '0'.repeat(64),
  size: 70,
  width: 1,
  height: 1,
  createdAt: NOW,
};

const treeOf = (...pages: PageState[]) =>
  new ContentTree(new Map(pages.map((each) => [each.pageId, each])), new Map([[COVER.fileId, COVER]]));

describe("a page's Git Sync frontmatter", () => {
  it('is written for any field the page has, not only a layout or a cover, and is empty for none', () => {
    const plain = page({ pageId: 'p1', slug: 'plain' });
    const described = page({ pageId: 'p2', slug: 'described', description: 'What this page is for.' });
    const flagged = page({ pageId: 'p3', slug: 'flagged', icon: 'rocket', hidden: true, noIndex: true });
    const variables = page({ pageId: 'p4', slug: 'variables', variables: { version: '1.0', beta: true } });
    const tree = treeOf(plain, described, flagged, variables);
    expect(gitSyncPageFrontmatter(tree, plain, 'plain.md')).toBe('');
    expect(gitSyncPageFrontmatter(tree, described, 'described.md')).toBe(
      '---\ndescription: What this page is for.\n---\n\n',
    );
    expect(gitSyncPageFrontmatter(tree, flagged, 'flagged.md')).toBe(
      '---\nicon: rocket\nhidden: true\nnoIndex: true\n---\n\n',
    );
    expect(gitSyncPageFrontmatter(tree, variables, 'variables.md')).toBe(
      "---\nvars:\n  version: '1.0'\n  beta: true\n---\n\n",
    );
  });

  it("names the cover from the page's file: the first page's README.md at the root even when it has subpages", () => {
    const cover = { ref: { kind: 'file', file: COVER.fileId }, yPos: 12 };
    const first = page({ pageId: 'first', slug: 'welcome', cover, layout: { width: 'wide' } });
    const child = page({ pageId: 'child', slug: 'tour', parentId: 'first' });
    const nested = page({ pageId: 'nested', slug: 'deep', parentId: 'child', cover });
    const grandchild = page({ pageId: 'grandchild', slug: 'end', parentId: 'nested' });
    const tree = treeOf(first, child, nested, grandchild);
    const layoutLines = (width: string) => [
      'layout:',
      `  width: ${width}`,
      '  cover:',
      '    visible: true',
      '    size: hero',
      '    mask: none',
      ...['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions'].flatMap(
        (option) => [`  ${option}:`, '    visible: true'],
      ),
    ];
    expect(gitSyncPageFrontmatter(tree, first, 'README.md')).toBe(
      ['---', 'cover: .gitbook/assets/cover (1).png', 'coverY: 12', ...layoutLines('wide'), '---', '', ''].join('\n'),
    );
    expect(gitSyncPageFrontmatter(tree, nested, 'welcome/tour/deep/README.md')).toBe(
      [
        '---',
        'cover: ../../../.gitbook/assets/cover (1).png',
        'coverY: 12',
        ...layoutLines('default'),
        '---',
        '',
        '',
      ].join('\n'),
    );
  });
});
