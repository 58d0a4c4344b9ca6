import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { UpdateContentBody } from '../src/change-requests/schemas.js';
import { isEmoji } from '../src/core/emoji.js';
import {
  bindWrite,
  changesOfRepository,
  filesToUpload,
  readRepository,
  recordCreatedPages,
  REPOSITORY_LIMITS,
  unchangedSince,
  writeRepository,
  type NestedEntry,
  type RepositoryContent,
  type RepositoryPage,
} from '../src/git-sync/format/index.js';
import { gitUrlOf, type GitTargets } from '../src/git-sync/format/page-file.js';
import { finishes } from './support/hang-guard.js';

// A Git Sync repository of our own in GitBook's canonical form: a project
// folder with its .gitbook.yaml (root and redirects), a summary with groups,
// three levels of pages, README pages, link entries, frontmatter with a
// layout and a cover, and assets with spaces in their names.

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n% release notes\n');

const SUMMARY = `# Table of contents

* [Welcome](README.md)
* [Changelog](changelog.md)
* [Status](https://status.example.com)

## Getting started

* [Quickstart](getting-started/quickstart.md)
* [Installation](getting-started/installation/README.md)
  * [On Linux](getting-started/installation/on-linux.md)
  * [On macOS](getting-started/installation/on-macos/README.md)
    * [With Homebrew](getting-started/installation/on-macos/with-homebrew.md)
  * [Linux packages](getting-started/installation/on-linux.md#packages)

## Reference

* [API](reference/api.md)
* [Support](mailto:support@example.com)
`;

const PAGES = {
  'README.md': `---
description: Everything about the service.
layout:
  width: wide
  title:
    visible: true
  outline:
    visible: false
---

# Welcome

Start with the [quickstart](getting-started/quickstart.md), then the [API](reference/api.md#authentication).
`,
  'changelog.md': '---\ndescription: What changed.\n---\n\n# Changelog\n\n## 1.0\n\nThe first release.\n',
  'getting-started/quickstart.md': `# Quickstart

![Architecture](<../.gitbook/assets/architecture diagram.png>)

Then [install it](installation/README.md) or go back [home](../README.md).
`,
  'getting-started/installation/README.md': `---
icon: download
cover: ../../.gitbook/assets/cover.png
coverY: 0
layout:
  cover:
    visible: true
    size: hero
---

# Installation

{% file src="../../.gitbook/assets/release notes (1).pdf" %}
`,
  'getting-started/installation/on-linux.md': '# On Linux\n\n## Packages\n\nInstall the package.\n',
  'getting-started/installation/on-macos/README.md': '# On macOS\n\nUse [Homebrew](with-homebrew.md).\n',
  'getting-started/installation/on-macos/with-homebrew.md': '# With Homebrew\n\nRun `brew install quire`.\n',
  'reference/api.md': '# API\n\n## Authentication\n\nSend a token.\n',
};

const CONFIG = `root: ./docs/

redirects:
  start: getting-started/quickstart.md
  guides/old-install: getting-started/installation/README.md
`;

const ASSETS = {
  'architecture diagram.png': PNG,
  'cover.png': PNG,
  'release notes (1).pdf': PDF,
};

/** The fixture's files by repository path, under the project folder `site`. */
function fixture(): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>([
    ['site/.gitbook.yaml', Buffer.from(CONFIG)],
    ['site/docs/SUMMARY.md', Buffer.from(SUMMARY)],
  ]);
  for (const [path, text] of Object.entries(PAGES)) files.set(`site/docs/${path}`, Buffer.from(text));
  for (const [name, bytes] of Object.entries(ASSETS)) files.set(`site/docs/.gitbook/assets/${name}`, bytes);
  return files;
}

const page = (title: string, path: keyof typeof PAGES, children: NestedEntry[] = []): RepositoryPage => ({
  kind: 'page',
  title,
  path,
  markdown: PAGES[path],
  children,
});

