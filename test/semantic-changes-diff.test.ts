import { describe, expect, it } from 'vitest';
import { diffBlocks, type DiffBlock } from '../src/change-requests/semantic-changes/block-diff.js';
import { revisionDiff } from '../src/change-requests/semantic-changes/revision-diff.js';
import type { RevisionSide } from '../src/change-requests/semantic-changes/semantic.js';
import { markdownToDocument } from '../src/document/from-markdown.js';
import { expectNewestSpecSchema } from './support/spec.js';
import type { FileState, PageState } from '../src/content/tree.js';
import type { ReusableContentState } from '../src/content/reusable-contents.js';

const blocks = (markdown: string) => markdownToDocument(markdown).nodes as unknown as DiffBlock[];
const text = (block: DiffBlock | undefined) =>
  JSON.stringify(block)
    .match(/"text":"([^"]*)"/g)
    ?.join(' ');

/** What a diff says, with each block reduced to its type and text, for exact assertions. */
function summary(markdownBefore: string, markdownAfter: string) {
  return diffBlocks(blocks(markdownBefore), blocks(markdownAfter)).map((change) =>
    change.change === 'edited'
      ? {
          change: 'edited',
          type: change.after.type,
          ...(change.lines ? { lines: change.lines } : {}),
          ...(change.rows ? { rows: change.rows } : {}),
        }
      : { change: change.change, type: change.block.type, text: text(change.block) },
  );
}

describe('block diff of two documents', () => {
  it('keeps unchanged blocks, and shows a paragraph inserted and one deleted', () => {
    expect(summary('# Title\n\nOne.\n\nTwo.\n', '# Title\n\nTwo.\n\nThree.\n')).toEqual([
      { change: 'unchanged', type: 'heading-1', text: '"text":"Title"' },
      { change: 'deleted', type: 'paragraph', text: '"text":"One."' },
      { change: 'unchanged', type: 'paragraph', text: '"text":"Two."' },
      { change: 'inserted', type: 'paragraph', text: '"text":"Three."' },
    ]);
  });

  it('shows an edit inside a code block as the lines that changed, not the block replaced', () => {
    const before = '```js\nconst a = 1;\nconst b = 2;\nconst c = 3;\n```\n';
    const after = '```js\nconst a = 1;\nconst b = 20;\nconst c = 3;\nconst d = 4;\n```\n';
    expect(summary(before, after)).toEqual([
      {
        change: 'edited',
        type: 'code',
        lines: [
          { change: 'unchanged', text: 'const a = 1;' },
          { change: 'deleted', text: 'const b = 2;' },
          { change: 'inserted', text: 'const b = 20;' },
          { change: 'unchanged', text: 'const c = 3;' },
          { change: 'inserted', text: 'const d = 4;' },
        ],
      },
    ]);
  });

  it('shows an edit inside a table as rows edited cell by cell, inserted and deleted', () => {
    const before = '| Name | Price |\n|---|---|\n| Tea | 2 |\n| Coffee | 3 |\n| Water | 1 |\n';
    const after = '| Name | Price |\n|---|---|\n| Tea | 2 |\n| Coffee | 4 |\n| Juice | 5 |\n';
    expect(summary(before, after)).toEqual([
      {
        change: 'edited',
        type: 'table',
        rows: [
          { change: 'unchanged', cells: ['Tea', '2'] },
          { change: 'edited', before: ['Coffee', '3'], after: ['Coffee', '4'] },
          { change: 'edited', before: ['Water', '1'], after: ['Juice', '5'] },
        ],
      },
    ]);
  });

  it('pairs a removed block with an added one of its type only, keys aside', () => {
    // Inserting a block renumbers the keys of every block after it: the diff ignores them.
    expect(summary('Intro.\n\n- a\n- b\n', 'New first.\n\nIntro.\n\n- a\n- c\n')).toEqual([
      { change: 'inserted', type: 'paragraph', text: '"text":"New first."' },
      { change: 'unchanged', type: 'paragraph', text: '"text":"Intro."' },
      { change: 'edited', type: 'list-unordered' },
    ]);
  });

  it('shows a whole document inserted where there was none', () => {
    expect(summary('', 'Hello.\n')).toEqual([{ change: 'inserted', type: 'paragraph', text: '"text":"Hello."' }]);
  });
});

