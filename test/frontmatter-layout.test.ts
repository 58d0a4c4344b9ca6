import { describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient, officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import { expectNewestSpecResponse, expectNewestSpecSchema, expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A page as Git Sync writes one with a cover and every layout option (our own words, GitBook's form). */
const LANDING = `---
description: Where the tour of the product starts
icon: rocket
cover: ../.gitbook/assets/banner (2).png
coverY: -24
coverHeight: 320
layout:
  width: wide
  cover:
    visible: true
    size: background
    mask: radial
  title:
    visible: false
  description:
    visible: true
  tableOfContents:
    visible: false
  outline:
    visible: true
  pagination:
    visible: false
  metadata:
    visible: true
  tags:
    visible: false
  actions:
    visible: true
hidden: true
---

# Welcome aboard

Read on.
`;

async function workspace() {
  const team = await t.factory.team(['edit']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  const cr = await api.openChangeRequest(team.admin, space.id);
  return { ...team, space, cr };
}

const pageUrl = (spaceId: string, cr: string, pageId: string) =>
  `/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}`;

async function crRevision(spaceId: string, cr: string, admin: Parameters<typeof api.read>[0]) {
  return (await api.getChangeRequest(admin, spaceId, cr)).json().revision as string;
}

describe("GitBook's page frontmatter", () => {
  it('stores the layout, the cover as a file of the space and the flags, and gives them back as the spec shapes them', async () => {
    const { admin, space, cr } = await workspace();
    const res = await api.writeContent(
      admin,
      space.id,
      cr,
      [
        { operation: 'insert_files', files: [{ name: 'banner (2).png', base64: PNG }] },
        { operation: 'insert_page', title: 'Tour', ref: 'tour', document: {} },
        { operation: 'insert_page', ref: 'tour/start.md', into: 'tour', document: { markdown: LANDING } },
      ],
      { compat: 'false' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const fileId = res.json().insertedFiles[0].id as string;
    const byRef = (ref: string) => res.json().changes.find((c: { ref?: string }) => c.ref === ref).page.id as string;
    const pageId = byRef('tour/start.md');

    const page = (await api.read(admin, pageUrl(space.id, cr, pageId), { format: 'markdown' })).json();
    expect(page).toMatchObject({
      title: 'Welcome aboard',
      description: 'Where the tour of the product starts',
      icon: 'rocket',
      hidden: true,
      layout: {
        width: 'wide',
        cover: true,
        coverSize: 'background',
        coverMask: 'radial',
        title: false,
        description: true,
        tableOfContents: false,
        outline: true,
        pagination: false,
        metadata: true,
        tags: false,
        actions: true,
        anchors: true,
      },
      cover: { ref: { kind: 'file', file: fileId }, yPos: -24, height: 320 },
    });
    // A background cover is newer than the seeds' spec (hero or full): the newest spec is this page's reference.
    expectNewestSpecResponse('getPageInChangeRequestById', 200, page);
    expectNewestSpecSchema('RevisionPageDocument', page);
    expectNewestSpecSchema('RevisionPageDocumentCover', page.cover);
    expectNewestSpecSchema('RevisionPageLayoutOptions', page.layout);

    // The markdown gives the frontmatter back in Git Sync's form, the cover by its path from the page's folder.
    expect(page.markdown).toBe(
      [
        '---',
        'description: Where the tour of the product starts',
        'icon: rocket',
        'cover: ../.gitbook/assets/banner (2).png',
        'coverY: -24',
        'coverHeight: 320',
        'layout:',
        '  width: wide',
        '  cover:',
        '    visible: true',
        '    size: background',
        '    mask: radial',
        '  title:',
        '    visible: false',
        '  description:',
        '    visible: true',
        '  tableOfContents:',
        '    visible: false',
        '  outline:',
        '    visible: true',
        '  pagination:',
        '    visible: false',
        '  metadata:',
        '    visible: true',
        '  tags:',
        '    visible: false',
        '  actions:',
        '    visible: true',
        'hidden: true',
        '---',
        '',
        'Read on.',
        '',
      ].join('\n'),
    );

    // Written back as it was read, the markdown makes the same page.
    const again = await api.writeContent(
      admin,
      space.id,
      cr,
      [
        {
          operation: 'insert_page',
          into: byRef('tour'),
          title: 'Welcome aboard',
          document: { markdown: page.markdown },
        },
      ],
      { compat: 'false' },
    );
    expect(again.statusCode, again.body).toBe(200);
    const copyId = again.json().changes[0].page.id as string;
    const copy = (await api.read(admin, pageUrl(space.id, cr, copyId), { format: 'markdown' })).json();
    const same = ['title', 'description', 'icon', 'hidden', 'layout', 'cover', 'markdown'] as const;
    expect(Object.fromEntries(same.map((key) => [key, copy[key]]))).toEqual(
      Object.fromEntries(same.map((key) => [key, page[key]])),
    );
  });

  it('reads a preset layout, a cover mapping and a cover outside the space, and ignores keys GitBook pages lack', async () => {
    const { admin, space, cr } = await workspace();
    const markdown = [
      '---',
      'layout: landing',
      'cover:',
      '  visible: false',
      '  size: full',
      'name: release-notes',
      'metadata:',
      '  version: "2.1"',
      'tags:',
      '  - tag: new',
      '    primary: true',
      '---',
      '',
      'Notes.',
    ].join('\n');
    const external = [
      '---',
      'cover: https://images.example.test/hero.png',
      'coverY: 12',
      'layout:',
      '  width: default',
      '---',
      '',
      'Away.',
    ].join('\n');
    const res = await api.writeContent(
      admin,
      space.id,
      cr,
      [
        { operation: 'insert_page', title: 'Notes', document: { markdown } },
        { operation: 'insert_page', title: 'Away', document: { markdown: external } },
      ],
      { compat: 'false' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const [notesId, awayId] = res.json().changes.map((c: { page: { id: string } }) => c.page.id);
    const notes = (await api.read(admin, pageUrl(space.id, cr, notesId), { format: 'markdown' })).json();
    expect(notes.layout).toEqual({
      width: 'wide',
      cover: false,
      coverSize: 'full',
      coverMask: 'none',
      title: true,
      description: true,
      tableOfContents: false,
      outline: false,
      pagination: false,
      metadata: true,
      tags: true,
      actions: true,
      anchors: true,
    });
    expect(notes.cover).toBeUndefined();
    expectSpecResponse('getPageInChangeRequestById', 200, notes);
    expectNewestSpecResponse('getPageInChangeRequestById', 200, notes);
    expect(notes.markdown).toMatch(/^---\nlayout:\n {2}width: wide\n[^]*\n---\n\nNotes\.\n?$/);
    expect(notes.markdown).not.toContain('release-notes');

    const away = (await api.read(admin, pageUrl(space.id, cr, awayId), { format: 'markdown' })).json();
    expect(away.cover).toEqual({ ref: { kind: 'url', url: 'https://images.example.test/hero.png' }, yPos: 12 });
    expect(away.markdown).toContain('cover: https://images.example.test/hero.png\ncoverY: 12\n');
  });

  it('keeps the markdown of a page without layout or cover as it always was', async () => {
    const { admin, space, cr } = await workspace();
    const res = await api.writeContent(
      admin,
      space.id,
      cr,
      [{ operation: 'insert_page', document: { markdown: '---\ndescription: Plain\n---\n\n# Plain\n\nText.\n' } }],
      { compat: 'false' },
    );
    const page = (
      await api.read(admin, pageUrl(space.id, cr, res.json().changes[0].page.id), { format: 'markdown' })
    ).json();
    expect(page).toMatchObject({ title: 'Plain', description: 'Plain', markdown: 'Text.\n' });
  });

  it('refuses a value of the wrong shape with the page, the key and what it must be, and stores nothing', async () => {
    const { admin, space, cr } = await workspace();
    const before = await crRevision(space.id, cr, admin);
    const page = (frontmatter: string) => ({
      operation: 'insert_page',
      title: 'Shaped',
      ref: 'guides/shaped.md',
      document: { markdown: `---\n${frontmatter}\n---\n\nBody.\n` },
    });
    const cases: Array<[string, string]> = [
      ['layout:\n  width: huge', 'frontmatter field layout.width must be one of default, wide'],
      [
        'layout: sideways',
        'frontmatter field layout must be a mapping of layout options or one of docs, editorial, landing',
      ],
      [
        'layout:\n  title: shown',
        'frontmatter field layout.title must be true, false or a mapping with visible: true or false',
      ],
      [
        'layout:\n  cover:\n    size: tiny',
        'frontmatter field layout.cover.size must be one of hero, full, background',
      ],
      ['layout:\n  cover:\n    mask: star', 'frontmatter field layout.cover.mask must be one of none, radial'],
      ['layout: [1, 2]', 'frontmatter field layout must be a mapping of layout options or a preset name'],
      ['cover: 12', 'frontmatter field cover must be the path or URL of an image'],
      ['cover: a.png\ncoverY: top', 'frontmatter field coverY must be a number'],
      ['cover: a.png\ncoverHeight: 5000', 'frontmatter field coverHeight must be between 10 and 700'],
    ];
    for (const [frontmatter, message] of cases) {
      const res = await api.writeContent(admin, space.id, cr, [
        { operation: 'insert_page', title: 'Fine', document: { markdown: 'Fine.' } },
        page(frontmatter),
      ]);
      expect(res.statusCode, frontmatter).toBe(400);
      const said = res.json().error.message as string;
      expect(said).toContain(`body/changes/1/document ${message}`);
      expect(said).toContain(
        '(refused: change 1 of 2, page "Shaped", ref "guides/shaped.md"; nothing of the batch was written)',
      );
    }
    expect(await crRevision(space.id, cr, admin)).toBe(before);
  });

  it('is read and given back through the official clients', async () => {
    const { admin, space, cr } = await workspace();
    const base = await listen(t.app);
    const newest = newestOfficialClient(base, admin.token);
    const markdown = '---\nlayout:\n  width: wide\n  outline:\n    visible: false\n---\n\n# Wide\n\nRoomy.\n';
    const written = await newest.spaces.updateChangeRequestContent(
      space.id,
      cr,
      { changes: [{ operation: 'insert_page', document: { markdown } }] },
      { compat: false },
    );
    expect(written.status).toBe(200);
    const merged = await api.merge(admin, space.id, cr);
    expect(merged.json()).toMatchObject({ result: 'merge' });
    const client = officialClient(base, admin.token);
    const pages = await client.spaces.listPages(space.id);
    const wide = pages.data.pages[0]!;
    const read = await client.spaces.getPageById(space.id, wide.id, { format: 'markdown' });
    expectSpecResponse('getPageById', 200, read.data);
    expect(read.data).toMatchObject({ title: 'Wide', layout: { width: 'wide', outline: false, title: true } });
    expect((read.data as { markdown: string }).markdown).toContain('layout:\n  width: wide\n');
  });
});