/** What the fixture holds, whole. */
const FIXTURE_CONTENT: RepositoryContent = {
  config: { root: 'docs', readme: 'README.md', summary: 'SUMMARY.md' },
  entries: [
    page('Welcome', 'README.md'),
    page('Changelog', 'changelog.md'),
    { kind: 'link', title: 'Status', target: { url: 'https://status.example.com' } },
    {
      kind: 'group',
      title: 'Getting started',
      slug: 'getting-started',
      children: [
        page('Quickstart', 'getting-started/quickstart.md'),
        page('Installation', 'getting-started/installation/README.md', [
          page('On Linux', 'getting-started/installation/on-linux.md'),
          page('On macOS', 'getting-started/installation/on-macos/README.md', [
            page('With Homebrew', 'getting-started/installation/on-macos/with-homebrew.md'),
          ]),
          {
            kind: 'link',
            title: 'Linux packages',
            target: { path: 'getting-started/installation/on-linux.md', anchor: 'packages' },
          },
        ]),
      ],
    },
    {
      kind: 'group',
      title: 'Reference',
      slug: 'reference',
      children: [
        page('API', 'reference/api.md'),
        { kind: 'link', title: 'Support', target: { url: 'mailto:support@example.com' } },
      ],
    },
  ],
  files: [
    { name: 'architecture diagram.png', contentType: 'image/png', bytes: PNG },
    { name: 'cover.png', contentType: 'image/png', bytes: PNG },
    { name: 'release notes (1).pdf', contentType: 'application/pdf', bytes: PDF },
  ],
  redirects: [
    { from: 'start', to: 'getting-started/quickstart.md' },
    { from: 'guides/old-install', to: 'getting-started/installation/README.md' },
  ],
};

/** Files as comparable values: text for markdown and YAML, hex for the rest. */
function comparable(files: ReadonlyMap<string, Uint8Array>): Record<string, string> {
  return Object.fromEntries(
    [...files]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([path, bytes]) => [
        path,
        /\.(md|yaml)$/.test(path) ? Buffer.from(bytes).toString('utf8') : Buffer.from(bytes).toString('hex'),
      ]),
  );
}

const encode = (files: Record<string, string>) =>
  new Map(Object.entries(files).map(([path, text]) => [path, Buffer.from(text) as Uint8Array]));