const at = new Date('2026-01-01T00:00:00.000Z');
function page(id: string, fields: Partial<PageState> = {}): PageState {
  return {
    pageId: id,
    versionId: `${id}-v1`,
    parentId: null,
    position: 'a0',
    type: 'document',
    title: id,
    slug: id.toLowerCase(),
    emoji: null,
    icon: null,
    description: null,
    documentId: `${id}-doc1`,
    layout: null,
    cover: null,
    variables: {},
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    target: null,
    href: null,
    computed: null,
    pageCreatedAt: at.toISOString(),
    updatedAt: at.toISOString(),
    ...fields,
  };
}
const file = (id: string, fields: Partial<FileState> = {}): FileState => ({
  fileId: id,
  versionId: `${id}-v1`,
  name: `${id}.png`,
  contentType: 'image/png',
  sha256: 'x',
  size: 10,
  width: 4,
  height: 3,
  createdAt: at,
  ...fields,
});
const reusable = (id: string, fields: Partial<ReusableContentState> = {}): ReusableContentState => ({
  reusableContentId: id,
  versionId: `${id}-v1`,
  title: id,
  documentId: `${id}-doc1`,
  createdAt: at,
  updatedAt: at,
  ...fields,
});
const side = (fields: Partial<RevisionSide>): RevisionSide => ({
  pages: [],
  files: [],
  variables: {},
  reusableContents: [],
  ...fields,
});
const json = (markdown: string) => JSON.stringify(markdownToDocument(markdown));

