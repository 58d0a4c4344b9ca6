import { describe, expect, it } from 'vitest';
import { buildOwnApp, listen, testConfig, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

const t = useTestApp();
const api = contentApi(() => t.app);

/** Bodies that froze the whole service for 7 to 230 seconds when they were parsed on the event loop. */
const KNOWN_SLOW_BODIES: Record<string, string> = {
  'ordered markers on one line, 17.6 KB': '1. '.repeat(6_000),
  'quoted list markers, 15.6 KB': '> - '.repeat(4_000),
  'quote markers, 50 KB': '>'.repeat(50_000),
  'emphasis delimiters, 60 KB': '*a'.repeat(30_000),
  'ordered markers on one line, 60 KB': '1. '.repeat(20_000),
};

/** Markdown of the shapes whose parse time grows faster than the text: deep nesting, many containers, delimiter runs. */
function* generatedSlowBodies(): Generator<[string, string]> {
  for (const depth of [33, 200, 5_000]) {
    for (const marker of ['1. ', '- ', '* ', '+ ', '> ', '>', '> 1. ', '2) '])
      yield [`"${marker}" × ${depth}`, `${marker.repeat(depth)}text`];
  }
  // Indentation nests too: every four columns before a marker count as a level.
  for (const depth of [100, 300]) {
    yield [
      `${depth} levels of indented lists`,
      Array.from({ length: depth }, (_, level) => `${'  '.repeat(level)}- item`).join('\n'),
    ];
  }
  for (const count of [2_001, 10_000]) {
    for (const run of ['*a', '_a', '~a', '**a', '*_', 'a*b ']) yield [`"${run}" × ${count}`, run.repeat(count)];
    yield [`${count} quotes`, '> quote\n\n'.repeat(count)];
    yield [`${count} lists between paragraphs`, '- item\n\ntext\n\n'.repeat(count)];
    yield [`${count} nested lists`, '- a\n  - b\n'.repeat(count)];
  }
}

const SLOW_BODIES = [...Object.entries(KNOWN_SLOW_BODIES), ...generatedSlowBodies()];

/** An organization with a space holding one page and one comment, as its admin. */
async function organizationWithContent(pageMarkdown: string) {
  const admin = await t.factory.account();
  const organization = await t.factory.organization(admin.user.id);
  const space = await api.createSpace(admin, organization.id, { title: 'Docs' });
  const { written } = await api.change(admin, space.id, [
    { operation: 'insert_page', title: 'Guide', document: { markdown: pageMarkdown } },
  ]);
  const pageId = written.changes[0].page.id as string;
  const comment = await t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${space.id}/comments`,
    headers: admin.headers,
    payload: { body: { markdown: 'A *remark*.' } },
  });
  expect(comment.statusCode).toBe(200);
  return { admin, organization, space, pageId };
}

describe('no request stalls the service', () => {
  // Each body is refused by a limit read in one pass (markdown-bounds.test.ts), before any parsing: the message
  // names the limit. How fast the other organization's reads stay meanwhile is the bench's to measure.
  it('refuses each slow body by its limits, as a comment and as a page, while another organization is answered throughout', async () => {
    const base = await listen(t.app);
    const reader = await organizationWithContent(
      '# Guide\n\nSome *text* with a [link](https://example.com).\n\n- one\n- two\n',
    );
    const attacker = await organizationWithContent('Mine.');
    const changeRequest = (
      await api.createChangeRequest(attacker.admin, attacker.space.id, { subject: 'Bombs' })
    ).json().id as string;

    // Bodies are serialised up front: this process is the server too, and its own client's work would count as the server's.
    const http = (account: Account, method: string, path: string, body?: string) =>
      fetch(`${base}${path}`, {
        method,
        headers: { ...account.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body }),
      });
    const attacks = SLOW_BODIES.flatMap(([name, markdown]) => [
      {
        name,
        route: 'comment',
        path: `/v1/spaces/${attacker.space.id}/comments`,
        body: JSON.stringify({ body: { markdown } }),
      },
      {
        name,
        route: 'page',
        path: `/v1/spaces/${attacker.space.id}/change-requests/${changeRequest}/content`,
        body: JSON.stringify({ changes: [{ operation: 'insert_page', title: 'Bomb', document: { markdown } }] }),
      },
    ]);

    // The other organization reads its page and its comments, both as documents, the whole time.
    const paths = [
      `/v1/spaces/${reader.space.id}/content/page/${reader.pageId}?format=document`,
      `/v1/spaces/${reader.space.id}/comments?format=document`,
      `/v1/spaces/${reader.space.id}/content/pages`,
    ];
    // The first reads of each route compile what it needs, before the attacks begin.
    for (const path of paths) await (await http(reader.admin, 'GET', path)).arrayBuffer();
    let attacking = true;
    const readStatuses: number[] = [];
    const reads = (async () => {
      for (let i = 0; attacking; i += 1) {
        const res = await http(reader.admin, 'GET', paths[i % paths.length]!);
        await res.arrayBuffer();
        if (attacking) readStatuses.push(res.status);
      }
    })();

    const refusals: Array<{ name: string; route: string; status: number; message: string }> = [];
    for (const attack of attacks) {
      const res = await http(attacker.admin, 'POST', attack.path, attack.body);
      const body = (await res.json()) as { error: { message: string } };
      refusals.push({ name: attack.name, route: attack.route, status: res.status, message: body.error?.message });
    }
    attacking = false;
    await reads;

    for (const refusal of refusals) {
      expect(refusal.status, `${refusal.route}: ${refusal.name}`).toBe(400);
      // A comment over its length limit is refused by that limit first.
      expect(`${refusal.route}: ${refusal.message}`).toMatch(
        /nests too deeply|more than \d+ (quote and list blocks|emphasis delimiters)|comment.*must NOT have more than 65536 characters/,
      );
    }
    // Answered while the attacks went on, each of them.
    expect(readStatuses.length).toBeGreaterThan(0);
    expect(readStatuses.filter((status) => status !== 200)).toEqual([]);

    // Nothing of the refused bodies was stored.
    const comments = await t.db.selectFrom('comments').select('id').where('space_id', '=', attacker.space.id).execute();
    expect(comments).toHaveLength(1);
    const pages = (
      await api.read(attacker.admin, `/v1/spaces/${attacker.space.id}/change-requests/${changeRequest}/content/pages`)
    ).json().pages;
    expect(pages.map((page: { title: string }) => page.title)).toEqual(['Guide']);
  });

  it('reads the stored document of pages and comments, and converts nothing on a read', async () => {
    const { admin, space, pageId } = await organizationWithContent(
      '# Guide\n\nA paragraph with **bold** text.\n\n> A quote\n',
    );
    const stored = await t.db
      .selectFrom('documents')
      .innerJoin('page_versions', 'page_versions.document_id', 'documents.id')
      .select(['documents.markdown', 'documents.document'])
      .where('page_versions.page_id', '=', pageId)
      .executeTakeFirstOrThrow();
    expect(stored.document).toMatchObject({
      object: 'document',
      nodes: [{ type: 'paragraph' }, { type: 'blockquote' }],
    });
    const comment = await t.db
      .selectFrom('comments')
      .select(['body', 'body_document'])
      .where('space_id', '=', space.id)
      .executeTakeFirstOrThrow();
    expect(comment.body_document).toMatchObject({ object: 'document', nodes: [{ type: 'paragraph' }] });

    // A new app has nothing cached: its reads come from the stored documents alone.
    const fresh = await buildOwnApp(testConfig(t.database.url));
    try {
      const conversions: string[] = [];
      const original = fresh.conversions.toDocumentJson.bind(fresh.conversions);
      fresh.conversions.toDocumentJson = (markdown, field) => {
        conversions.push(field);
        return original(markdown, field);
      };
      const page = await fresh.inject({
        method: 'GET',
        url: `/v1/spaces/${space.id}/content/page/${pageId}`,
        headers: admin.headers,
      });
      expect(page.statusCode).toBe(200);
      expect(page.json().document).toEqual(stored.document);
      const list = await fresh.inject({
        method: 'GET',
        url: `/v1/spaces/${space.id}/comments`,
        query: { format: 'document' },
        headers: admin.headers,
      });
      expect(list.json().items[0].body.document).toEqual(comment.body_document);
      expect(conversions).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('makes, once, the document of rows written before documents were kept', async () => {
    const { admin, space, pageId } = await organizationWithContent('Old *page*.');
    await t.db.updateTable('documents').set({ document: null }).where('space_id', '=', space.id).execute();
    await t.db.updateTable('comments').set({ body_document: null }).where('space_id', '=', space.id).execute();

    const fresh = await buildOwnApp(testConfig(t.database.url));
    try {
      const page = await fresh.inject({
        method: 'GET',
        url: `/v1/spaces/${space.id}/content/page/${pageId}`,
        headers: admin.headers,
      });
      expect(page.json().document.nodes[0]).toMatchObject({ type: 'paragraph' });
      const list = await fresh.inject({
        method: 'GET',
        url: `/v1/spaces/${space.id}/comments`,
        query: { format: 'document' },
        headers: admin.headers,
      });
      expect(list.json().items[0].body.document.nodes[0]).toMatchObject({ type: 'paragraph' });
    } finally {
      await fresh.close();
    }
    const documents = await t.db.selectFrom('documents').select('document').where('space_id', '=', space.id).execute();
    expect(documents.every((row) => row.document !== null)).toBe(true);
    const comments = await t.db
      .selectFrom('comments')
      .select('body_document')
      .where('space_id', '=', space.id)
      .execute();
    expect(comments.every((row) => row.body_document !== null)).toBe(true);
  });
});

describe('a conversion past its deadline', () => {
  it('is stopped and answered 400 naming the limit, and the next conversion is served', async () => {
    const { admin, space } = await organizationWithContent('Page.');
    // Within every markdown limit, but about a second of parsing on a fast machine (2.6 s on a slow one): far past
    // a 400 ms deadline, which a small conversion on the thread started after the stop meets even on a loaded slow
    // machine (at 100 ms, one there was not).
    const slow = '> quote\n\n'.repeat(1_990);
    const strict = await buildOwnApp(
      testConfig(t.database.url, { conversion: { threads: 1, timeoutMs: 400, queueWaitMs: 120_000 } }),
    );
    try {
      const post = (markdown: string) =>
        strict.inject({
          method: 'POST',
          url: `/v1/spaces/${space.id}/comments`,
          headers: admin.headers,
          payload: { body: { markdown } },
        });
      // Starting the thread is not the task's time: the first conversion is served.
      expect((await post('Warm up.')).statusCode).toBe(200);
      // Only a stop refuses a conversion this way: one left to run its second would have answered 200.
      const refused = await post(slow);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toMatch(
        /^body\/body took longer than \d+ ms to read and was stopped: it is too large or too complex$/,
      );
      const next = await post('Served **after** it.');
      expect(next.statusCode).toBe(200);
      expect(next.json().body).toEqual({ markdown: 'Served **after** it.' });
    } finally {
      await strict.close();
    }
    const bodies = (await t.db.selectFrom('comments').select('body').where('space_id', '=', space.id).execute()).map(
      (row) => row.body,
    );
    expect(bodies.sort()).toEqual(['A *remark*.', 'Served **after** it.', 'Warm up.']);
  });
});