describe('reading a Git Sync repository', () => {
  it('reads the config, summary, pages, link entries, groups, assets and redirects, with no problem', () => {
    expect(readRepository(fixture(), { projectDirectory: 'site' })).toEqual({
      content: FIXTURE_CONTENT,
      fingerprints: expect.anything(),
      problems: [],
    });
  });

  it('writes a repository in canonical form back byte for byte, and reads what it writes', () => {
    const files = fixture();
    const { content, fingerprints } = readRepository(files, { projectDirectory: 'site' });
    const written = writeRepository(content, { projectDirectory: 'site' });
    expect(comparable(written)).toEqual(comparable(files));
    expect(readRepository(written, { projectDirectory: 'site' })).toEqual({ content, fingerprints, problems: [] });
  });

  it('fingerprints the files it read, so that a later sync tells what Git changed since', () => {
    const files = fixture();
    const before = readRepository(files, { projectDirectory: 'site' }).fingerprints;
    expect(Object.keys(before.pages).sort()).toEqual(Object.keys(PAGES).sort());
    expect(Object.keys(before.assets).sort()).toEqual(Object.keys(ASSETS).sort());

    const edited = new Map(files);
    edited.set('site/docs/changelog.md', Buffer.from('# Changelog\n\nA new line.\n'));
    edited.set('site/docs/.gitbook/assets/cover.png', Buffer.from('other bytes'));
    const afterEdit = unchangedSince(before, readRepository(edited, { projectDirectory: 'site' }).fingerprints);
    expect(afterEdit.structure).toBe(true);
    expect([...afterEdit.pages].sort()).toEqual(
      Object.keys(PAGES)
        .filter((path) => path !== 'changelog.md')
        .sort(),
    );
    expect([...afterEdit.assets].sort()).toEqual(['architecture diagram.png', 'release notes (1).pdf']);

    // The table of contents is SUMMARY.md and .gitbook.yaml together.
    const moved = new Map(files);
    moved.set('site/docs/SUMMARY.md', Buffer.from(`${SUMMARY}\n* [Extra](changelog.md)\n`));
    expect(unchangedSince(before, readRepository(moved, { projectDirectory: 'site' }).fingerprints).structure).toBe(
      false,
    );
    const configured = new Map(files);
    configured.set('site/.gitbook.yaml', Buffer.from(`${CONFIG}\n# a comment\n`));
    expect(
      unchangedSince(before, readRepository(configured, { projectDirectory: 'site' }).fingerprints).structure,
    ).toBe(false);
  });

  it('reads back content whose titles, paths and links need escaping, and a link to a page listed before it', () => {
    const content: RepositoryContent = {
      config: { root: '', readme: 'README.md', summary: 'SUMMARY.md' },
      entries: [
        { kind: 'page', title: 'Home [draft] \\ notes', path: 'README.md', markdown: '# Home\n', children: [] },
        {
          kind: 'page',
          title: 'Spaces & (parentheses)',
          path: 'a folder/my page (2).md',
          markdown: '# Spaces\r\n\r\nCRLF kept.\r\n',
          children: [{ kind: 'page', title: '100% sure', path: 'a folder/100% #1.md', markdown: '', children: [] }],
        },
        { kind: 'link', title: 'Home again', target: { path: 'README.md', anchor: '' } },
      ],
      files: [{ name: 'résumé.pdf', contentType: 'application/pdf', bytes: PDF }],
      redirects: [{ from: '404', to: 'README.md' }],
    };
    const written = writeRepository(content);
    expect(comparable(written)['SUMMARY.md']).toBe(
      [
        '# Table of contents',
        '',
        '* [Home \\[draft\\] \\\\ notes](README.md)',
        '* [Spaces & (parentheses)](<a folder/my page (2).md>)',
        '  * [100% sure](<a folder/100%25 %231.md>)',
        '* [Home again](README.md)',
        '',
      ].join('\n'),
    );
    expect(comparable(written)['.gitbook.yaml']).toBe('redirects:\n  "404": README.md\n');
    expect(readRepository(written)).toEqual({
      content,
      fingerprints: expect.anything(),
      problems: [
        {
          kind: 'listed-twice',
          path: 'SUMMARY.md',
          line: 6,
          message: 'SUMMARY.md:6: README.md is listed again; read as a link to the page',
        },
      ],
    });
  });

  it('takes the summary as GitBook writes it by hand too: other markers, wider indentation, titles and anchors', () => {
    const files = encode({
      'SUMMARY.md': [
        '# Contents',
        '',
        '- [Intro](<README.md> "The start")',
        '    + [Setup](setup%20guide.md)',
        '        * [Deep](./deep.md)',
        '',
        '## Guides <a href="#guides" id="guides"></a>',
        '',
        '* [Setup again](setup%20guide.md#install)',
      ].join('\n'),
      'README.md': '# Intro\n',
      'setup guide.md': '# Setup\n',
      'deep.md': '# Deep\n',
    });
    expect(readRepository(files).content.entries).toEqual([
      {
        kind: 'page',
        title: 'Intro',
        path: 'README.md',
        markdown: '# Intro\n',
        children: [
          {
            kind: 'page',
            title: 'Setup',
            path: 'setup guide.md',
            markdown: '# Setup\n',
            children: [{ kind: 'page', title: 'Deep', path: 'deep.md', markdown: '# Deep\n', children: [] }],
          },
        ],
      },
      {
        kind: 'group',
        title: 'Guides',
        slug: 'guides',
        children: [{ kind: 'link', title: 'Setup again', target: { path: 'setup guide.md', anchor: 'install' } }],
      },
    ]);
  });

  it('takes the top-level entries after a *** line out of the group above, and writes them back after one', () => {
    const summary = [
      '# Table of contents',
      '',
      '* [Home](README.md)',
      '',
      '## Guides',
      '',
      '* [Setup](guides/setup.md)',
      '',
      '***',
      '',
      '* [About](about/README.md)',
      '  * [Team](about/team.md)',
      '* [Help](https://help.example.com)',
      '',
      '## Reference',
      '',
      '* [API](reference/api.md)',
      '',
    ].join('\n');
    const files = encode({
      'SUMMARY.md': summary,
      'README.md': '# Home\n',
      'guides/setup.md': '# Setup\n',
      'about/README.md': '# About\n',
      'about/team.md': '# Team\n',
      'reference/api.md': '# API\n',
    });
    const { content, problems } = readRepository(files);
    expect(problems).toEqual([]);
    const leaf = (title: string, path: string, children: NestedEntry[] = []): RepositoryPage => ({
      kind: 'page',
      title,
      path,
      markdown: `# ${title}\n`,
      children,
    });
    expect(content.entries).toEqual([
      leaf('Home', 'README.md'),
      { kind: 'group', title: 'Guides', slug: 'guides', children: [leaf('Setup', 'guides/setup.md')] },
      leaf('About', 'about/README.md', [leaf('Team', 'about/team.md')]),
      { kind: 'link', title: 'Help', target: { url: 'https://help.example.com' } },
      { kind: 'group', title: 'Reference', slug: 'reference', children: [leaf('API', 'reference/api.md')] },
    ]);
    expect(comparable(writeRepository(content))).toEqual(comparable(files));

    // Other thematic breaks end a group too; one outside a group changes nothing.
    const other = readRepository(
      encode({
        'SUMMARY.md':
          '* [Home](README.md)\n\n- - -\n\n## Guides\n\n* [Setup](guides/setup.md)\n\n___\n\n* [About](about/README.md)\n',
        'README.md': '# Home\n',
        'guides/setup.md': '# Setup\n',
        'about/README.md': '# About\n',
      }),
    );
    expect(other.problems).toEqual([]);
    expect(other.content.entries.map((entry) => [entry.kind, entry.title])).toEqual([
      ['page', 'Home'],
      ['group', 'Guides'],
      ['page', 'About'],
    ]);
  });

  it("takes a group's slug from its heading's anchor, and writes one back where the title does not give the slug", () => {
    const summary = [
      '# Table of contents',
      '',
      '## First steps <a href="#start" id="start"></a>',
      '',
      '* [Install](start/install.md)',
      '',
      '## Guides',
      '',
      '* [Deploy](how-to/deploy.md)',
      '',
      '## Node.js & more',
      '',
      '* [Setup](setup.md)',
      '',
    ].join('\n');
    const files = encode({
      'SUMMARY.md': summary,
      'start/install.md': '# Install\n',
      'how-to/deploy.md': '# Deploy\n',
      'setup.md': '# Setup\n',
    });
    const { content, problems } = readRepository(files);
    expect(problems).toEqual([]);
    expect(content.entries.map((entry) => entry.kind === 'group' && [entry.title, entry.slug])).toEqual([
      ['First steps', 'start'],
      // No anchor: the folder its pages share, as GitBook lays a group out.
      ['Guides', 'how-to'],
      ['Node.js & more', 'node-js-more'],
    ]);
    const written = Buffer.from(writeRepository(content).get('SUMMARY.md')!).toString('utf8');
    expect(written).toBe(summary.replace('## Guides', '## Guides <a href="#how-to" id="how-to"></a>'));
    // A slug GitBook's heading id or the service's slug of the title gives is written without one.
    const titled = (title: string, slug: string) =>
      Buffer.from(
        writeRepository({ ...content, entries: [{ kind: 'group', title, slug, children: [] }] }).get('SUMMARY.md')!,
      ).toString('utf8');
    expect(titled('Node.js & more', 'node.js-and-more')).toBe('# Table of contents\n\n## Node.js & more\n');
    expect(titled('1. Basics', 'id-1.-basics')).toBe('# Table of contents\n\n## 1. Basics\n');
    expect(titled('Get started', 'getting-started')).toBe(
      '# Table of contents\n\n## Get started <a href="#getting-started" id="getting-started"></a>\n',
    );
    // A slug that is no heading id is not written as one.
    expect(titled('Odd', 'odd"slug')).toBe('# Table of contents\n\n## Odd\n');
  });

  it('without SUMMARY.md, takes the page files in path order, the README first and each folder README over its folder', () => {
    const files = encode({
      'zebra.md': '---\ndescription: Last.\n---\n\n# Zebra\n',
      'README.md': '# Home\n',
      'guide/README.md': '# Guide\n',
      'guide/b.md': 'No title line.\n',
      'guide/a.md': '# A ##\n',
      'loose/c.md': '# C\n',
      '.gitbook/includes/snippet.md': '# Not a page\n',
    });
    const { content, problems } = readRepository(files);
    const entry = (title: string, path: string, children: unknown[] = []) => ({
      kind: 'page',
      title,
      path,
      markdown: Buffer.from(files.get(path)!).toString('utf8'),
      children,
    });
    expect(problems).toEqual([]);
    expect(content.entries).toEqual([
      entry('Home', 'README.md'),
      entry('Guide', 'guide/README.md', [entry('A', 'guide/a.md'), entry('b', 'guide/b.md')]),
      entry('C', 'loose/c.md'),
      entry('Zebra', 'zebra.md'),
    ]);
  });
});

