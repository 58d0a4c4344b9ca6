import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgePages } from '../bench/gitbook-docs-judge.js';
import type { ReadPage } from '../bench/gitbook-docs-read.js';
import {
  comparableBody,
  markAnchorsBrokenInSource,
  readPageSource,
  srcsetUrl,
  type PageSource,
} from '../bench/gitbook-docs-source.js';
import { readDocsTree, slugOfGitPath } from '../bench/gitbook-docs-tree.js';

// A tiny Git Sync tree of our own, in the forms GitBook writes.
const FILES: Record<string, string> = {
  'SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](README.md)',
    '',
    '## Start here <a href="#start" id="start"></a>',
    '',
    '* [Guide](guide/README.md)',
    '  * [Setup](guide/setup.md "Set it up")',
    '  * [Setup options](guide/setup.md#options)',
    '* [Elsewhere](https://example.com/docs)',
    '* [Gone](guide/gone.md)',
    '',
  ].join('\n'),
  'README.md':
    '---\ndescription: The start.\nhidden: true\n---\n\n# Welcome\n\nRead the [guide](guide/). [Support](/broken/pages/abc).\n',
  'guide/README.md': [
    '# Guide',
    '',
    '<figure><img src="../.gitbook/assets/map (1).png" alt="Map"><figcaption><p>The map</p></figcaption></figure>',
    '',
    'Go to [setup](setup.md#options) or [home](../README.md), or [nowhere](missing.md), or [up](#top).',
    '',
    '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image">Cover</th></tr></thead><tbody><tr><td>Setup</td><td><a href="setup.md">setup.md</a></td><td><a href="../.gitbook/assets/cover.png">cover.png</a></td></tr></tbody></table>',
    '',
    '* Press <picture><source srcset="../.gitbook/assets/dark.svg" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/light.svg" alt=""></picture> to start',
    '',
    '```html',
    '<p>shown as code on purpose</p>',
    '```',
    '',
    '{% file src="../.gitbook/assets/notes.pdf" %}',
    '',
  ].join('\n'),
  'guide/setup.md':
    '# Setup\r\n\r\n![Screen](<../.gitbook/assets/screen shot.png>)\r\n\r\n## Options\r\n\r\nRun the installer twice.\r\n',
  'extra.md': '# Extra\n',
};

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gitbook-docs-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the GitBook docs bench reads a Git Sync tree', () => {
  it('in SUMMARY.md order, with groups, nesting and link entries, leaving out pages it does not list and entries naming no file', async () => {
    const tree = await readDocsTree(root);
    expect(tree.entries).toEqual([
      { kind: 'page', key: 'README.md', title: 'Welcome', slug: '', parent: undefined, gitPath: 'README.md' },
      { kind: 'group', key: 'group:1', title: 'Start here', slug: 'start-here' },
      {
        kind: 'page',
        key: 'guide/README.md',
        title: 'Guide',
        slug: 'guide',
        parent: 'group:1',
        gitPath: 'guide/README.md',
      },
      {
        kind: 'page',
        key: 'guide/setup.md',
        title: 'Setup',
        slug: 'setup',
        parent: 'guide/README.md',
        gitPath: 'guide/setup.md',
      },
      {
        kind: 'link',
        key: 'entry:4',
        title: 'Setup options',
        parent: 'guide/README.md',
        target: { gitPath: 'guide/setup.md', anchor: 'options' },
      },
      {
        kind: 'link',
        key: 'entry:5',
        title: 'Elsewhere',
        parent: 'group:1',
        target: { url: 'https://example.com/docs' },
      },
    ]);
    expect(tree.unlisted).toEqual(['extra.md']);
    expect(tree.problems).toEqual([
      'SUMMARY.md:11: "guide/gone.md" names no page file (guide/gone.md); left out',
      'extra.md is not in SUMMARY.md; left out, as GitBook leaves it out',
    ]);
    expect(slugOfGitPath('a/b/README.md')).toBe('b');
  });

  it('finds what a page names: images of figures, pictures and card covers, page links from a README folder, anchors, assets', async () => {
    const tree = await readDocsTree(root);
    const pages = new Set(tree.markdown.keys());
    const guide = readPageSource('guide/README.md', tree.markdown.get('guide/README.md')!, pages);
    expect(guide.images).toEqual([
      { src: '../.gitbook/assets/map (1).png', match: 'map (1).png', asset: '.gitbook/assets/map (1).png' },
      { src: '../.gitbook/assets/cover.png', match: 'cover.png', asset: '.gitbook/assets/cover.png' },
      { src: '../.gitbook/assets/dark.svg', match: 'dark.svg', asset: '.gitbook/assets/dark.svg', dark: true },
      { src: '../.gitbook/assets/light.svg', match: 'light.svg', asset: '.gitbook/assets/light.svg' },
    ]);
    expect(guide.links).toEqual([
      { url: 'setup.md#options', target: 'guide/setup.md', anchor: 'options', brokenInSource: false },
      { url: '../README.md', target: 'README.md', anchor: '', brokenInSource: false },
      { url: 'missing.md', target: undefined, anchor: '', brokenInSource: true },
      { url: '#top', target: 'guide/README.md', anchor: 'top', brokenInSource: false },
      { url: 'setup.md', target: 'guide/setup.md', anchor: '', brokenInSource: false },
    ]);
    expect([...guide.assets].sort()).toEqual([
      '.gitbook/assets/cover.png',
      '.gitbook/assets/dark.svg',
      '.gitbook/assets/light.svg',
      '.gitbook/assets/map (1).png',
      '.gitbook/assets/notes.pdf',
    ]);
    // The figure and the cards table are blocks; the inline picture is not; the fenced html is code on purpose.
    expect(guide.htmlBlocks).toBe(2);
    expect(guide.codeStartingWithTag).toEqual(['<p>shown as code on purpose</p>']);
    expect(guide.richness).toEqual({ figures: 1, steppers: 0, cards: 1, tabs: 0 });

    const welcome = readPageSource('README.md', tree.markdown.get('README.md')!, pages);
    expect(welcome.frontmatter).toEqual({ description: 'The start.', hidden: true });
    expect(welcome.links).toEqual([{ url: 'guide/', target: 'guide/README.md', anchor: '', brokenInSource: false }]);
    expect(welcome.body).toBe('Read the [guide](guide/). [Support](/broken/pages/abc).\n');
  });

  it('compares bodies without frontmatter, title or CRLF line endings', () => {
    expect(comparableBody('# Setup\r\n\r\n![Screen](x.png)\r\n\r\n## Options\r\n')).toBe(
      '![Screen](x.png)\n\n## Options\n',
    );
    expect(comparableBody('---\nbroken: [yaml\n---\nText\n')).toBe('Text\n');
    expect(comparableBody('')).toBe('\n');
  });

  it('looks for prose as written, not for what a tag, a formula or a shortcode shows otherwise', () => {
    const markdown = [
      '{% embed url="https://example.com/a/long/address" %}',
      'A formula $$x^2 + y^2$$ inline, in a sentence.',
      ':arrow-down: :arrow-up:',
      'Plain prose, long enough to be looked for.',
    ].join('\n\n');
    expect(readPageSource('x.md', markdown, new Set(['x.md'])).texts).toEqual([
      'Plain prose, long enough to be looked for.',
    ]);
  });

  it('counts the blocks a page uses, not those its code shows', () => {
    const markdown = [
      '```markdown',
      '{% stepper %}',
      '<figure></figure>',
      '```',
      '',
      'Use `{% tabs %}`.',
      '',
      '{% tabs %}',
      '',
    ].join('\n');
    expect(readPageSource('x.md', markdown, new Set(['x.md'])).richness).toEqual({
      figures: 0,
      steppers: 0,
      cards: 0,
      tabs: 1,
    });
  });

  it('does not look for what only visitors meeting a condition are shown', () => {
    const markdown = [
      '{% if visitor.claims.unsigned.beta === true %}',
      'Shown to beta visitors only, so not looked for. ![Beta](beta.png)',
      '{% endif %}',
      '',
      'Shown to every visitor, so looked for.',
    ].join('\n');
    const source = readPageSource('x.md', markdown, new Set(['x.md']));
    expect(source.texts).toEqual(['Shown to every visitor, so looked for.']);
    expect(source.images).toEqual([]);
  });

  it('takes an anchor that names no heading, expandable or id of its target, even loosely, as broken in the source', () => {
    const pages = new Set(['a.md', 'b.md']);
    const sources = new Map([
      [
        'a.md',
        readPageSource(
          'a.md',
          '[1](b.md#id-1.-install-it) [2](b.md#set-up) [3](b.md#faq-entry) [4](b.md#moved-away) [5](b.md#old-name)',
          pages,
        ),
      ],
      [
        'b.md',
        readPageSource(
          'b.md',
          '## 1. Install it\n\n## Set up <a href="#set-up" id="set-up"></a>\n\n<details><summary>FAQ entry</summary>\n\nYes.\n\n</details>\n\n```\n## Old name\n```\n',
          pages,
        ),
      ],
    ]);
    markAnchorsBrokenInSource(sources);
    expect(sources.get('a.md')!.links.map((link) => [link.anchor, link.brokenInSource])).toEqual([
      ['id-1.-install-it', false],
      ['set-up', false],
      ['faq-entry', false],
      ['moved-away', true],
      ['old-name', true],
    ]);
  });

  it('reads a srcset as GitBook writes it, spaces in the file name unencoded', () => {
    expect(srcsetUrl('../.gitbook/assets/badge dark (1).png')).toBe('../.gitbook/assets/badge dark (1).png');
    expect(srcsetUrl(' x.png 2x ')).toBe('x.png');
    expect(srcsetUrl('x.png 480w')).toBe('x.png');
  });
});

