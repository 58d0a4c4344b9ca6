import { beforeAll, describe, expect, it } from 'vitest';
import { dereferenceDocument, dereferenceMarkdown, MAX_DEREFERENCED_NODES } from '../src/content/dereference.js';
import type { JSONDocument } from '../src/document/index.js';
import { useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let outsider: Account;

beforeAll(async () => {
  team = await t.factory.team(['read']);
  outsider = await t.factory.account();
});

const client = newestClientOf(() => t.app);

const get = (account: Account | undefined, url: string, query: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, query, headers: account?.headers ?? {} });

/** The document id a page's newest version holds. */
async function documentOfPage(pageId: string): Promise<string> {
  const row = await t.db
    .selectFrom('page_versions')
    .select('document_id')
    .where('page_id', '=', pageId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return row.document_id!;
}

const textsOf = (nodes: unknown): string[] =>
  JSON.stringify(nodes)
    .match(/"text":"[^"]*"/g)!
    .map((text) => text.slice(8, -1));

/**
 * A space with a reusable content `Notice` ("Write to support.") and a page
 * `Guide` that includes it between two paragraphs, merged.
 */
async function spaceWithInclude(visibility: 'private' | 'public' = 'private') {
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Handbook', visibility });
  const cr = await api.openChangeRequest(team.admin, space.id);
  const written = await api.writeContent(
    team.admin,
    space.id,
    cr,
    [{ operation: 'insert_reusable_content', title: 'Notice', document: { markdown: 'Write to support.\n' } }],
    { compat: 'false' },
  );
  expect(written.statusCode, written.body).toBe(200);
  const notice = (written.json().insertedReusableContents as Array<{ id: string }>)[0]!.id;
  expect((await api.merge(team.admin, space.id, cr)).json()).toMatchObject({ result: 'merge' });
  const markdown = `Before.\n\n{% include "/reusable-contents/${notice}" %}\n\nAfter.\n`;
  await api.change(team.admin, space.id, [
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown } },
    { operation: 'insert_page', ref: 'faq', title: 'FAQ', document: { markdown: 'Questions.' } },
  ]);
  const content = (await get(team.admin, `/v1/spaces/${space.id}/content`)).json() as {
    id: string;
    pages: Array<{ id: string; title: string }>;
  };
  const guide = content.pages.find((page) => page.title === 'Guide')!.id;
  const faq = content.pages.find((page) => page.title === 'FAQ')!.id;
  return { spaceId: space.id, revisionId: content.id, notice, guide, faq };
}