describe("a page file's links to pages and files of the space", () => {
  const targets: GitTargets = {
    pages: new Map([
      ['home', 'README.md'],
      ['guide', 'guide/README.md'],
      ['setup', 'guide/setup.md'],
      ['deep', 'guide/deep/README.md'],
      ['other', 'other.md'],
    ]),
    files: new Map([['logo', 'logo (1).png']]),
  };

  it('name a page with subpages by its folder, as GitBook writes them, and any other page by its file', () => {
    expect(gitUrlOf('/pages/setup', 'guide', targets)).toBe('setup.md');
    expect(gitUrlOf('/pages/deep#install', 'guide', targets)).toBe('deep/#install');
    expect(gitUrlOf('/pages/guide', 'guide', targets)).toBe('./');
    expect(gitUrlOf('/pages/guide#options', 'guide', targets)).toBe('./#options');
    expect(gitUrlOf('/pages/guide', 'guide/deep', targets)).toBe('../');
    expect(gitUrlOf('/pages/guide', '', targets)).toBe('guide/');
    expect(gitUrlOf('/pages/deep', '', targets)).toBe('guide/deep/');
    expect(gitUrlOf('/pages/home', 'guide/deep', targets)).toBe('../../');
    expect(gitUrlOf('/pages/home', '', targets)).toBe('./');
    expect(gitUrlOf('/pages/other', 'guide', targets)).toBe('../other.md');
  });

  it('name files by their path to the assets folder, and leave any other address alone', () => {
    expect(gitUrlOf('/files/logo', 'guide/deep', targets)).toBe('../../.gitbook/assets/logo (1).png');
    expect(gitUrlOf('/files/logo', '', targets)).toBe('.gitbook/assets/logo (1).png');
    expect(gitUrlOf('/pages/unknown', '', targets)).toBeUndefined();
    expect(gitUrlOf('/files/unknown', '', targets)).toBeUndefined();
    expect(gitUrlOf('https://example.com/pages/setup', '', targets)).toBeUndefined();
  });
});