const SITE = 'http://127.0.0.1:9/s/docs';
const html = (article: string) =>
  `<!doctype html><html><body><nav><a href="../nav.md">nav</a></nav><main id="quire-content"><article>${article}</article></main></body></html>`;

describe('the GitBook docs bench judges a published page', () => {
  it('counts each kind of loss against the source, following links and images', async () => {
    const tree = await readDocsTree(root);
    const pages = new Set(tree.markdown.keys());
    const sources = new Map<string, PageSource>();
    // extra.md is no page of the tree (SUMMARY.md does not list it): judged here as a page that was refused.
    for (const gitPath of ['README.md', 'guide/README.md', 'guide/setup.md', 'extra.md'])
      sources.set(gitPath, readPageSource(gitPath, tree.markdown.get(gitPath) ?? FILES[gitPath]!, pages));
    const page = (
      id: string,
      title: string,
      path: string,
      url: string,
      fields: Record<string, unknown>,
      markdown: string,
      article: string,
    ): ReadPage => ({
      id,
      type: 'document',
      title,
      path,
      url,
      fields,
      markdown,
      status: 200,
      html: html(article),
    });
    const read = new Map<string, ReadPage>([
      [
        'p1',
        page(
          'p1',
          'Welcome',
          'welcome',
          SITE,
          { description: 'The start.', hidden: false },
          'Read the [guide](/pages/p2). [Support](/broken/pages/abc).\n',
          '<p>Read the <a href="/s/docs/start-here/guide">guide</a>. <a href="/broken/pages/abc">Support</a>.</p>',
        ),
      ],
      [
        'p2',
        page(
          'p2',
          'Guide',
          'start-here/guide',
          `${SITE}/start-here/guide`,
          {},
          sources.get('guide/README.md')!.body.replace('{% file src="../.gitbook/assets/notes.pdf" %}\n', ''),
          [
            '<p>{% hint style="info" %}</p>',
            '<pre><code>&lt;figure&gt;&lt;img src="x"&gt;&lt;/figure&gt;</code></pre>',
            '<pre><code class="language-html">&lt;p&gt;shown as code on purpose&lt;/p&gt;</code></pre>',
            '<figure><img src="/files/v1/map%20(1).png" alt="Map"></figure>',
            '<p>Go to <a href="/s/docs/start-here/guide/setup#options">setup</a> or <a href="/s/docs/welcome">home</a>, or <a href="#top">up</a>.</p>',
            '<p>&lt;picture&gt; text</p>',
            '<p><a href="../setup.md">setup.md</a></p>',
          ].join('\n'),
        ),
      ],
      [
        'p3',
        page(
          'p3',
          'Setup',
          'start-here/guide/setup',
          `${SITE}/start-here/guide/setup`,
          {},
          '![Screen](/files/f2)\n\n## Options\n\nRun the installer twice.\n',
          '<figure><img src="/files/v2/screen%20shot.png" alt="Screen"></figure><h2 id="options">Options</h2>',
        ),
      ],
    ]);
    const findings = await judgePages({
      sources,
      ids: new Map([
        ['README.md', 'p1'],
        ['guide/README.md', 'p2'],
        ['guide/setup.md', 'p3'],
      ]),
      refused: new Map([['extra.md', '400: bad']]),
      read: {
        pages: read,
        reportedBroken: new Map([['p2', 1]]),
        reportedBrokenTotal: 1,
        aliases: new Map([[`${SITE}/welcome`, SITE]]),
      },
      check: async (address) => (/screen%20shot|\/broken\//.test(address) ? 404 : 200),
    });
    expect(findings).toEqual([
      {
        gitPath: 'README.md',
        title: 'Welcome',
        url: SITE,
        kinds: { page: { count: 1, examples: ['frontmatter hidden: wrote true, read false'] } },
        brokenInSource: 1,
        linksReport: { reported: 0, found: 1 },
        checked: { images: 0, darkImages: 0, pageLinks: 1, anchors: 0, text: 0 },
      },
      {
        gitPath: 'guide/README.md',
        title: 'Guide',
        url: `${SITE}/start-here/guide`,
        kinds: {
          markdown: { count: 1, examples: ['missing line: {% file src="URL" %}'] },
          tags: { count: 1, examples: ['{% hint style="info" %}'] },
          htmlAsCode: { count: 2, examples: ['code: <figure><img src="x"></figure>', 'text: <picture>'] },
          images: { count: 2, examples: ['../.gitbook/assets/cover.png', '../.gitbook/assets/light.svg'] },
          darkImages: { count: 1, examples: ['../.gitbook/assets/dark.svg'] },
          pageLinks: { count: 1, examples: ['setup.md'] },
          deadHrefs: { count: 1, examples: ['/s/docs/setup.md answered 404'] },
          anchors: { count: 1, examples: ['#top'] },
        },
        brokenInSource: 1,
        linksReport: { reported: 1, found: 4 },
        checked: { images: 3, darkImages: 1, pageLinks: 3, anchors: 2, text: 0 },
      },
      {
        gitPath: 'guide/setup.md',
        title: 'Setup',
        url: `${SITE}/start-here/guide/setup`,
        kinds: {
          images: { count: 1, examples: ['../.gitbook/assets/screen shot.png'] },
          text: { count: 1, examples: ['Run the installer twice.'] },
        },
        brokenInSource: 0,
        linksReport: { reported: 0, found: 0 },
        checked: { images: 1, darkImages: 0, pageLinks: 0, anchors: 0, text: 1 },
      },
      {
        gitPath: 'extra.md',
        title: 'extra.md',
        kinds: { page: { count: 1, examples: ['refused: 400: bad'] } },
        brokenInSource: 0,
        linksReport: { reported: 0, found: 0 },
        checked: { images: 0, darkImages: 0, pageLinks: 0, anchors: 0, text: 0 },
      },
    ]);
  });
});