describe('getDocumentById', () => {
  it('answers a page’s document by its id to members, as the spec answers, through the newest client too', async () => {
    const { spaceId, faq } = await spaceWithInclude();
    const documentId = await documentOfPage(faq);
    const res = await get(team.member('read'), `/v1/spaces/${spaceId}/documents/${documentId}`);
    expect(res.statusCode, res.body).toBe(200);
    expectNewestSpecResponse('getDocumentById', 200, res.json());
    expect(res.json()).toMatchObject({ object: 'document', nodes: [{ type: 'paragraph' }] });
    expect(textsOf(res.json().nodes)).toEqual(['Questions.']);
    for (const schema of ['current', 'next']) {
      const same = await get(team.admin, `/v1/spaces/${spaceId}/documents/${documentId}`, { schema });
      expect(same.json()).toEqual(res.json());
    }
    const { data } = await (await client(team.admin)).spaces.getDocumentById(spaceId, documentId);
    expectNewestSpecResponse('getDocumentById', 200, data);
    expect(data).toEqual(res.json());
  });

  it('shows a change request’s document to members, and to visitors only what the current revision holds', async () => {
    const { spaceId, faq } = await spaceWithInclude('public');
    const published = await documentOfPage(faq);
    const cr = await api.openChangeRequest(team.admin, spaceId);
    const written = await api.writeContent(
      team.admin,
      spaceId,
      cr,
      [{ operation: 'update_page', page: faq, document: { markdown: 'Draft answers.' } }],
      { compat: 'false' },
    );
    expect(written.statusCode, written.body).toBe(200);
    const draft = await documentOfPage(faq);
    expect(draft).not.toBe(published);

    const byMember = await get(team.member('read'), `/v1/spaces/${spaceId}/documents/${draft}`);
    expect(byMember.statusCode).toBe(200);
    expect(textsOf(byMember.json().nodes)).toEqual(['Draft answers.']);
    const visitorPublished = await get(outsider, `/v1/spaces/${spaceId}/documents/${published}`);
    expect(visitorPublished.statusCode).toBe(200);
    expect(textsOf(visitorPublished.json().nodes)).toEqual(['Questions.']);
    const visitorDraft = await get(outsider, `/v1/spaces/${spaceId}/documents/${draft}`);
    expect(visitorDraft.statusCode).toBe(404);
    expect(visitorDraft.json()).toEqual({ error: { code: 404, message: 'No document with this id in the space' } });
  });

  it('answers 404 for an unknown id, another space’s document and a private space, 400 for a bad schema', async () => {
    const { spaceId, faq } = await spaceWithInclude();
    const documentId = await documentOfPage(faq);
    const other = await spaceWithInclude();
    expect((await get(team.admin, `/v1/spaces/${other.spaceId}/documents/${documentId}`)).statusCode).toBe(404);
    expect((await get(team.admin, `/v1/spaces/${spaceId}/documents/NoSuchDocument000000`)).statusCode).toBe(404);
    const stranger = await get(outsider, `/v1/spaces/${spaceId}/documents/${documentId}`);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.message).toBe('No space with this id is visible to you');
    expect((await get(undefined, `/v1/spaces/${spaceId}/documents/${documentId}`)).statusCode).toBe(401);
    const narrow = await t.factory.token(team.admin.user.id, { scopes: ['user:read'] });
    expect((await get(narrow, `/v1/spaces/${spaceId}/documents/${documentId}`)).statusCode).toBe(403);
    const bad = await get(team.admin, `/v1/spaces/${spaceId}/documents/${documentId}`, { schema: 'old' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/querystring\/schema/);
  });
});

describe('getPageDocumentInRevisionById', () => {
  it('answers the page’s document, its reusable contents expanded with dereferenced, as the spec answers', async () => {
    const { spaceId, revisionId, guide, notice } = await spaceWithInclude();
    const url = `/v1/spaces/${spaceId}/revisions/${revisionId}/page/${guide}/document`;
    const plain = await get(team.member('read'), url);
    expect(plain.statusCode, plain.body).toBe(200);
    expectNewestSpecResponse('getPageDocumentInRevisionById', 200, plain.json());
    expect(plain.json().nodes).toEqual([
      expect.objectContaining({ type: 'paragraph' }),
      expect.objectContaining({
        type: 'reusable-content',
        data: { ref: { kind: 'reusable-content', reusableContent: notice } },
      }),
      expect.objectContaining({ type: 'paragraph' }),
    ]);
    for (const dereferenced of ['true', 'reusable-contents']) {
      const expanded = await get(team.member('read'), url, { dereferenced });
      expect(expanded.statusCode).toBe(200);
      expectNewestSpecResponse('getPageDocumentInRevisionById', 200, expanded.json());
      expect(expanded.json().nodes.map((node: { type: string }) => node.type)).toEqual([
        'paragraph',
        'paragraph',
        'paragraph',
      ]);
      expect(textsOf(expanded.json().nodes)).toEqual(['Before.', 'Write to support.', 'After.']);
    }
    expect((await get(team.admin, url, { dereferenced: 'false' })).json()).toEqual(plain.json());
    const { data } = await (
      await client(team.admin)
    ).spaces.getPageDocumentInRevisionById(spaceId, revisionId, guide, {
      dereferenced: true,
    });
    expect(textsOf(data.nodes)).toEqual(['Before.', 'Write to support.', 'After.']);
  });

  it('answers 404 for an unknown page or revision and to strangers, 400 for a bad option', async () => {
    const { spaceId, revisionId, guide } = await spaceWithInclude();
    const url = `/v1/spaces/${spaceId}/revisions/${revisionId}/page/${guide}/document`;
    expect(
      (await get(team.admin, `/v1/spaces/${spaceId}/revisions/${revisionId}/page/NoSuchPage/document`)).statusCode,
    ).toBe(404);
    expect(
      (await get(team.admin, `/v1/spaces/${spaceId}/revisions/NoSuchRevision/page/${guide}/document`)).statusCode,
    ).toBe(404);
    expect((await get(outsider, url)).statusCode).toBe(404);
    for (const query of [{ dereferenced: 'yes' }, { evaluated: 'maybe' }] as Array<Record<string, string>>) {
      const res = await get(team.admin, url, query);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/querystring\/(dereferenced|evaluated)/);
    }
  });
});