describe('what a repository holds that the format cannot take', () => {
  it('is named, one problem each, and the rest is read', () => {
    const files = new Map<string, Uint8Array>([
      ...encode({
        '.gitbook.yaml':
          'root: ./\nstructure: [not, a, mapping]\nredirects:\n  away: ../outside.md\n  gone: nowhere.md\n',
        'SUMMARY.md': [
          '# Table of contents',
          '',
          '* [Home](README.md)',
          '* [Missing](missing.md)',
          '  * [Kept under home](kept.md)',
          '* [Escape](../../etc/passwd.md)',
          '* [FTP](ftp://example.com/file)',
          '* Just text',
          '### A third-level heading',
          '* [Home twice](README.md)',
        ].join('\n'),
        'README.md': '# Home\n',
        'kept.md': '# Kept\n',
        'unlisted.md': '# Unlisted\n',
        '.gitbook/assets/nested/x.png': 'x',
      }),
      ['latin1.md', Buffer.from([0x23, 0x20, 0xe9, 0x0a])],
    ]);
    const { content, problems } = readRepository(files);
    expect(content.entries.map((entry) => [entry.kind, entry.title])).toEqual([
      ['page', 'Home'],
      ['page', 'Kept under home'],
      ['link', 'Home twice'],
    ]);
    expect(content.config).toEqual({ root: '', readme: 'README.md', summary: 'SUMMARY.md' });
    expect(content.redirects).toEqual([]);
    expect(content.files).toEqual([]);
    expect(problems).toEqual([
      { kind: 'bad-config', path: '.gitbook.yaml', message: '.gitbook.yaml: structure must be a mapping' },
      {
        kind: 'outside-root',
        path: '.gitbook.yaml',
        message: '.gitbook.yaml: redirects: away leads out of the root (../outside.md)',
      },
      {
        kind: 'asset-in-folder',
        path: '.gitbook/assets/nested/x.png',
        message:
          '.gitbook/assets/nested/x.png is in a folder of .gitbook/assets/, where files are found by name alone; left out',
      },
      { kind: 'not-utf8', path: 'latin1.md', message: 'latin1.md is not UTF-8 text; read with replacement characters' },
      {
        kind: 'bad-entry',
        path: 'SUMMARY.md',
        line: 8,
        message: 'SUMMARY.md:8: "* Just text" is no [Title](link) item; left out',
      },
      {
        kind: 'bad-entry',
        path: 'SUMMARY.md',
        line: 9,
        message: 'SUMMARY.md:9: only one # title and ## groups are read; "### A third-level heading" is left out',
      },
      {
        kind: 'missing-page',
        path: 'SUMMARY.md',
        line: 4,
        message: 'SUMMARY.md:4: "missing.md" names no page file (missing.md); left out',
      },
      {
        kind: 'outside-root',
        path: 'SUMMARY.md',
        line: 6,
        message: 'SUMMARY.md:6: "../../etc/passwd.md" leads out of the root; left out',
      },
      {
        kind: 'bad-entry',
        path: 'SUMMARY.md',
        line: 7,
        message: 'SUMMARY.md:7: "ftp://example.com/file" is no http, https or mailto address; left out',
      },
      {
        kind: 'listed-twice',
        path: 'SUMMARY.md',
        line: 10,
        message: 'SUMMARY.md:10: README.md is listed again; read as a link to the page',
      },
      {
        kind: 'unlisted-page',
        path: 'latin1.md',
        message: 'latin1.md is not in SUMMARY.md; left out, as GitBook leaves it out',
      },
      {
        kind: 'unlisted-page',
        path: 'unlisted.md',
        message: 'unlisted.md is not in SUMMARY.md; left out, as GitBook leaves it out',
      },
      {
        kind: 'missing-page',
        path: '.gitbook.yaml',
        message: '.gitbook.yaml: the redirect of gone names no page file (nowhere.md); left out',
      },
    ]);
  });

  it('keeps the defaults of a config that is not YAML, or whose root leads out of the project', () => {
    const notYaml = readRepository(encode({ '.gitbook.yaml': 'root: [unclosed\n', 'README.md': '# Home\n' }));
    expect(notYaml.problems).toEqual([
      {
        kind: 'bad-config',
        path: '.gitbook.yaml',
        message: '.gitbook.yaml: is not a YAML mapping; its defaults are used',
      },
    ]);
    expect(notYaml.content.entries).toHaveLength(1);
    const escaping = readRepository(encode({ 'docs/.gitbook.yaml': 'root: ../../\n', 'docs/README.md': '# Home\n' }), {
      projectDirectory: 'docs',
    });
    expect(escaping.problems).toEqual([
      {
        kind: 'outside-root',
        path: 'docs/.gitbook.yaml',
        message: 'docs/.gitbook.yaml: root must be a folder inside the project',
      },
    ]);
    expect(escaping.content.entries.map((entry) => entry.title)).toEqual(['Home']);
  });

  it('refuses a repository over a limit whole, with one problem naming the limit', () => {
    const many = new Map<string, Uint8Array>();
    for (let i = 0; i <= REPOSITORY_LIMITS.files; i++) many.set(`docs/p${i}.md`, new Uint8Array(1));
    expect(readRepository(many)).toEqual({
      content: {
        config: { root: '', readme: 'README.md', summary: 'SUMMARY.md' },
        entries: [],
        files: [],
        redirects: [],
      },
      fingerprints: { structure: expect.any(String), pages: {}, assets: {} },
      problems: [
        {
          kind: 'over-limit',
          path: '',
          message: `The repository has over ${REPOSITORY_LIMITS.files} files (REPOSITORY_LIMITS.files); nothing is read`,
        },
      ],
    });

    // One buffer under many names: the bytes are counted, not held.
    const mebibyte = new Uint8Array(1024 * 1024);
    const heavy = new Map<string, Uint8Array>();
    for (let i = 0; i <= REPOSITORY_LIMITS.bytes / mebibyte.length; i++)
      heavy.set(`.gitbook/assets/f${i}.bin`, mebibyte);
    expect(readRepository(heavy).problems).toEqual([
      {
        kind: 'over-limit',
        path: '',
        message: `The repository holds over ${REPOSITORY_LIMITS.bytes} bytes (REPOSITORY_LIMITS.bytes); nothing is read`,
      },
    ]);

    const deep = ['# Table of contents', ''];
    for (let level = 0; level <= REPOSITORY_LIMITS.summaryDepth; level++)
      deep.push(`${'  '.repeat(level)}* [P${level}](p${level}.md)`);
    expect(readRepository(encode({ 'SUMMARY.md': deep.join('\n') })).problems).toEqual([
      {
        kind: 'over-limit',
        path: 'SUMMARY.md',
        message: `SUMMARY.md nests entries over ${REPOSITORY_LIMITS.summaryDepth} levels deep (REPOSITORY_LIMITS.summaryDepth); nothing is read`,
      },
    ]);

    const long = ['# Table of contents', ''];
    for (let i = 0; i <= REPOSITORY_LIMITS.summaryEntries; i++) long.push(`* [P${i}](https://example.com/${i})`);
    expect(readRepository(encode({ 'SUMMARY.md': long.join('\n') })).problems).toEqual([
      {
        kind: 'over-limit',
        path: 'SUMMARY.md',
        message: `SUMMARY.md has over ${REPOSITORY_LIMITS.summaryEntries} entries (REPOSITORY_LIMITS.summaryEntries); nothing is read`,
      },
    ]);
  });

  it('reads a summary line of brackets and parentheses in one pass', () => {
    const line = `* [${'['.repeat(50_000)}](${'('.repeat(50_000)}`;
    const files = encode({ 'SUMMARY.md': `# Table of contents\n\n${line}\n` });
    const { problems } = finishes(() => readRepository(files));
    expect(problems.map((problem) => problem.kind)).toEqual(['bad-entry']);
  });
});

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false });
addFormats(ajv);
ajv.addFormat('emoji', { type: 'string', validate: isEmoji });
const validateBody = ajv.compile(UpdateContentBody);

