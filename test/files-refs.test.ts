import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const PDF = Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n').toString('base64');
const BYTES = Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe, 0xff]).toString('base64');

async function workspace() {
  const team = await t.factory.team();
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  const cr = await api.openChangeRequest(team.admin, space.id);
  return { ...team, space, cr };
}

async function write(admin: Account, spaceId: string, cr: string, changes: unknown[]) {
  const res = await api.writeContent(admin, spaceId, cr, changes, { compat: 'false' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    changes: Array<{ ref?: string; page: { id: string } }>;
    insertedFiles: Array<{ id: string; name: string; contentType: string; dimensions?: object }>;
  };
}

async function markdownOf(admin: Account, spaceId: string, cr: string, pageId: string): Promise<string> {
  const res = await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}`, {
    format: 'markdown',
  });
  expect(res.statusCode).toBe(200);
  return res.json().markdown as string;
}

describe('files named by their Git Sync path or their name', () => {
  it('resolve to the space file of that name in images, links and file blocks, in a later write', async () => {
    const { admin, space, cr } = await workspace();
    const first = await write(admin, space.id, cr, [
      {
        operation: 'insert_files',
        files: [
          { name: 'image (1).png', base64: PNG },
          { name: 'guide.pdf', base64: PDF },
          { name: 'data.bin', base64: BYTES },
        ],
      },
    ]);
    const [image, guide, data] = first.insertedFiles;
    // Without contentType, the bytes say it, else the name's extension, else octet-stream.
    expect(first.insertedFiles.map((file) => [file.name, file.contentType])).toEqual([
      ['image (1).png', 'image/png'],
      ['guide.pdf', 'application/pdf'],
      ['data.bin', 'application/octet-stream'],
    ]);
    expect(image!.dimensions).toEqual({ width: 1, height: 1 });

    const body = [
      '![Encoded](../.gitbook/assets/image%20(1).png)',
      '',
      '![Bracketed](<../.gitbook/assets/image (1).png>)',
      '',
      '[From the root](/.gitbook/assets/guide.pdf) and [by name](image%20(1).png) and [bare](data.bin#part)',
      '',
      '{% file src="../.gitbook/assets/guide.pdf" %}',
      '',
      '```',
      '{% file src="../.gitbook/assets/guide.pdf" %}',
      '```',
      '',
      '[Missing](../.gitbook/assets/nope.png) and [outside](../../elsewhere/.gitbook/assets/guide.pdf)',
      '',
    ].join('\n');
    const second = await write(admin, space.id, cr, [
      { operation: 'insert_page', title: 'Guides', ref: 'guides', document: {} },
      {
        operation: 'insert_page',
        title: 'Intro',
        into: 'guides',
        ref: 'guides/intro.md',
        document: { markdown: body },
      },
    ]);
    const intro = second.changes.find((change) => change.ref === 'guides/intro.md')!.page.id;
    expect(await markdownOf(admin, space.id, cr, intro)).toBe(
      [
        `![Encoded](/files/${image!.id})`,
        '',
        `![Bracketed](/files/${image!.id})`,
        '',
        `[From the root](/files/${guide!.id}) and [by name](/files/${image!.id}) and [bare](/files/${data!.id}#part)`,
        '',
        `{% file src="/files/${guide!.id}" %}`,
        '',
        '```',
        '{% file src="../.gitbook/assets/guide.pdf" %}',
        '```',
        '',
        '[Missing](../.gitbook/assets/nope.png) and [outside](../../elsewhere/.gitbook/assets/guide.pdf)',
        '',
      ].join('\n'),
    );
    const document = await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr}/content/page/${intro}`);
    expectSpecResponse('getPageInChangeRequestById', 200, document.json());
    expect(JSON.stringify(document.json().document)).toContain(`{"kind":"file","file":"${guide!.id}"}`);
  });

  it("never resolves another organization's file, and picks the newest of two files sharing a name", async () => {
    const mine = await workspace();
    const theirs = await workspace();
    await write(theirs.admin, theirs.space.id, theirs.cr, [
      { operation: 'insert_files', files: [{ name: 'shared.png', base64: PNG }] },
    ]);
    const older = await write(mine.admin, mine.space.id, mine.cr, [
      { operation: 'insert_files', files: [{ name: 'dup.png', base64: PNG }] },
    ]);
    const newer = await write(mine.admin, mine.space.id, mine.cr, [
      { operation: 'insert_files', files: [{ name: 'dup.png', base64: PDF, contentType: 'image/png' }] },
    ]);
    const twins = await write(mine.admin, mine.space.id, mine.cr, [
      {
        operation: 'insert_files',
        files: [
          { name: 'twin.png', base64: PNG },
          { name: 'twin.png', base64: BYTES },
        ],
      },
    ]);
    const written = await write(mine.admin, mine.space.id, mine.cr, [
      {
        operation: 'insert_page',
        title: 'Uses',
        document: {
          markdown: '![a](.gitbook/assets/shared.png) ![b](.gitbook/assets/dup.png) ![c](.gitbook/assets/twin.png)\n',
        },
      },
    ]);
    const twin = [...twins.insertedFiles].sort((a, b) => (a.id < b.id ? -1 : 1))[0]!;
    expect(older.insertedFiles[0]!.id).not.toBe(newer.insertedFiles[0]!.id);
    expect(await markdownOf(mine.admin, mine.space.id, mine.cr, written.changes[0]!.page.id)).toBe(
      `![a](.gitbook/assets/shared.png) ![b](/files/${newer.insertedFiles[0]!.id}) ![c](/files/${twin.id})\n`,
    );
  });

  it('resolves a file inserted later in the same batch, by name, and a cover by path', async () => {
    const { admin, space, cr } = await workspace();
    const written = await write(admin, space.id, cr, [
      {
        operation: 'insert_page',
        title: 'Early',
        document: { markdown: '---\ncover: .gitbook/assets/late.png\n---\n\n![late](late.png)\n' },
      },
      { operation: 'insert_files', files: [{ name: 'late.png', base64: PNG }] },
    ]);
    const late = written.insertedFiles[0]!.id;
    const pageId = written.changes[0]!.page.id;
    expect(await markdownOf(admin, space.id, cr, pageId)).toContain(`![late](/files/${late})\n`);
    const page = await api.read(admin, `/v1/spaces/${space.id}/change-requests/${cr}/content/page/${pageId}`);
    expect(page.json().cover).toEqual({ ref: { kind: 'file', file: late }, yPos: 0 });
  });
});

describe('a refused change of a batch', () => {
  it('names the page, its path or ref and its index, and nothing of the batch is stored', async () => {
    const { admin, space, cr } = await workspace();
    const first = await write(admin, space.id, cr, [
      { operation: 'insert_page', title: 'Guides', ref: 'guides', document: {} },
      { operation: 'insert_page', title: 'Setup', into: 'guides', document: { markdown: 'Setup.' } },
    ]);
    const setup = first.changes[1]!.page.id;
    const before = (await api.getChangeRequest(admin, space.id, cr)).json().revision;
    const batch = Array.from({ length: 50 }, (_, index) => ({
      operation: 'insert_page',
      ref: `pages/page-${index}.md`,
      document: { markdown: `# Page ${index}\n\nText.\n` },
    }));
    batch[37] = {
      operation: 'insert_page',
      ref: 'pages/page-37.md',
      document: { markdown: '---\nhidden: maybe\n---\n\n# Broken\n' },
    };
    const refused = await api.writeContent(admin, space.id, cr, batch);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: {
        code: 400,
        message:
          'body/changes/37/document frontmatter field hidden must be true or false ' +
          '(refused: change 37 of 50, page "Broken", ref "pages/page-37.md"; nothing of the batch was written)',
      },
    });

    const update = await api.writeContent(admin, space.id, cr, [
      { operation: 'update_page', page: setup, document: { markdown: '---\nlayout:\n  width: 3\n---\nx' } },
    ]);
    expect(update.statusCode).toBe(400);
    expect(update.json().error.message).toContain('(refused: change 0 of 1, page "Setup" at "guides/setup";');

    const slug = await api.writeContent(admin, space.id, cr, [
      { operation: 'insert_page', title: 'Other', into: first.changes[0]!.page.id, slug: 'setup', document: {} },
    ]);
    expect(slug.statusCode).toBe(409);
    expect(slug.json().error.message).toContain('(refused: change 0 of 1, page "Other";');
    expect((await api.getChangeRequest(admin, space.id, cr)).json().revision).toBe(before);
  });
});
