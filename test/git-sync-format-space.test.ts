import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../src/core/errors.js';
import {
  bindWrite,
  changesOfRepository,
  filesToUpload,
  readRepository,
  recordCreatedPages,
  repositoryOfSpace,
  writeRepository,
  type RepositoryContent,
} from '../src/git-sync/format/index.js';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { countStatements } from './support/statements.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const t = useTestApp();
const api = contentApi(() => t.app);

// A Git Sync repository of our own, in GitBook's canonical form and with what
// a space holds. A space cannot hold:
// - `.gitbook.yaml` (its root and redirects are no part of a space);
// - frontmatter keys a page has no field for (`tags`, a skill's `name`), nor
//   a frontmatter in another YAML style than GitBook's (it holds the values);
// - a `# Title` line that differs from the summary's title (the page has one
//   title), and pages SUMMARY.md does not list (left out, as GitBook leaves them);
// - a link to a page with subpages written as its README.md (it comes back as
//   GitBook writes it, its folder: `install/`);
// - a link entry to a page without an anchor before that page is listed.
// Everything else below comes back byte for byte.

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const LAYOUT = (width: string, cover: boolean, outline = true) =>
  [
    'layout:',
    `  width: ${width}`,
    ...(cover ? ['  cover:', '    visible: true', '    size: hero', '    mask: none'] : []),
    ...['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions'].flatMap(
      (option) => [`  ${option}:`, `    visible: ${option === 'outline' ? outline : true}`],
    ),
  ].join('\n');

const FILES: Record<string, string | Buffer> = {
  'SUMMARY.md': `# Table of contents

* [Welcome](README.md)
* [Changelog](changelog.md)
* [Status](https://status.example.com)

## Start here <a href="#getting-started" id="getting-started"></a>

* [Quickstart](getting-started/quickstart.md)
* [Installation](getting-started/installation/README.md)
  * [On Linux](getting-started/installation/on-linux.md)
  * [On macOS](getting-started/installation/on-macos/README.md)
    * [With Homebrew](getting-started/installation/on-macos/with-homebrew.md)
  * [Linux packages](getting-started/installation/on-linux.md#packages)

## Reference

* [API](reference/api.md)
* [Glossary](reference/glossary.md)

***

* [Contact](contact.md)
`,
  'README.md': `---
description: Everything about the service.
${LAYOUT('default', false)}
---

# Welcome

Start with the [quickstart](getting-started/quickstart.md), then read the [API](reference/api.md#authentication).
`,
  'changelog.md': `---
description: >-
  Every release of the service, newest first, with what changed in it and what
  to do about it when you upgrade.
---

# Changelog

## 1.0

The first release.
`,
  'getting-started/quickstart.md': `# Quickstart

![Architecture](<../.gitbook/assets/architecture diagram.png>)

<figure><img src="../.gitbook/assets/cover.png" alt="The cover"><figcaption><p>The cover</p></figcaption></figure>

Install it as [Installation](installation/) says, or go back [home](../).

{% file src="../.gitbook/assets/release notes (1).pdf" %}
Release notes
{% endfile %}
`,
  'getting-started/installation/README.md': `---
description: Install the service on your machine.
icon: download
cover: ../../.gitbook/assets/cover.png
coverY: 0
${LAYOUT('wide', true, false)}
---

# Installation

Pick your system: [Linux](on-linux.md) or [macOS](on-macos/), as [this page](./#pick-your-system) says.

{% content-ref url="on-linux.md" %}
[on-linux.md](on-linux.md)
{% endcontent-ref %}
`,
  'getting-started/installation/on-linux.md':
    '---\ndescription: "Packages\\_for the distributions we build"\nhidden: true\nnoIndex: true\n---\n\n# On Linux\n\n## Packages\n\nInstall the package of your [distribution](./).\n',
  'getting-started/installation/on-macos/README.md': '# On macOS\n\nUse [Homebrew](with-homebrew.md).\n',
  'getting-started/installation/on-macos/with-homebrew.md': `# With Homebrew

<picture><source srcset="../../../.gitbook/assets/dark logo.png" media="(prefers-color-scheme: dark)"><img src="../../../.gitbook/assets/logo.png" alt="Logo"></picture>

Run \`brew install quire\`, as in [the changelog](../../../changelog.md#id-1.0).
`,
  'reference/glossary.md': '---\nicon: book\n---\n\n# Glossary\n\n',
  'contact.md': "---\ndescription: 'Note: we answer within a day.'\n---\n\n# Contact\n\nWrite to us.\n",
  'reference/api.md': `# API

## Authentication

Send a token. See the [changelog](../changelog.md) and [a page to come](missing.md).

\`\`\`markdown
[An example, not a link](/files/example)
\`\`\`
`,
  '.gitbook/assets/architecture diagram.png': PNG,
  '.gitbook/assets/cover.png': PNG,
  '.gitbook/assets/logo.png': PNG,
  '.gitbook/assets/dark logo.png': Buffer.concat([PNG, Buffer.from([0])]),
  '.gitbook/assets/release notes (1).pdf': Buffer.from('%PDF-1.4\n% release notes\n'),
  // Over the inline limit: written through a storage upload.
  '.gitbook/assets/recording.mp4': Buffer.alloc(1024 * 1024 + 512, 7),
};