/** Each write as the content route's body schema takes it. */
function expectValidWrites(writes: unknown[][]): void {
  for (const changes of writes) {
    const valid = validateBody({ changes });
    expect(valid, ajv.errorsText(validateBody.errors)).toBe(true);
  }
}

describe('the content writes of a repository', () => {
  it('insert the assets, then the groups and pages in order into their parents, then the links in their places', () => {
    const writes = changesOfRepository(FIXTURE_CONTENT);
    expectValidWrites(writes);
    const base64 = (bytes: Buffer) => bytes.toString('base64');
    const into = (ref: string) => ({ into: ref });
    const doc = (path: keyof typeof PAGES) => ({ document: { markdown: PAGES[path] } });
    expect(writes).toEqual([
      [
        {
          operation: 'insert_files',
          files: [
            { name: 'architecture diagram.png', contentType: 'image/png', base64: base64(PNG) },
            { name: 'cover.png', contentType: 'image/png', base64: base64(PNG) },
            { name: 'release notes (1).pdf', contentType: 'application/pdf', base64: base64(PDF) },
          ],
        },
      ],
      [
        { operation: 'insert_page', ref: 'README.md', title: 'Welcome', ...doc('README.md') },
        {
          operation: 'insert_page',
          ref: 'changelog.md',
          title: 'Changelog',
          slug: 'changelog',
          ...doc('changelog.md'),
        },
        { operation: 'insert_page', ref: 'group:0', type: 'group', title: 'Getting started', slug: 'getting-started' },
        {
          operation: 'insert_page',
          ref: 'getting-started/quickstart.md',
          title: 'Quickstart',
          slug: 'quickstart',
          ...into('group:0'),
          ...doc('getting-started/quickstart.md'),
        },
        {
          operation: 'insert_page',
          ref: 'getting-started/installation/README.md',
          title: 'Installation',
          slug: 'installation',
          ...into('group:0'),
          ...doc('getting-started/installation/README.md'),
        },
        {
          operation: 'insert_page',
          ref: 'getting-started/installation/on-linux.md',
          title: 'On Linux',
          slug: 'on-linux',
          ...into('getting-started/installation/README.md'),
          ...doc('getting-started/installation/on-linux.md'),
        },
        {
          operation: 'insert_page',
          ref: 'getting-started/installation/on-macos/README.md',
          title: 'On macOS',
          slug: 'on-macos',
          ...into('getting-started/installation/README.md'),
          ...doc('getting-started/installation/on-macos/README.md'),
        },
        {
          operation: 'insert_page',
          ref: 'getting-started/installation/on-macos/with-homebrew.md',
          title: 'With Homebrew',
          slug: 'with-homebrew',
          ...into('getting-started/installation/on-macos/README.md'),
          ...doc('getting-started/installation/on-macos/with-homebrew.md'),
        },
        { operation: 'insert_page', ref: 'group:1', type: 'group', title: 'Reference', slug: 'reference' },
        {
          operation: 'insert_page',
          ref: 'reference/api.md',
          title: 'API',
          slug: 'api',
          ...into('group:1'),
          ...doc('reference/api.md'),
        },
        {
          operation: 'insert_page',
          type: 'link',
          title: 'Status',
          at: 2,
          target: { kind: 'url', url: 'https://status.example.com' },
        },
        {
          operation: 'insert_page',
          type: 'link',
          title: 'Linux packages',
          ...into('getting-started/installation/README.md'),
          at: 2,
          target: { kind: 'anchor', anchor: 'packages', page: 'getting-started/installation/on-linux.md' },
        },
        {
          operation: 'insert_page',
          type: 'link',
          title: 'Support',
          ...into('group:1'),
          at: 1,
          target: { kind: 'url', url: 'mailto:support@example.com' },
        },
      ],
    ]);
  });

  it('split into writes the route takes, which name the pages of earlier writes by the ids they were given', () => {
    const children = Array.from({ length: 120 }, (_, i) => ({
      kind: 'page' as const,
      title: `Page ${i}`,
      path: `guide/page-${i}.md`,
      markdown: `# Page ${i}\n\n${'Text. '.repeat(200)}\n`,
      children: [],
    }));
    const content: RepositoryContent = {
      config: { root: '', readme: 'README.md', summary: 'SUMMARY.md' },
      entries: [
        { kind: 'page', title: 'Guide', path: 'guide/README.md', markdown: '# Guide\n', children },
        { kind: 'link', title: 'First page', target: { path: 'guide/page-0.md', anchor: '' } },
      ],
      files: Array.from({ length: 45 }, (_, i) => ({
        name: `image-${i}.png`,
        contentType: 'image/png',
        bytes: new Uint8Array(200 * 1024),
      })),
      redirects: [],
    };
    const writes = changesOfRepository(content, { bytesPerWrite: 64 * 1024 });
    expectValidWrites(writes);
    for (const write of writes) {
      const bytes = Buffer.byteLength(JSON.stringify(write));
      // A write over the budget holds one change alone: here, files of 200 KiB each.
      if (bytes > 64 * 1024)
        expect(write.reduce((count, change) => count + ('files' in change ? change.files.length : 1), 0)).toBe(1);
    }
    const fileChanges = writes.flat().filter((change) => change.operation === 'insert_files');
    expect(fileChanges.flatMap((change) => change.files.map((file) => file.name))).toEqual(
      content.files.map((file) => file.name),
    );
    const pageWrites = writes.filter((write) => write[0]!.operation === 'insert_page');
    expect(pageWrites.length).toBeGreaterThanOrEqual(3);
    expect(pageWrites.flat()).toHaveLength(122);

    // The writes as a client sends them: each bound to the ids the earlier ones answered with.
    const written = new Map<string, string>();
    const sent = pageWrites.map((write, index) => {
      const bound = bindWrite(write, written);
      recordCreatedPages(
        {
          changes: bound.flatMap((change) =>
            change.operation === 'insert_page' && change.ref
              ? [{ object: 'created_page', ref: change.ref, page: { id: `id-${change.ref}` } }]
              : [],
          ),
        },
        written,
      );
      return { index, bound };
    });
    const later = sent.find(({ index }) => index > 0)!.bound[0]!;
    expect(later).toMatchObject({ operation: 'insert_page', into: 'id-guide/README.md' });
    expect(sent.at(-1)!.bound.at(-1)).toEqual({
      operation: 'insert_page',
      type: 'link',
      title: 'First page',
      at: 1,
      target: { kind: 'page', page: 'id-guide/page-0.md' },
    });
  });

  it('take a file over the inline limit by the URL it was uploaded to, and refuse to send it inline', () => {
    const big = { name: 'recording.mp4', contentType: 'video/mp4', bytes: new Uint8Array(1024 * 1024 + 1) };
    const content: RepositoryContent = { ...FIXTURE_CONTENT, files: [big] };
    expect(filesToUpload(content)).toEqual([big]);
    expect(() => changesOfRepository(content)).toThrow(
      'recording.mp4 is over the 1048576 bytes a file may have inline: upload it and name its URL',
    );
    const url = 'http://docs.test/storage/uploads/abc?signature=x';
    const writes = changesOfRepository(content, { urls: new Map([['recording.mp4', url]]) });
    expectValidWrites(writes);
    expect(writes[0]).toEqual([
      { operation: 'insert_files', files: [{ name: 'recording.mp4', contentType: 'video/mp4', url }] },
    ]);
  });
});