describe('dereferenced on page reads', () => {
  it('expands included reusable contents in a page read by id or path, as a document or as markdown', async () => {
    const { spaceId, guide, notice } = await spaceWithInclude();
    const byId = `/v1/spaces/${spaceId}/content/page/${guide}`;
    const plain = await get(team.admin, byId, { format: 'markdown' });
    expect(plain.json().markdown).toContain(`{% include "/reusable-contents/${notice}" %}`);
    const markdown = await get(team.admin, byId, { format: 'markdown', dereferenced: 'true' });
    expect(markdown.statusCode).toBe(200);
    expectNewestSpecResponse('getPageById', 200, markdown.json());
    expect(markdown.json().markdown).not.toContain('{% include');
    expect(markdown.json().markdown).toMatch(/Before\.\s+Write to support\.\s+After\./);

    const document = await get(team.admin, `/v1/spaces/${spaceId}/content/path/guide`, {
      dereferenced: 'reusable-contents',
    });
    expect(document.statusCode).toBe(200);
    expectNewestSpecResponse('getPageByPath', 200, document.json());
    expect(textsOf(document.json().document.nodes)).toEqual(['Before.', 'Write to support.', 'After.']);
    // Without it, the reference stays.
    const kept = await get(team.admin, byId);
    expect(kept.json().document.nodes[1]).toMatchObject({ type: 'reusable-content' });
    expect((await get(team.admin, byId, { dereferenced: 'all' })).statusCode).toBe(400);
  });
});

describe('dereferencing bounds', () => {
  const include = (id: string) => ({
    object: 'block',
    type: 'reusable-content',
    data: { ref: { kind: 'reusable-content', reusableContent: id } },
    isVoid: true,
  });
  const paragraph = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 'x' }] }] };
  const doc = (nodes: unknown[]) => ({ object: 'document', data: {}, nodes }) as unknown as JSONDocument;

  it('leaves a reusable content that includes itself, or one the revision lacks, a reference', () => {
    const documents = new Map([['loop', doc([paragraph, include('loop')])]]);
    const result = dereferenceDocument(doc([include('loop'), include('gone')]), (id) => documents.get(id), 'page p');
    expect(result.nodes).toEqual([paragraph, include('loop'), include('gone')]);
    expect(
      dereferenceMarkdown(
        'a {% include "/reusable-contents/loop" %} b',
        () => 'in {% include "/reusable-contents/loop" %}',
        {
          maxLength: 1000,
          field: 'page p',
        },
      ),
    ).toBe('a in {% include "/reusable-contents/loop" %} b');
  });

  it('refuses an expansion that multiplies past its bound, rather than building it', () => {
    const wide = (id: string) => doc(Array.from({ length: 100 }, () => include(id)));
    const documents = new Map([
      ['a', wide('b')],
      ['b', wide('c')],
      ['c', doc(Array.from({ length: 100 }, () => paragraph))],
    ]);
    expect(() => dereferenceDocument(wide('a'), (id) => documents.get(id), 'page p')).toThrow(
      `The dereferenced page p would hold more than ${MAX_DEREFERENCED_NODES} nodes`,
    );
    const text = (id: string) => `{% include "/reusable-contents/${id}" %}`.repeat(100);
    expect(() =>
      dereferenceMarkdown(text('a'), (id) => (id === 'c' ? 'x'.repeat(1000) : text(id === 'a' ? 'b' : 'c')), {
        maxLength: 1_000_000,
        field: 'page p',
      }),
    ).toThrow('longer than 1000000 characters');
  });
});