const fixture = () => new Map(Object.entries(FILES).map(([path, value]) => [path, Buffer.from(value) as Uint8Array]));

/** Files as comparable values: text for markdown, hex for the rest. */
function comparable(files: ReadonlyMap<string, Uint8Array>): Record<string, string> {
  return Object.fromEntries(
    [...files]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([path, bytes]) => [
        path,
        path.endsWith('.md') ? Buffer.from(bytes).toString('utf8') : Buffer.from(bytes).toString('hex'),
      ]),
  );
}

/** Uploads a file through the storage routes and returns the URL a content write names it by. */
async function upload(
  account: Account,
  organizationId: string,
  file: { name: string; contentType: string; bytes: Uint8Array },
) {
  const announced = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}/storage/upload`,
    headers: account.headers,
    payload: {
      file: { name: file.name, type: file.contentType, size: file.bytes.byteLength },
      kind: 'organization_file',
    },
  });
  expect(announced.statusCode, announced.body).toBe(201);
  const { url } = announced.json() as { url: string };
  const put = await t.app.inject({
    method: 'PUT',
    url: url.slice(PUBLIC_URL.length),
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(file.bytes),
  });
  expect(put.statusCode, put.body).toBe(200);
  return url;
}

/** Writes the content into a new space through one change request, as a client would, and merges it. */
async function importIntoNewSpace(
  account: Account,
  organizationId: string,
  content: RepositoryContent,
  bytesPerWrite?: number,
) {
  const space = await api.createSpace(account, organizationId, { title: 'Docs' });
  const changeRequestId = await api.openChangeRequest(account, space.id, 'Import from Git');
  const urls = new Map<string, string>();
  for (const file of filesToUpload(content)) urls.set(file.name, await upload(account, organizationId, file));
  const written = new Map<string, string>();
  const writes = changesOfRepository(content, { urls, ...(bytesPerWrite ? { bytesPerWrite } : {}) });
  for (const write of writes) {
    const answer = await api.writeContent(account, space.id, changeRequestId, bindWrite(write, written), {
      compat: 'false',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    recordCreatedPages(answer.json(), written);
  }
  const merged = await api.merge(account, space.id, changeRequestId);
  expect(merged.json()).toMatchObject({ result: 'merge' });
  return { spaceId: space.id, initialRevision: space.revision, writes: writes.length };
}

describe('a Git Sync repository written into a space and read back', () => {
  it('gives the same files, byte for byte, through writes small enough to name earlier writes by id', async () => {
    const { admin, organization } = await t.factory.team();
    const { content, problems } = readRepository(fixture());
    expect(problems).toEqual([]);
    const imported = await importIntoNewSpace(admin, organization.id, content, 1024);
    expect(imported.writes).toBeGreaterThan(3);
    // The space holds links by id, as the API's markdown read gives them: the files below are written back from those.
    const read = await api.read(admin, `/v1/spaces/${imported.spaceId}/content/path/getting-started/quickstart`, {
      format: 'markdown',
    });
    expect(read.statusCode).toBe(200);
    const stored = read.json().markdown as string;
    expect(stored).toMatch(/^!\[Architecture\]\(\/files\/\w+\)\n/);
    expect(stored).toMatch(/Install it as \[Installation\]\(\/pages\/\w+\) says, or go back \[home\]\(\/pages\/\w+\)/);
    expect(stored).toMatch(/\{% file src="\/files\/\w+" %\}/);

    const back = await repositoryOfSpace(t.app.context, organization.id, imported.spaceId);
    expect(comparable(writeRepository(back))).toEqual(comparable(fixture()));
    expect(back).toEqual(content);
  });

  it("gives back the first page's cover from the root README.md when the page has subpages in its slug's folder", async () => {
    const { admin, organization } = await t.factory.team();
    const files = new Map<string, Uint8Array>([
      ['SUMMARY.md', Buffer.from('# Table of contents\n\n* [Welcome](README.md)\n  * [Tour](welcome/tour.md)\n')],
      [
        'README.md',
        Buffer.from(
          `---\ndescription: Where to start.\ncover: .gitbook/assets/cover.png\ncoverY: 40\n${LAYOUT('wide', true)}\n---\n\n# Welcome\n\nTake the [tour](welcome/tour.md).\n`,
        ),
      ],
      ['welcome/tour.md', Buffer.from('# Tour\n\n![The cover](../.gitbook/assets/cover.png)\n')],
      ['.gitbook/assets/cover.png', PNG],
    ]);
    const { content, problems } = readRepository(files);
    expect(problems).toEqual([]);
    const { spaceId } = await importIntoNewSpace(admin, organization.id, content);
    const back = await repositoryOfSpace(t.app.context, organization.id, spaceId);
    expect(comparable(writeRepository(back))).toEqual(comparable(files));
  });

  it('reads any revision of the space, and a space of the organization only', async () => {
    const { admin, organization } = await t.factory.team();
    const { content } = readRepository(fixture());
    const { spaceId, initialRevision } = await importIntoNewSpace(admin, organization.id, content);

    const empty = await repositoryOfSpace(t.app.context, organization.id, spaceId, initialRevision);
    expect(empty).toEqual({
      config: { root: '', readme: 'README.md', summary: 'SUMMARY.md' },
      entries: [],
      files: [],
      redirects: [],
    });
    expect(comparable(writeRepository(empty))).toEqual({ 'SUMMARY.md': '# Table of contents\n' });

    const other = await t.factory.team();
    await expect(repositoryOfSpace(t.app.context, other.organization.id, spaceId)).rejects.toThrow(NotFoundError);
    await expect(repositoryOfSpace(t.app.context, organization.id, 'no-such-space')).rejects.toThrow(
      'No space with this id in the organization',
    );
    await expect(repositoryOfSpace(t.app.context, organization.id, spaceId, 'no-such-revision')).rejects.toThrow(
      'No revision with this id in the space',
    );
  });

  it('reads a space in as many statements whatever its size', async () => {
    const { admin, organization } = await t.factory.team();
    const small = await importIntoNewSpace(
      admin,
      organization.id,
      readRepository(
        new Map<string, Uint8Array>([
          ['README.md', Buffer.from('# Home\n\n![Logo](.gitbook/assets/logo.png)\n')],
          ['.gitbook/assets/logo.png', PNG],
        ]),
      ).content,
    );
    const large = await importIntoNewSpace(admin, organization.id, readRepository(fixture()).content);
    const readSmall = await countStatements(() => repositoryOfSpace(t.app.context, organization.id, small.spaceId));
    const readLarge = await countStatements(() => repositoryOfSpace(t.app.context, organization.id, large.spaceId));
    expect(readSmall.result.entries).toHaveLength(1);
    expect(readLarge.count).toBe(readSmall.count);
    // The space, its revision, the pages and the files, their markdown, the files' bytes.
    expect(readLarge.count).toBe(6);
  });
});
