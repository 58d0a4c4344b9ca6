import { describe, expect, it } from 'vitest';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (
  account: Account,
  method: Method,
  url: string,
  payload?: unknown,
  query?: Record<string, string | string[]>,
) =>
  t.app.inject({
    method,
    url,
    headers: account.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    ...(query ? { query } : {}),
  });

/** An organization with a member of each role, a space with two pages, and the URL of its comments. */
async function spaceWithPages() {
  const team = await t.factory.team(['read', 'comment', 'edit']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  const { written } = await api.change(team.admin, space.id, [
    {
      operation: 'insert_page',
      ref: 'guide',
      title: 'Guide',
      emoji: '📘',
      document: { markdown: 'First paragraph of the guide.\n\nSecond one.\n' },
    },
    { operation: 'insert_page', title: 'Other', into: 'guide', document: { markdown: 'Other page.\n' } },
  ]);
  const [guide, other] = written.changes.map((change: { page: { id: string } }) => change.page.id) as [string, string];
  return { ...team, space, guide, other, comments: `/v1/spaces/${space.id}/comments` };
}

const openCount = async (spaceId: string) =>
  (await t.db.selectFrom('spaces').select('comments_open_count').where('id', '=', spaceId).executeTakeFirstOrThrow())
    .comments_open_count;
const totalCount = async (spaceId: string) =>
  (await t.db.selectFrom('spaces').select('comments_total_count').where('id', '=', spaceId).executeTakeFirstOrThrow())
    .comments_total_count;

describe('space comments', () => {
  it('are posted on the space, a page or a block of it, and read back with every field', async () => {
    const { admin, member, space, guide, comments } = await spaceWithPages();
    const commenter = member('comment');

    const revision = (await call(admin, 'GET', `/v1/spaces/${space.id}`)).json().revision as string;
    const plain = await call(commenter, 'POST', comments, { body: { markdown: 'A **general** remark.' } });
    expect(plain.statusCode).toBe(200);
    expectSpecResponse('postCommentInSpace', 200, plain.json());
    expect(plain.json()).toMatchObject({
      object: 'comment',
      postedBy: { object: 'user', id: commenter.user.id },
      replies: 0,
      reactions: [],
      body: { markdown: 'A **general** remark.' },
      target: { space: space.id, revision },
      status: 'open',
      urls: { location: `${PUBLIC_URL}/v1/spaces/${space.id}/comments/${plain.json().id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(plain.json().target.page).toBeUndefined();
    expect(plain.json().resolvedAt).toBeUndefined();

    const onPage = await call(commenter, 'POST', comments, { page: guide, body: { markdown: 'About the guide' } });
    expect(onPage.json().target.page).toMatchObject({
      id: guide,
      title: 'Guide',
      emoji: '📘',
      path: 'guide',
      outdated: false,
    });
    // Node keys are those of the page's document; the first paragraph is the first block.
    const document = (await api.read(admin, `/v1/spaces/${space.id}/content/page/${guide}`)).json().document;
    const firstBlock = document.nodes[0].key as string;
    const onBlock = await call(commenter, 'POST', comments, { page: guide, node: firstBlock, body: {} });
    expect(onBlock.statusCode).toBe(200);
    expect(onBlock.json().target.node).toEqual({ id: firstBlock, preview: 'First paragraph of the guide.' });
    expect(onBlock.json().body).toEqual({ markdown: '' });

    const got = await call(admin, 'GET', `${comments}/${onBlock.json().id}`);
    expectSpecResponse('getCommentInSpace', 200, got.json());
    // Another caller sees the same comment with their own permissions.
    expect(got.json().permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    const asReader = await call(member('read'), 'GET', `${comments}/${plain.json().id}`);
    expect(asReader.json().permissions).toEqual({ view: true, edit: false, reply: false, delete: false });

    const asDocument = await call(admin, 'GET', `${comments}/${plain.json().id}`, undefined, { format: 'document' });
    expectSpecResponse('getCommentInSpace', 200, asDocument.json());
    expect(asDocument.json().body.markdown).toBeUndefined();
    expect(asDocument.json().body.document).toMatchObject({ object: 'document', nodes: [{ type: 'paragraph' }] });

    expect(await openCount(space.id)).toBe(3);
    expect((await call(admin, 'GET', `/v1/spaces/${space.id}`)).json().comments).toBe(3);
  });

  it('refuse targets missing from the content, bad bodies and bad reactions with 400, storing nothing', async () => {
    const { member, space, guide, comments } = await spaceWithPages();
    const commenter = member('comment');
    const cases: Array<[unknown, string]> = [
      [{ page: 'nope', body: {} }, 'no page nope'],
      [{ page: guide, node: 'zz', body: {} }, 'no block zz'],
      [{ node: '1', body: {} }, 'body/node needs body/page'],
      [{ body: { markdown: 'x'.repeat(65_537) } }, 'body/body'],
      [{ body: { markdown: `${'>'.repeat(10_000)} deep` } }, 'nests too deeply'],
      [{ body: { markdown: 'x', extra: 1 } }, 'body/body'],
      [{}, 'body/body is required'],
      [{ body: { markdown: 'x' }, space: 'other' }, 'body'],
    ];
    for (const [payload, message] of cases) {
      const res = await call(commenter, 'POST', comments, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    expect(await t.db.selectFrom('comments').select('id').where('space_id', '=', space.id).execute()).toEqual([]);
    expect(await openCount(space.id)).toBe(0);

    const posted = (await call(commenter, 'POST', comments, { body: { markdown: 'x' } })).json();
    for (const reactions of [
      ['not an emoji'],
      ['1f389'],
      ['👍👍'],
      Array.from({ length: 21 }, (_, i) => String.fromCodePoint(0x1f600 + i)),
    ]) {
      const res = await call(commenter, 'PUT', `${comments}/${posted.id}`, { addedReactions: reactions });
      expect(res.statusCode, reactions.join(' ')).toBe(400);
    }
    expect((await call(commenter, 'PUT', `${comments}/${posted.id}`, {})).statusCode).toBe(400);
    expect(
      await t.db.selectFrom('comment_reactions').select('emoji').where('comment_id', '=', posted.id).execute(),
    ).toEqual([]);
  });

  it('resolve, reopen, change body and react, with the counter following', async () => {
    const { admin, member, space, comments } = await spaceWithPages();
    const author = member('comment');
    const id = (await call(author, 'POST', comments, { body: { markdown: 'Typo here' } })).json().id as string;
    const url = `${comments}/${id}`;

    const resolved = await call(admin, 'PUT', url, { resolved: true });
    expect(resolved.statusCode).toBe(200);
    expectSpecResponse('updateCommentInSpace', 200, resolved.json());
    expect(resolved.json()).toMatchObject({ status: 'resolved', resolvedBy: { id: admin.user.id } });
    expect(Date.parse(resolved.json().resolvedAt)).not.toBeNaN();
    expect(await openCount(space.id)).toBe(0);
    // Resolving again changes nothing and counts nothing twice.
    expect((await call(admin, 'PUT', url, { resolved: true })).json().resolvedBy.id).toBe(admin.user.id);
    expect(await openCount(space.id)).toBe(0);

    const reopened = await call(author, 'PUT', url, { resolved: false });
    expect(reopened.json().status).toBe('open');
    expect(reopened.json().resolvedAt).toBeUndefined();
    expect(reopened.json().resolvedBy).toBeUndefined();
    expect(await openCount(space.id)).toBe(1);
    const stored = await t.db
      .selectFrom('comments')
      .select(['resolved_at', 'resolved_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ resolved_at: null, resolved_by: null });

    expect((await call(admin, 'PUT', url, { body: { markdown: 'Not mine' } })).statusCode).toBe(403);
    const edited = await call(author, 'PUT', url, { body: { markdown: 'Typo *there*' } });
    expect(edited.json().body).toEqual({ markdown: 'Typo *there*' });
    expect(Date.parse(edited.json().editedAt)).not.toBeNaN();

    await call(author, 'PUT', url, { addedReactions: ['👍', '🎉'] });
    await call(admin, 'PUT', url, { addedReactions: ['👍'] });
    const reacted = await call(admin, 'PUT', url, { addedReactions: ['👍'], removedReactions: ['😀'] });
    // By when each emoji was first used; those first used together, by emoji.
    expect(reacted.json().reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['🎉', 1],
      ['👍', 2],
    ]);
    expect(
      reacted
        .json()
        .reactions[1].users.map((u: { user: { id: string } }) => u.user.id)
        .sort(),
    ).toEqual([author.user.id, admin.user.id].sort());
    const removed = await call(author, 'PUT', url, { removedReactions: ['👍'] });
    expect(removed.json().reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['🎉', 1],
      ['👍', 1],
    ]);
    expect((await call(member('read'), 'PUT', url, { addedReactions: ['👍'] })).statusCode).toBe(403);
  });

  it('show the e-mail of whoever reacted while they are a member, and not once they left', async () => {
    const { admin, member, comments, organization } = await spaceWithPages();
    const [author, reactor, reader] = [member('comment'), member('comment'), member('read')];
    const id = (await call(author, 'POST', comments, { body: { markdown: 'React to me' } })).json().id as string;
    await call(reactor, 'PUT', `${comments}/${id}`, { addedReactions: ['👍'] });
    const reactorShown = async () => {
      const listed = await call(reader, 'GET', comments);
      expect(listed.statusCode).toBe(200);
      expectSpecResponse('listCommentsInSpace', 200, listed.json());
      const [comment] = listed.json().items as Array<{ reactions: Array<{ users: Array<{ user: { id: string } }> }> }>;
      const shown = comment!.reactions[0]!.users[0]!.user;
      expect(shown.id).toBe(reactor.user.id);
      return shown;
    };
    expect(await reactorShown()).toHaveProperty('email', reactor.user.email);

    const removed = await call(admin, 'DELETE', `/v1/orgs/${organization.id}/members/${reactor.user.id}`);
    expect(removed.statusCode).toBeLessThan(300);
    expect(await reactorShown()).not.toHaveProperty('email');
  });

  it('are deleted with their replies by their author or an admin, and by no one else', async () => {
    const { admin, member, space, comments } = await spaceWithPages();
    const author = member('comment');
    const id = (await call(author, 'POST', comments, { body: { markdown: 'Delete me' } })).json().id as string;
    const reply = await call(member('edit'), 'POST', `${comments}/${id}/replies`, { body: { markdown: 'A reply' } });
    await call(member('edit'), 'PUT', `${comments}/${id}/replies/${reply.json().id}`, { addedReactions: ['👍'] });

    expect((await call(member('edit'), 'DELETE', `${comments}/${id}`)).statusCode).toBe(403);
    expect((await call(member('read'), 'DELETE', `${comments}/${id}`)).statusCode).toBe(403);
    const deleted = await call(author, 'DELETE', `${comments}/${id}`);
    expect(deleted.statusCode).toBe(205);
    expect(deleted.body).toBe('');
    expect(await t.db.selectFrom('comment_replies').select('id').where('comment_id', '=', id).execute()).toEqual([]);
    expect(await t.db.selectFrom('comment_reactions').select('emoji').where('comment_id', '=', id).execute()).toEqual(
      [],
    );
    expect(await openCount(space.id)).toBe(0);
    expect((await call(author, 'GET', `${comments}/${id}`)).statusCode).toBe(404);
    expect((await call(author, 'DELETE', `${comments}/${id}`)).statusCode).toBe(404);

    // An admin deletes anyone's; a resolved comment leaves the open counter alone.
    const other = (await call(author, 'POST', comments, { body: { markdown: 'Resolved one' } })).json().id as string;
    await call(author, 'PUT', `${comments}/${other}`, { resolved: true });
    expect(await totalCount(space.id)).toBe(1);
    expect((await call(admin, 'DELETE', `${comments}/${other}`)).statusCode).toBe(205);
    expect(await openCount(space.id)).toBe(0);
    expect(await totalCount(space.id)).toBe(0);
  });

  it('list by status, authors and page, in either order, paginated, with exact counts', async () => {
    const { admin, member, space, guide, comments } = await spaceWithPages();
    const [a, b] = [member('comment'), member('edit')];
    const posted: Array<{ id: string; by: string; page: boolean }> = [];
    for (let i = 0; i < 7; i++) {
      const by = i % 3 === 0 ? a : i % 3 === 1 ? b : admin;
      const res = await call(by, 'POST', comments, {
        ...(i % 2 === 0 ? { page: guide } : {}),
        body: { markdown: `Comment ${i}` },
      });
      posted.push({ id: res.json().id, by: by.user.id, page: i % 2 === 0 });
    }
    await call(admin, 'PUT', `${comments}/${posted[1]!.id}`, { resolved: true });
    await call(admin, 'PUT', `${comments}/${posted[4]!.id}`, { resolved: true });

    const ids = async (query: Record<string, string | string[]>) => {
      const res = await call(admin, 'GET', comments, undefined, query);
      expect(res.statusCode, JSON.stringify(query)).toBe(200);
      expectSpecResponse('listCommentsInSpace', 200, res.json());
      return { ids: res.json().items.map((item: { id: string }) => item.id), count: res.json().count as number };
    };
    const newestFirst = [...posted].reverse();
    expect(await ids({})).toEqual({ ids: newestFirst.map((p) => p.id), count: 7 });
    expect(await ids({ order: 'asc' })).toEqual({ ids: posted.map((p) => p.id), count: 7 });
    expect(await ids({ status: 'resolved' })).toEqual({ ids: [posted[4]!.id, posted[1]!.id], count: 2 });
    expect((await ids({ status: 'open' })).count).toBe(5);
    expect(await ids({ authors: a.user.id })).toEqual({
      ids: newestFirst.filter((p) => p.by === a.user.id).map((p) => p.id),
      count: 3,
    });
    const two = await ids({ authors: [a.user.id, b.user.id] });
    expect(two.ids).toEqual(newestFirst.filter((p) => p.by !== admin.user.id).map((p) => p.id));
    expect(await ids({ targetPage: guide, status: 'open', authors: a.user.id })).toEqual({
      ids: newestFirst.filter((p) => p.page && p.by === a.user.id).map((p) => p.id),
      count: 2,
    });
    expect(await ids({ limit: '0' })).toEqual({ ids: [], count: 7 });
    expect(await ids({ limit: '0', status: 'resolved' })).toEqual({ ids: [], count: 2 });
    expect(await ids({ limit: '2', status: 'open' })).toMatchObject({ count: 5 });
    expect(await ids({ limit: '1', targetPage: guide })).toMatchObject({ count: 4 });

    // Walking pages of 3 gives every comment once, and a cursor only works for its own list.
    const seen: string[] = [];
    let next: string | undefined;
    do {
      const res = await call(admin, 'GET', comments, undefined, { limit: '3', ...(next ? { page: next } : {}) });
      seen.push(...res.json().items.map((item: { id: string }) => item.id));
      next = res.json().next?.page;
      if (next)
        expect((await call(admin, 'GET', comments, undefined, { page: next, status: 'open' })).statusCode).toBe(400);
    } while (next);
    expect(seen).toEqual(newestFirst.map((p) => p.id));

    for (const query of [
      { status: 'closed' },
      { order: 'up' },
      { format: 'html' },
      { limit: '1001' },
      { page: 'nope' },
    ] as Array<Record<string, string>>) {
      expect((await call(admin, 'GET', comments, undefined, query)).statusCode, JSON.stringify(query)).toBe(400);
    }
    expect(await openCount(space.id)).toBe(5);
  });

  it('show a page that changed or is gone as outdated, as it was when it is gone', async () => {
    const { admin, space, guide, other, comments } = await spaceWithPages();
    const onGuide = (await call(admin, 'POST', comments, { page: guide, body: {} })).json().id as string;
    const onOther = (await call(admin, 'POST', comments, { page: other, body: {} })).json().id as string;
    await api.change(admin, space.id, [
      { operation: 'update_page', page: guide, title: 'Handbook', slug: 'handbook' },
      { operation: 'delete_page', page: other },
    ]);
    const guideTarget = (await call(admin, 'GET', `${comments}/${onGuide}`)).json().target.page;
    expect(guideTarget).toMatchObject({ id: guide, title: 'Handbook', path: 'handbook', outdated: true });
    const otherTarget = (await call(admin, 'GET', `${comments}/${onOther}`)).json();
    expectSpecResponse('getCommentInSpace', 200, otherTarget);
    expect(otherTarget.target.page).toMatchObject({ id: other, title: 'Other', path: 'guide/other', outdated: true });
  });

  it('answer 401 without a token, 404 outside the space, and refuse every write on a locked space', async () => {
    const { admin, member, space, comments } = await spaceWithPages();
    const id = (await call(admin, 'POST', comments, { body: { markdown: 'x' } })).json().id as string;
    const before = await t.db
      .selectFrom('comments')
      .select(['id', 'status', 'body'])
      .where('space_id', '=', space.id)
      .execute();
    const anonymous = { headers: {} } as Account;
    for (const [method, url, payload] of [
      ['GET', comments],
      ['POST', comments, { body: {} }],
      ['PUT', `${comments}/${id}`, { resolved: true }],
      ['DELETE', `${comments}/${id}`],
      ['POST', `${comments}/${id}/replies`, { body: {} }],
      ['GET', `/v1/spaces/${space.id}/commenters`],
    ] as Array<[Method, string, unknown]>) {
      expect((await call(anonymous, method, url, payload)).statusCode, `${method} ${url}`).toBe(401);
    }
    const outsider = await t.factory.account();
    expect((await call(outsider, 'GET', comments)).statusCode).toBe(404);
    expect((await call(outsider, 'POST', comments, { body: {} })).statusCode).toBe(404);
    expect((await call(admin, 'GET', `${comments}/nope`)).statusCode).toBe(404);
    // A comment of another space is not found through this one.
    const elsewhere = await api.createSpace(
      admin,
      (await t.db.selectFrom('spaces').select('organization_id').where('id', '=', space.id).executeTakeFirstOrThrow())
        .organization_id,
    );
    expect((await call(admin, 'GET', `/v1/spaces/${elsewhere.id}/comments/${id}`)).statusCode).toBe(404);
    expect((await call(member('read'), 'POST', comments, { body: {} })).statusCode).toBe(403);

    await call(admin, 'PATCH', `/v1/spaces/${space.id}`, { editMode: 'locked' });
    for (const [method, url, payload] of [
      ['POST', comments, { body: {} }],
      ['PUT', `${comments}/${id}`, { resolved: true }],
      ['DELETE', `${comments}/${id}`],
      ['POST', `${comments}/${id}/replies`, { body: {} }],
    ] as Array<[Method, string, unknown]>) {
      const res = await call(admin, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.message).toContain('locked');
    }
    expect((await call(admin, 'GET', `${comments}/${id}`)).json().permissions).toEqual({
      view: true,
      edit: false,
      reply: false,
      delete: false,
    });
    expect(
      await t.db.selectFrom('comments').select(['id', 'status', 'body']).where('space_id', '=', space.id).execute(),
    ).toEqual(before);
  });

  it('lose no reaction and count no resolve twice under concurrent requests', async () => {
    const { admin, organization, space, comments } = await spaceWithPages();
    const id = (await call(admin, 'POST', comments, { body: { markdown: 'React to me' } })).json().id as string;
    const people = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const account = await t.factory.account();
        await t.factory.member(organization.id, account.user.id, 'comment');
        return account;
      }),
    );
    const results = await Promise.all(
      people.map((person) => call(person, 'PUT', `${comments}/${id}`, { addedReactions: ['🎉', '👍'] })),
    );
    expect(results.map((res) => res.statusCode)).toEqual(people.map(() => 200));
    const read = (await call(admin, 'GET', `${comments}/${id}`)).json();
    expect(read.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['🎉', 16],
      ['👍', 16],
    ]);

    const resolves = await Promise.all(
      people.slice(0, 8).map((person) => call(person, 'PUT', `${comments}/${id}`, { resolved: true })),
    );
    expect(resolves.every((res) => res.statusCode === 200)).toBe(true);
    expect(await openCount(space.id)).toBe(0);
    const mixed = await Promise.all(
      people.slice(0, 8).map((person, i) => call(person, 'PUT', `${comments}/${id}`, { resolved: i % 2 === 0 })),
    );
    expect(mixed.every((res) => res.statusCode === 200)).toBe(true);
    const status = (await t.db.selectFrom('comments').select('status').where('id', '=', id).executeTakeFirstOrThrow())
      .status;
    expect(await openCount(space.id)).toBe(status === 'open' ? 1 : 0);

    const replies = await Promise.all(
      people.map((person) => call(person, 'POST', `${comments}/${id}/replies`, { body: { markdown: 'me too' } })),
    );
    expect(replies.every((res) => res.statusCode === 200)).toBe(true);
    expect((await call(admin, 'GET', `${comments}/${id}`)).json().replies).toBe(16);
    expect(await totalCount(space.id)).toBe(1);
  });
});

describe('replies', () => {
  it('are posted, listed, read, edited, reacted to and deleted, with the comment’s count following', async () => {
    const { admin, member, comments } = await spaceWithPages();
    const id = (await call(admin, 'POST', comments, { body: { markdown: 'Question?' } })).json().id as string;
    const author = member('comment');
    const posted = await call(author, 'POST', `${comments}/${id}/replies`, { body: { markdown: 'Answer.' } });
    expect(posted.statusCode).toBe(200);
    expectSpecResponse('postCommentReplyInSpace', 200, posted.json());
    expect(posted.json()).toMatchObject({
      object: 'comment-reply',
      postedBy: { id: author.user.id },
      body: { markdown: 'Answer.' },
      reactions: [],
    });
    for (const field of ['replies', 'target', 'status', 'resolvedAt', 'resolvedBy'])
      expect(posted.json()[field], field).toBeUndefined();
    const replyUrl = `${comments}/${id}/replies/${posted.json().id}`;
    expect(posted.json().urls.location).toBe(`${PUBLIC_URL}${replyUrl}`);
    await call(admin, 'POST', `${comments}/${id}/replies`, { body: { markdown: 'Second.' } });
    expect((await call(admin, 'GET', `${comments}/${id}`)).json().replies).toBe(2);

    const list = await call(admin, 'GET', `${comments}/${id}/replies`, undefined, { limit: '1' });
    expectSpecResponse('listCommentRepliesInSpace', 200, list.json());
    expect(list.json()).toMatchObject({ count: 2, items: [{ id: posted.json().id }] });
    const rest = await call(admin, 'GET', `${comments}/${id}/replies`, undefined, {
      limit: '1',
      page: list.json().next.page,
    });
    expect(rest.json().items[0].body).toEqual({ markdown: 'Second.' });
    expect(rest.json().next).toBeUndefined();

    const got = await call(admin, 'GET', replyUrl, undefined, { format: 'document' });
    expectSpecResponse('getCommentReplyInSpace', 200, got.json());
    expect(got.json().permissions).toEqual({ view: true, edit: false, reply: true, delete: true });

    expect((await call(admin, 'PUT', replyUrl, { body: { markdown: 'Edited by another' } })).statusCode).toBe(403);
    const edited = await call(author, 'PUT', replyUrl, {
      body: { markdown: 'Better answer.' },
      addedReactions: ['✅'],
    });
    expectSpecResponse('updateCommentReplyInSpace', 200, edited.json());
    expect(edited.json()).toMatchObject({
      body: { markdown: 'Better answer.' },
      reactions: [{ emoji: '✅', count: 1 }],
    });
    expect(Date.parse(edited.json().editedAt)).not.toBeNaN();
    // Reactions to a reply are not the comment's.
    expect((await call(admin, 'GET', `${comments}/${id}`)).json().reactions).toEqual([]);

    expect((await call(member('edit'), 'DELETE', replyUrl)).statusCode).toBe(403);
    expect((await call(author, 'DELETE', replyUrl)).statusCode).toBe(205);
    expect((await call(admin, 'GET', replyUrl)).statusCode).toBe(404);
    expect((await call(admin, 'GET', `${comments}/${id}`)).json().replies).toBe(1);
    expect((await call(admin, 'GET', `${comments}/${id}/replies/${posted.json().id}`)).statusCode).toBe(404);
    expect((await call(admin, 'POST', `${comments}/nope/replies`, { body: {} })).statusCode).toBe(404);
  });
});

describe('change request comments', () => {
  it('live in the change request, target its pages, and keep its counter', async () => {
    const { admin, member, space, comments } = await spaceWithPages();
    const cr = (await api.createChangeRequest(admin, space.id, { subject: 'Draft' })).json();
    const written = await api.writeContent(
      admin,
      space.id,
      cr.id,
      [{ operation: 'insert_page', title: 'New in CR', document: { markdown: 'Draft text.\n' } }],
      { compat: 'false' },
    );
    const newPage = written.json().changes[0].page.id as string;
    const base = `/v1/spaces/${space.id}/change-requests/${cr.number}/comments`;

    const posted = await call(member('comment'), 'POST', base, { page: newPage, body: { markdown: 'Looks good' } });
    expect(posted.statusCode).toBe(200);
    expectSpecResponse('postCommentInChangeRequest', 200, posted.json());
    expect(posted.json().target).toMatchObject({
      changeRequest: cr.id,
      space: space.id,
      page: { id: newPage, title: 'New in CR', outdated: false },
    });
    expect(posted.json().urls.location).toBe(
      `${PUBLIC_URL}/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${posted.json().id}`,
    );
    // The page exists only in the change request: the space's own thread refuses it.
    expect((await call(admin, 'POST', comments, { page: newPage, body: {} })).statusCode).toBe(400);

    const crCount = async () => (await api.getChangeRequest(admin, space.id, cr.id)).json().comments;
    expect(await crCount()).toBe(1);
    expect(await openCount(space.id)).toBe(0);
    expect((await call(admin, 'GET', comments)).json().count).toBe(0);

    const list = await call(admin, 'GET', base);
    expectSpecResponse('listCommentsInChangeRequest', 200, list.json());
    expect(list.json().items.map((item: { id: string }) => item.id)).toEqual([posted.json().id]);
    const commentUrl = `${base}/${posted.json().id}`;
    expectSpecResponse('getCommentInChangeRequest', 200, (await call(admin, 'GET', commentUrl)).json());
    expect((await call(admin, 'GET', `${comments}/${posted.json().id}`)).statusCode).toBe(404);

    const resolved = await call(admin, 'PUT', commentUrl, { resolved: true });
    expectSpecResponse('updateCommentInChangeRequest', 200, resolved.json());
    expect(await crCount()).toBe(0);
    const reply = await call(admin, 'POST', `${commentUrl}/replies`, { body: { markdown: 'Thanks' } });
    expectSpecResponse('postCommentReplyInChangeRequest', 200, reply.json());
    expectSpecResponse(
      'listCommentRepliesInChangeRequest',
      200,
      (await call(admin, 'GET', `${commentUrl}/replies`)).json(),
    );
    expectSpecResponse(
      'getCommentReplyInChangeRequest',
      200,
      (await call(admin, 'GET', `${commentUrl}/replies/${reply.json().id}`)).json(),
    );
    expectSpecResponse(
      'updateCommentReplyInChangeRequest',
      200,
      (await call(admin, 'PUT', `${commentUrl}/replies/${reply.json().id}`, { addedReactions: ['👀'] })).json(),
    );
    expect((await call(admin, 'DELETE', `${commentUrl}/replies/${reply.json().id}`)).statusCode).toBe(205);
    await call(admin, 'PUT', commentUrl, { resolved: false });
    expect(await crCount()).toBe(1);
    expect((await call(admin, 'DELETE', commentUrl)).statusCode).toBe(205);
    expect(await crCount()).toBe(0);
    expect((await call(admin, 'GET', `/v1/spaces/${space.id}/change-requests/999/comments`)).statusCode).toBe(404);
  });
});

describe('commenters', () => {
  it('are the members who commented or replied, in the space or in one change request', async () => {
    const { admin, member, space, comments } = await spaceWithPages();
    const id = (await call(member('comment'), 'POST', comments, { body: {} })).json().id as string;
    await call(member('edit'), 'POST', `${comments}/${id}/replies`, { body: {} });
    await call(member('comment'), 'POST', comments, { body: {} });
    const cr = (await api.createChangeRequest(admin, space.id)).json();
    await call(admin, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, { body: {} });

    const inSpace = await call(admin, 'GET', `/v1/spaces/${space.id}/commenters`);
    expect(inSpace.statusCode).toBe(200);
    expectSpecResponse('listCommentersInSpace', 200, inSpace.json());
    expect(inSpace.json().count).toBe(2);
    expect(
      inSpace
        .json()
        .items.map((item: { id: string }) => item.id)
        .sort(),
    ).toEqual([member('comment').user.id, member('edit').user.id].sort());
    const first = await call(admin, 'GET', `/v1/spaces/${space.id}/commenters`, undefined, { limit: '1' });
    const second = await call(admin, 'GET', `/v1/spaces/${space.id}/commenters`, undefined, {
      limit: '1',
      page: first.json().next.page,
    });
    expect([...first.json().items, ...second.json().items].map((item: { id: string }) => item.id).sort()).toEqual(
      inSpace
        .json()
        .items.map((item: { id: string }) => item.id)
        .sort(),
    );
    expect(second.json()).toMatchObject({ count: 2 });

    const inCr = await call(admin, 'GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/commenters`);
    expectSpecResponse('listCommentersInChangeRequest', 200, inCr.json());
    expect(inCr.json().items.map((item: { id: string }) => item.id)).toEqual([admin.user.id]);
    expect((await call(admin, 'GET', `/v1/spaces/${space.id}/commenters`, undefined, { limit: '0' })).json()).toEqual({
      count: 2,
      items: [],
    });
  });
});

describe('through the official client', () => {
  it('posts, lists, resolves, replies to and deletes comments', async () => {
    const { admin, space, guide } = await spaceWithPages();
    const client = officialClient(await listen(t.app), admin.token);
    const posted = await client.spaces.postCommentInSpace(space.id, {
      page: guide,
      body: { markdown: 'From the client' },
    });
    expect(posted.data.body).toEqual({ markdown: 'From the client' });
    const listed = await client.spaces.listCommentsInSpace(space.id, { status: 'open', authors: [admin.user.id] });
    expect(listed.data.items.map((comment) => comment.id)).toEqual([posted.data.id]);
    const resolved = await client.spaces.updateCommentInSpace(space.id, posted.data.id, {
      resolved: true,
      addedReactions: ['👍'],
    });
    expect(resolved.data.status).toBe('resolved');
    const reply = await client.spaces.postCommentReplyInSpace(space.id, posted.data.id, { body: { markdown: 'Done' } });
    expect((await client.spaces.getCommentReplyInSpace(space.id, posted.data.id, reply.data.id)).data.body).toEqual({
      markdown: 'Done',
    });
    const commenters = await client.spaces.listCommentersInSpace(space.id);
    expect(commenters.data.items.map((member) => member.id)).toEqual([admin.user.id]);
    const deleted = await client.spaces.deleteCommentInSpace(space.id, posted.data.id);
    expect(deleted.status).toBe(205);
    expect((await client.spaces.listCommentsInSpace(space.id)).data.count).toBe(0);
  });
});