describe('semantic changes between two revisions', () => {
  it('names moves, renames, edits, deletions, files, variables and reusable contents exactly', () => {
    const guide = page('Guide', { position: 'a0' });
    const setup = page('Setup', { parentId: 'Guide', position: 'a0' });
    const faq = page('Faq', { position: 'a1' });
    const old = page('Old', { position: 'a2' });
    const before = side({
      pages: [guide, setup, faq, old],
      files: [file('logo'), file('gone'), file('photo')],
      variables: { product: 'Quire', version: 1, beta: true },
      reusableContents: [reusable('Legal'), reusable('Footer'), reusable('Notice')],
    });
    const after = side({
      pages: [
        guide,
        // Moved to the top level, after the FAQ.
        { ...setup, versionId: 'Setup-v2', parentId: null, position: 'a3' },
        // Renamed: a new title and slug, and its document edited.
        { ...faq, versionId: 'Faq-v2', title: 'Questions', slug: 'questions', documentId: 'Faq-doc2' },
        page('New', { position: 'a4', documentId: 'New-doc1' }),
      ],
      files: [file('logo'), file('photo', { versionId: 'photo-v2', size: 20, width: 8, height: 6 }), file('added')],
      variables: { product: 'Quire 2', version: 1, channel: 'stable' },
      reusableContents: [reusable('Legal'), reusable('Footer', { versionId: 'Footer-v2', title: 'Page footer' })],
    });
    const diff = revisionDiff({
      before,
      after,
      documents: {
        'Faq-doc1': json('Ask us.\n\n```sh\nnpm install\n```\n'),
        'Faq-doc2': json('Ask us.\n\n```sh\nnpm ci\n```\n'),
        'New-doc1': json('Fresh.\n'),
        'Old-doc1': json('Bye.\n'),
      },
      tooLarge: [],
    });
    expect(diff.changes).toEqual([
      {
        type: 'page_edited',
        page: { id: 'Faq', type: 'document', title: 'Questions', path: 'questions' },
        attributes: {
          title: { before: 'Faq', after: 'Questions' },
          slug: { before: 'faq', after: 'questions' },
          document: { before: 'Faq-doc1', after: 'Faq-doc2' },
        },
      },
      {
        type: 'page_moved',
        page: { id: 'Setup', type: 'document', title: 'Setup', path: 'setup' },
        parent: { before: { id: 'Guide', type: 'document', title: 'Guide', path: 'guide' } },
      },
      { type: 'page_created', page: { id: 'New', type: 'document', title: 'New', path: 'new' } },
      { type: 'page_deleted', page: { id: 'Old', type: 'document', title: 'Old', path: 'old' } },
      // Files in the order they were created, ties by id.
      {
        type: 'file_created',
        file: { id: 'added', versionId: 'added-v1', name: 'added.png', contentType: 'image/png' },
      },
      {
        type: 'file_edited',
        file: { id: 'photo', versionId: 'photo-v2', name: 'photo.png', contentType: 'image/png' },
        attributes: {
          size: { before: 10, after: 20 },
          dimensions: { before: { width: 4, height: 3 }, after: { width: 8, height: 6 } },
        },
      },
      { type: 'file_deleted', file: { id: 'gone', versionId: 'gone-v1', name: 'gone.png', contentType: 'image/png' } },
      {
        type: 'variables_edited',
        variables: {
          beta: { before: true },
          channel: { after: 'stable' },
          product: { before: 'Quire', after: 'Quire 2' },
        },
      },
      {
        type: 'reusable_content_edited',
        reusableContent: { id: 'Footer', title: 'Page footer', document: 'Footer-doc1' },
        attributes: { title: { before: 'Footer', after: 'Page footer' } },
      },
      {
        type: 'reusable_content_deleted',
        reusableContent: { id: 'Notice', title: 'Notice', document: 'Notice-doc1' },
      },
    ]);
    const pages = Object.fromEntries(diff.pages.map((entry) => [entry.pageId, JSON.parse(entry.diff)]));
    expect(Object.keys(pages)).toEqual(['Faq', 'New', 'Old']);
    expect(pages.Faq.blocks.map((change: { change: string }) => change.change)).toEqual(['unchanged', 'edited']);
    expect(pages.Faq.blocks[1].lines).toEqual([
      { change: 'deleted', text: 'npm install' },
      { change: 'inserted', text: 'npm ci' },
    ]);
    expect(pages.New.blocks.map((change: { change: string }) => change.change)).toEqual(['inserted']);
    expect(pages.Old.blocks.map((change: { change: string }) => change.change)).toEqual(['deleted']);
  });

  it('names a reorder among siblings, a group renamed and a link retargeted, each in the spec’s shape', () => {
    const group = page('Group', { type: 'group', documentId: null, position: 'a0' });
    const first = page('First', { parentId: 'Group', position: 'a0' });
    const second = page('Second', { parentId: 'Group', position: 'a1' });
    const link = page('Link', {
      type: 'link',
      documentId: null,
      position: 'a1',
      target: { kind: 'url', url: 'https://example.com/a' },
    });
    const before = side({ pages: [group, first, second, link] });
    const after = side({
      pages: [
        { ...group, versionId: 'Group-v2', title: 'Chapters', slug: 'chapters', emoji: '1f4d6' },
        // Second moved before First, under the same parent.
        { ...second, versionId: 'Second-v2', position: 'Zz' },
        first,
        { ...link, versionId: 'Link-v2', target: { kind: 'url', url: 'https://example.com/b' } },
      ],
    });
    const { changes } = revisionDiff({ before, after, documents: {}, tooLarge: [] });
    const chapters = { id: 'Group', type: 'group', title: 'Chapters', path: 'chapters' };
    expect(changes).toEqual([
      {
        type: 'page_edited',
        page: chapters,
        attributes: {
          title: { before: 'Group', after: 'Chapters' },
          emoji: { after: '1f4d6' },
          slug: { before: 'group', after: 'chapters' },
        },
      },
      {
        type: 'page_moved',
        page: { id: 'Second', type: 'document', title: 'Second', path: 'chapters/second' },
        parent: { before: { ...chapters, title: 'Group', path: 'group' }, after: chapters },
      },
      {
        type: 'page_edited',
        page: { id: 'Link', type: 'link', title: 'Link' },
        attributes: {
          target: {
            before: { kind: 'url', url: 'https://example.com/a' },
            after: { kind: 'url', url: 'https://example.com/b' },
          },
        },
      },
    ]);
    expectNewestSpecSchema('RevisionPageGroupChangeAttributes', (changes[0] as { attributes: object }).attributes);
    expectNewestSpecSchema('RevisionSemanticChangePageMoved', changes[1]);
    expectNewestSpecSchema('RevisionPageLinkChangeAttributes', (changes[2] as { attributes: object }).attributes);
  });

  it('names a page’s documents too large to diff rather than diffing them', () => {
    const before = side({ pages: [page('Big')] });
    const after = side({ pages: [page('Big', { versionId: 'Big-v2', documentId: 'Big-doc2' })] });
    const diff = revisionDiff({ before, after, documents: { 'Big-doc1': json('A.\n') }, tooLarge: ['Big-doc2'] });
    expect(diff.pages).toEqual([{ pageId: 'Big', diff: '{"tooLarge":true}' }]);
  });

  it('finds nothing between a revision and itself', () => {
    const same = side({ pages: [page('A')], files: [file('f')], variables: { a: 1 } });
    expect(revisionDiff({ before: same, after: same, documents: {}, tooLarge: [] })).toEqual({
      changes: [],
      pages: [],
    });
  });
});
