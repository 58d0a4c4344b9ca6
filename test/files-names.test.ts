import { describe, expect, it } from 'vitest';
import { fileNameOf, resolveFileNames } from '../src/change-requests/changes/file-refs.js';
import { ContentTree, type FileState } from '../src/content/tree.js';
import { spliceUrls, urlDestinations } from '../src/document/index.js';

function file(fileId: string, name: string, createdAt = new Date('2026-01-01T00:00:00Z')): FileState {
  return {
    fileId,
    versionId: `v-${fileId}`,
    name,
    contentType: 'image/png',
    sha256: 'x',
    size: 1,
    width: 1,
    height: 1,
    createdAt,
  };
}

const treeOf = (...files: FileState[]) => new ContentTree(new Map(), new Map(files.map((f) => [f.fileId, f])));

/** resolveFileNames on markdown as the worker reads it (its destinations found by a parse). */
const resolve = (markdown: string, tree: ContentTree) =>
  resolveFileNames({ markdown, destinations: urlDestinations(markdown) }, tree);

describe('the file a Git Sync URL names', () => {
  it('is read from .gitbook/assets paths from the page or the root, and from bare names, decoded', () => {
    expect(fileNameOf('../.gitbook/assets/image%20(1).png')).toBe('image (1).png');
    expect(fileNameOf('../../.gitbook/assets/a.pdf#page=2')).toBe('a.pdf');
    expect(fileNameOf('/.gitbook/assets/a.pdf')).toBe('a.pdf');
    expect(fileNameOf('.gitbook/assets/a.pdf?raw=1')).toBe('a.pdf');
    expect(fileNameOf('./image (1).png')).toBe('image (1).png');
    expect(fileNameOf('image%ZZ.png')).toBe('image%ZZ.png');
  });

  it('is nothing for URLs, canonical links, pages, folders and assets elsewhere', () => {
    for (const url of [
      'https://example.test/.gitbook/assets/a.png',
      '//cdn.test/a.png',
      '#anchor',
      '/files/abc',
      '/pages/abc',
      'setup.md',
      'guides/setup',
      'docs/.gitbook/assets/a.png',
      '../.gitbook/assets/',
      '../.gitbook/assets/sub/a.png',
    ]) {
      expect(fileNameOf(url), url).toBeUndefined();
    }
  });
});

describe('resolving file names in a page', () => {
  it('keeps every other destination where it now is, so that later splices land right', () => {
    const tree = treeOf(file('F1', 'image (1).png'), file('F2', 'guide.pdf'));
    const markdown = [
      '[page](./setup.md) ![i](../.gitbook/assets/image%20(1).png) [g](<guide.pdf>) [ext](https://x.test)',
      '{% file src="../.gitbook/assets/guide.pdf" %}',
      '{% file src="unterminated %}',
      '{% file %}',
      '~~~md',
      '{% file src="guide.pdf" %} [in code](guide.pdf)',
      '~~~',
      '[last](nope.png)',
    ].join('\n');
    const resolved = resolve(markdown, tree);
    expect(resolved.markdown).toBe(
      [
        '[page](./setup.md) ![i](/files/F1) [g](/files/F2) [ext](https://x.test)',
        '{% file src="/files/F2" %}',
        '{% file src="unterminated %}',
        '{% file %}',
        '~~~md',
        '{% file src="guide.pdf" %} [in code](guide.pdf)',
        '~~~',
        '[last](nope.png)',
      ].join('\n'),
    );
    // The destinations match a fresh reading of the new text.
    expect(resolved.destinations).toEqual(urlDestinations(resolved.markdown));
    const spliced = spliceUrls(resolved.markdown, resolved.destinations, (url) =>
      url === 'nope.png' ? 'moved.png' : url === './setup.md' ? '/pages/P' : undefined,
    );
    expect(spliced.startsWith('[page](/pages/P) ![i](/files/F1)')).toBe(true);
    expect(spliced.endsWith('[last](moved.png)')).toBe(true);
  });

  it("points GitBook's HTML at the files it names, leaving code spans and other attributes alone", () => {
    const tree = treeOf(file('L', 'light.png'), file('D', 'Dark One.png'), file('G', 'guide.pdf'));
    const markdown = [
      'Click <picture><source srcset="../.gitbook/assets/Dark One.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/light.png" alt=""></picture> then.',
      '',
      '<figure><img src=".gitbook/assets/light.png" alt="A light" data-src="light.png"><figcaption><p>Light</p></figcaption></figure>',
      '',
      'As code: `<img src="light.png">`, and <a href="../.gitbook/assets/guide.pdf">the guide</a> <img src="missing.png">',
    ].join('\n');
    expect(resolve(markdown, tree).markdown).toBe(
      [
        'Click <picture><source srcset="/files/D" media="(prefers-color-scheme: dark)"><img src="/files/L" alt=""></picture> then.',
        '',
        '<figure><img src="/files/L" alt="A light" data-src="light.png"><figcaption><p>Light</p></figcaption></figure>',
        '',
        'As code: `<img src="light.png">`, and <a href="/files/G">the guide</a> <img src="missing.png">',
      ].join('\n'),
    );
  });

  it('stays linear on a line of unclosed tags and unbalanced backticks', () => {
    const tree = treeOf(file('F', 'a.png'));
    const line = `${'<img src="a.png" '.repeat(20_000)}${'`'.repeat(20_001)}<img src="a.png">`;
    const resolved = resolveFileNames({ markdown: line, destinations: [] }, tree);
    // Only the one closed tag is a tag, and an odd run of backticks before it puts it in code.
    expect(resolved.markdown).toBe(line);
    const closed = `${'{% file src="a.png" '.repeat(20_000)}<img src="a.png">`;
    expect(
      resolveFileNames({ markdown: closed, destinations: [] }, tree).markdown.endsWith('<img src="/files/F">'),
    ).toBe(true);
  });

  it('gives a name two files share to the newest, and between files of one write to the smaller id', () => {
    const older = file('A', 'dup.png', new Date('2026-01-01T00:00:00Z'));
    const newer = file('Z', 'dup.png', new Date('2026-01-02T00:00:00Z'));
    expect(resolve('![](dup.png)', treeOf(older, newer)).markdown).toBe('![](/files/Z)');
    expect(resolve('![](dup.png)', treeOf(newer, older)).markdown).toBe('![](/files/Z)');
    const twinB = file('B', 'twin.png');
    const twinC = file('C', 'twin.png');
    expect(resolve('![](twin.png)', treeOf(twinC, twinB)).markdown).toBe('![](/files/B)');
  });

  it('stays linear on a page of thousands of tags and links', () => {
    const tree = treeOf(file('F', 'a.png'));
    const lines = Array.from({ length: 4_000 }, (_, i) =>
      i % 2 ? `{% file src=".gitbook/assets/a.png" %}` : `![${i}](a.png)`,
    );
    const resolved = resolve(lines.join('\n\n'), tree);
    expect(resolved.markdown.split('/files/F').length - 1).toBe(4_000);
    expect(resolved.destinations).toHaveLength(2_000);
    expect(resolved.destinations.every((d) => d.url === '/files/F')).toBe(true);
  });
});
