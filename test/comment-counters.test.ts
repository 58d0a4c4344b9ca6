import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../src/db/migrate.js';
import { purgeDeletedSpaces } from '../src/spaces/purge.js';
import { buildOwnApp, listen, testConfig, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import { createTestDatabase } from './support/database.js';
import { Factory, type Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);
let listening: Promise<string> | undefined;
/** The app's URL for the official client; it listens once for the whole file. */
const endpoint = () => (listening ??= listen(t.app));

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (account: Account, method: Method, url: string, payload?: unknown, query?: Record<string, string>) =>
  t.app.inject({
    method,
    url,
    headers: account.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
    ...(query ? { query } : {}),
  });

/** An organization with a member of each role, a space, a change request, and the URLs of both threads. */
async function setup() {
  const o = await t.factory.team([null, 'read', 'comment', 'review', 'edit']);
  const space = await api.createSpace(o.admin, o.organization.id, { title: 'Docs' });
  const cr = (await api.createChangeRequest(o.admin, space.id, { subject: 'Draft' })).json() as { id: string };
  return {
    ...o,
    space,
    cr,
    spaceThread: `/v1/spaces/${space.id}/comments`,
    crThread: `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`,
  };
}

const post = async (account: Account, thread: string, markdown = 'A remark') => {
  const res = await call(account, 'POST', thread, { body: { markdown } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
};

/** The space's and the change request's `comments`, as the API shows them (spec-validated). */
async function shownCounts(account: Account, spaceId: string, changeRequestId: string) {
  const space = await call(account, 'GET', `/v1/spaces/${spaceId}`);
  expectSpecResponse('getSpaceById', 200, space.json());
  const cr = await call(account, 'GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`);
  expectSpecResponse('getChangeRequestById', 200, cr.json());
  return { space: space.json().comments as number, changeRequest: cr.json().comments as number };
}

/** What the counters should be, counted from the rows. */
async function countedRows(spaceId: string) {
  const rows = await t.db
    .selectFrom('comments')
    .select(['status', 'change_request_id'])
    .where('space_id', '=', spaceId)
    .execute();
  const own = rows.filter((row) => row.change_request_id === null);
  return { open: own.filter((row) => row.status === 'open').length, total: own.length };
}
async function storedCounters(spaceId: string) {
  const row = await t.db
    .selectFrom('spaces')
    .select(['comments_open_count', 'comments_total_count'])
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
  return { open: row.comments_open_count, total: row.comments_total_count };
}

describe('the space’s `comments`', () => {
  it('counts the open comments of the space’s own thread: not replies, not resolved ones, not change requests’', async () => {
    const o = await setup();
    const commenter = o.member('comment');
    const counts = () => shownCounts(o.member('read'), o.space.id, o.cr.id);
    expect(await counts()).toEqual({ space: 0, changeRequest: 0 });

    const [first, second, third] = [
      await post(commenter, o.spaceThread),
      await post(o.admin, o.spaceThread),
      await post(commenter, o.spaceThread),
    ];
    const onCr = await post(commenter, o.crThread);
    expect(await counts()).toEqual({ space: 3, changeRequest: 1 });

    // Replies are not comments of their own.
    const reply = (
      await call(o.admin, 'POST', `${o.spaceThread}/${first}/replies`, { body: { markdown: 'Yes' } })
    ).json().id as string;
    await call(o.admin, 'POST', `${o.crThread}/${onCr}/replies`, { body: { markdown: 'Yes' } });
    expect(await counts()).toEqual({ space: 3, changeRequest: 1 });

    // Resolving uncounts, reopening counts again; a second resolve changes nothing.
    expect((await call(commenter, 'PUT', `${o.spaceThread}/${second}`, { resolved: true })).statusCode).toBe(200);
    expect((await call(o.admin, 'PUT', `${o.spaceThread}/${second}`, { resolved: true })).statusCode).toBe(200);
    expect(await counts()).toEqual({ space: 2, changeRequest: 1 });
    await call(commenter, 'PUT', `${o.spaceThread}/${second}`, { resolved: false });
    expect(await counts()).toEqual({ space: 3, changeRequest: 1 });
    await call(commenter, 'PUT', `${o.spaceThread}/${second}`, { resolved: true });
    await call(commenter, 'PUT', `${o.crThread}/${onCr}`, { resolved: true });
    expect(await counts()).toEqual({ space: 2, changeRequest: 0 });

    // Deleting a reply changes nothing; deleting an open comment uncounts it, a resolved one was not counted.
    expect((await call(o.admin, 'DELETE', `${o.spaceThread}/${first}/replies/${reply}`)).statusCode).toBe(205);
    expect(await counts()).toEqual({ space: 2, changeRequest: 0 });
    expect((await call(o.admin, 'DELETE', `${o.spaceThread}/${third}`)).statusCode).toBe(205);
    expect(await counts()).toEqual({ space: 1, changeRequest: 0 });
    expect((await call(o.admin, 'DELETE', `${o.spaceThread}/${second}`)).statusCode).toBe(205);
    expect(await counts()).toEqual({ space: 1, changeRequest: 0 });
    // Deleting a comment with replies takes them along and uncounts the comment once.
    await call(o.admin, 'POST', `${o.spaceThread}/${first}/replies`, { body: { markdown: 'Again' } });
    expect((await call(commenter, 'DELETE', `${o.spaceThread}/${first}`)).statusCode).toBe(205);
    expect(await counts()).toEqual({ space: 0, changeRequest: 0 });
    expect(await storedCounters(o.space.id)).toEqual(await countedRows(o.space.id));

    // The lists' counts agree with the counters.
    const listed = await call(o.admin, 'GET', o.crThread, undefined, { status: 'resolved' });
    expect(listed.json().count).toBe(1);
    expect((await call(o.admin, 'GET', o.spaceThread)).json().count).toBe(0);
  });

  it('refused writes (400, 403, 404) move no counter', async () => {
    const o = await setup();
    const id = await post(o.member('comment'), o.spaceThread);
    const before = await storedCounters(o.space.id);
    const refused: Array<[Account, Method, string, unknown, number]> = [
      [o.member('read'), 'POST', o.spaceThread, { body: { markdown: 'x' } }, 403],
      [o.member(null), 'POST', o.spaceThread, { body: { markdown: 'x' } }, 404],
      [o.member('comment'), 'POST', o.spaceThread, { body: { markdown: 'x'.repeat(70_000) } }, 400],
      [o.member('read'), 'PUT', `${o.spaceThread}/${id}`, { resolved: true }, 403],
      [o.member('edit'), 'DELETE', `${o.spaceThread}/${id}`, undefined, 403],
      [o.member('comment'), 'DELETE', `${o.spaceThread}/nosuchcomment`, undefined, 404],
    ];
    for (const [account, method, url, payload, status] of refused) {
      expect((await call(account, method, url, payload)).statusCode, `${method} ${url}`).toBe(status);
    }
    expect(await storedCounters(o.space.id)).toEqual(before);
    expect(before).toEqual({ open: 1, total: 1 });
  });

  it('stays exact under concurrent posts, resolves, reopens and deletes', async () => {
    const o = await setup();
    const posters = [o.admin, o.member('comment'), o.member('review'), o.member('edit')];
    const posted = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        call(posters[i % 4]!, 'POST', o.spaceThread, { body: { markdown: `${i}` } }),
      ),
    );
    expect(posted.map((res) => res.statusCode)).toEqual(Array(16).fill(200));
    expect(await storedCounters(o.space.id)).toEqual({ open: 16, total: 16 });

    const ids = posted.map((res) => res.json().id as string);
    // Each comment is resolved twice, reopened, or deleted by two callers at once.
    await Promise.all(
      ids.flatMap((id, i) => {
        const url = `${o.spaceThread}/${id}`;
        if (i % 3 === 0)
          return [call(o.admin, 'PUT', url, { resolved: true }), call(o.admin, 'PUT', url, { resolved: true })];
        if (i % 3 === 1)
          return [call(o.admin, 'PUT', url, { resolved: true }), call(o.admin, 'PUT', url, { resolved: false })];
        return [call(o.admin, 'DELETE', url), call(o.admin, 'DELETE', url)];
      }),
    );
    const counted = await countedRows(o.space.id);
    expect(await storedCounters(o.space.id)).toEqual(counted);
    expect(counted.total).toBe(11);
    expect((await shownCounts(o.admin, o.space.id, o.cr.id)).space).toBe(counted.open);
  });

  it('reads the same through the official client', async () => {
    const o = await setup();
    const client = officialClient(await endpoint(), o.admin.token);
    const posted = await client.spaces.postCommentInSpace(o.space.id, { body: { markdown: 'From the client' } });
    await client.spaces.postCommentInChangeRequest(o.space.id, o.cr.id, { body: { markdown: 'On the draft' } });
    expect((await client.spaces.getSpaceById(o.space.id)).data.comments).toBe(1);
    expect((await client.spaces.getChangeRequestById(o.space.id, o.cr.id)).data.comments).toBe(1);
    await client.spaces.updateCommentInSpace(o.space.id, posted.data.id, { resolved: true });
    expect((await client.spaces.getSpaceById(o.space.id)).data.comments).toBe(0);
  });

  it('the purge removes a space with its comments, replies and reviewers, and leaves other spaces’ counters', async () => {
    const o = await setup();
    const other = await api.createSpace(o.admin, o.organization.id, { title: 'Other' });
    await post(o.admin, `/v1/spaces/${other.id}/comments`);
    const id = await post(o.admin, o.spaceThread);
    await call(o.admin, 'POST', `${o.spaceThread}/${id}/replies`, { body: { markdown: 'r' } });
    await call(o.admin, 'PUT', `${o.spaceThread}/${id}`, { addedReactions: ['👍'] });
    await post(o.admin, o.crThread);
    await call(o.admin, 'POST', `/v1/spaces/${o.space.id}/change-requests/${o.cr.id}/requested-reviewers`, {
      users: [o.member('review').user.id],
    });
    expect((await call(o.admin, 'DELETE', `/v1/spaces/${o.space.id}`)).statusCode).toBe(205);

    const later = { now: () => new Date(Date.now() + 8 * 86_400_000) };
    const result = await purgeDeletedSpaces(t.db, later, { retentionMs: 7 * 86_400_000, batchSize: 10 });
    expect(result.purged).toContain(o.space.id);
    for (const table of ['comments', 'comment_replies', 'comment_reactions', 'change_request_reviewers'] as const) {
      const left = await t.db.selectFrom(table).select('space_id').where('space_id', '=', o.space.id).execute();
      expect(left, table).toEqual([]);
    }
    expect(await storedCounters(other.id)).toEqual({ open: 1, total: 1 });
  });
});

describe('commenters who left the organization', () => {
  it('are still listed, as members without role or access, their e-mail only to who still shares an organization', async () => {
    const o = await setup();
    const leaver = await t.factory.account();
    await t.factory.member(o.organization.id, leaver.user.id, 'comment');
    // Another organization that the leaver shares with the editor, not with the admin.
    const elsewhere = await t.factory.organization(o.member('edit').user.id);
    await t.factory.member(elsewhere.id, leaver.user.id, 'read');

    const first = await post(o.member('comment'), o.spaceThread);
    const theirs = await post(leaver, o.spaceThread);
    await call(leaver, 'POST', `${o.spaceThread}/${first}/replies`, { body: { markdown: 'Agreed' } });
    await call(leaver, 'PUT', `${o.spaceThread}/${first}`, { addedReactions: ['🎉'] });
    await post(leaver, o.crThread);
    const postedAt = (await call(o.admin, 'GET', `${o.spaceThread}/${theirs}`)).json().postedAt as string;

    const left = await call(o.admin, 'DELETE', `/v1/orgs/${o.organization.id}/members/${leaver.user.id}`);
    expect(left.statusCode).toBe(204);

    const asAdmin = await call(o.admin, 'GET', `/v1/spaces/${o.space.id}/commenters`);
    expect(asAdmin.statusCode).toBe(200);
    expectSpecResponse('listCommentersInSpace', 200, asAdmin.json());
    expect(asAdmin.json().count).toBe(2);
    const former = asAdmin.json().items.find((item: { id: string }) => item.id === leaver.user.id);
    expect(former).toEqual({
      object: 'member',
      id: leaver.user.id,
      role: null,
      user: {
        object: 'user',
        id: leaver.user.id,
        displayName: leaver.user.display_name,
        urls: { location: `http://docs.test/v1/users/${leaver.user.id}` },
      },
      disabled: true,
      joinedAt: postedAt,
      sso: false,
      spaces: 0,
      teams: 0,
      sites: 0,
    });
    // A member who is still one is shown as before, e-mail included.
    expect(asAdmin.json().items.find((item: { id: string }) => item.id !== leaver.user.id)).toMatchObject({
      role: 'comment',
      disabled: false,
      user: { email: o.member('comment').user.email },
    });

    // The editor still shares an organization with the leaver, and sees the e-mail; the admin does not.
    const asEditor = (await call(o.member('edit'), 'GET', `/v1/spaces/${o.space.id}/commenters`)).json();
    expect(asEditor.items.find((item: { id: string }) => item.id === leaver.user.id).user.email).toBe(
      leaver.user.email,
    );
    const inCr = await call(o.admin, 'GET', `/v1/spaces/${o.space.id}/change-requests/${o.cr.id}/commenters`);
    expectSpecResponse('listCommentersInChangeRequest', 200, inCr.json());
    expect(inCr.json()).toMatchObject({ count: 1, items: [{ id: leaver.user.id, role: null, disabled: true }] });
    expect(inCr.json().items[0].user.email).toBeUndefined();

    // Their comments, replies and reactions stay, shown with the same user and the same e-mail rule.
    const comment = (await call(o.admin, 'GET', `${o.spaceThread}/${theirs}`)).json();
    expectSpecResponse('getCommentInSpace', 200, comment);
    expect(comment.postedBy).toEqual(former.user);
    const reply = (await call(o.admin, 'GET', `${o.spaceThread}/${first}/replies`)).json().items[0];
    expect(reply.postedBy).toEqual(former.user);
    const reacted = (await call(o.admin, 'GET', `${o.spaceThread}/${first}`)).json();
    expect(reacted.reactions[0].users[0].user).toEqual(former.user);
    const seenByEditor = (await call(o.member('edit'), 'GET', `${o.spaceThread}/${theirs}`)).json();
    expect(seenByEditor.postedBy.email).toBe(leaver.user.email);
    // Nor can the leaver read any of it any more.
    expect((await call(leaver, 'GET', `/v1/spaces/${o.space.id}/commenters`)).statusCode).toBe(404);
    expect((await call(leaver, 'GET', o.spaceThread)).statusCode).toBe(404);
  });

  it('are paged with the members, in the order they first posted, through the official client too', async () => {
    const o = await setup();
    const people: Account[] = [];
    for (let i = 0; i < 5; i++) {
      const account = await t.factory.account();
      await t.factory.member(o.organization.id, account.user.id, 'comment');
      people.push(account);
      await post(account, o.spaceThread, `${i}`);
    }
    for (const account of [people[1]!, people[3]!]) {
      await call(o.admin, 'DELETE', `/v1/orgs/${o.organization.id}/members/${account.user.id}`);
    }
    const client = officialClient(await endpoint(), o.admin.token);
    const walked: Array<{ id: string; role: unknown }> = [];
    let page: string | undefined;
    do {
      const res = await client.spaces.listCommentersInSpace(o.space.id, { limit: 2, ...(page ? { page } : {}) });
      expectSpecResponse('listCommentersInSpace', 200, res.data);
      expect(res.data.count).toBe(5);
      walked.push(...res.data.items.map((item) => ({ id: item.id, role: item.role })));
      page = res.data.next?.page;
    } while (page);
    expect(walked).toEqual(
      people.map((account, i) => ({ id: account.user.id, role: i === 1 || i === 3 ? null : 'comment' })),
    );
  });

  it('are refused to guests and outsiders like every commenter (404)', async () => {
    const o = await setup();
    await post(o.member('comment'), o.spaceThread);
    const stranger = await t.factory.account();
    for (const account of [o.member(null), stranger]) {
      expect((await call(account, 'GET', `/v1/spaces/${o.space.id}/commenters`)).statusCode).toBe(404);
    }
  });
});

describe('the migration', () => {
  const MIGRATION = '1765584000000_comment_counters';
  const migrate = (databaseUrl: string, direction: 'up' | 'down') =>
    runner({
      databaseUrl,
      dir: MIGRATIONS_DIR,
      direction,
      file: MIGRATION,
      checkOrder: false,
      migrationsTable: 'pgmigrations',
      log: () => {},
    });

  it('counts existing comments again and drops the review requests of people who left, on a database written before it', async () => {
    const database = await createTestDatabase();
    const app = await buildOwnApp(testConfig(database.url));
    try {
      await app.ready();
      const factory = new Factory(app.context.db);
      const o = await factory.team(['review', 'edit']);
      const inject = (account: Account, method: Method, url: string, payload?: unknown) =>
        app.inject({ method, url, headers: account.headers, ...(payload ? { payload: payload as object } : {}) });
      const space = (await inject(o.admin, 'POST', `/v1/orgs/${o.organization.id}/spaces`, { title: 'S' })).json();
      const cr = (await inject(o.admin, 'POST', `/v1/spaces/${space.id}/change-requests`, {})).json();
      for (const thread of [`/v1/spaces/${space.id}`, `/v1/spaces/${space.id}/change-requests/${cr.id}`]) {
        await inject(o.admin, 'POST', `${thread}/comments`, { body: { markdown: 'a' } });
        const resolved = (await inject(o.admin, 'POST', `${thread}/comments`, { body: { markdown: 'b' } })).json();
        await inject(o.admin, 'PUT', `${thread}/comments/${resolved.id}`, { resolved: true });
      }
      const requested = await inject(
        o.admin,
        'POST',
        `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`,
        { users: [o.member('review').user.id, o.member('edit').user.id] },
      );
      expect(requested.statusCode, requested.body).toBe(200);
      await app.close();

      await migrate(database.url, 'down');
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      try {
        // As an earlier version could leave them: counters off, a request of someone who left.
        await admin.query('UPDATE spaces SET comments_open_count = 7, comments_total_count = 9 WHERE id = $1', [
          space.id,
        ]);
        await admin.query('UPDATE change_requests SET comments_count = 0, comments_total_count = 5 WHERE id = $1', [
          cr.id,
        ]);
        await admin.query('DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2', [
          o.organization.id,
          o.member('review').user.id,
        ]);
        await migrate(database.url, 'up');
        const counters = await admin.query(
          `SELECT s.comments_open_count, s.comments_total_count, cr.comments_count, cr.comments_total_count AS cr_total
           FROM spaces s JOIN change_requests cr ON cr.space_id = s.id WHERE s.id = $1`,
          [space.id],
        );
        expect(counters.rows).toEqual([
          { comments_open_count: 1, comments_total_count: 2, comments_count: 1, cr_total: 2 },
        ]);
        const requests = await admin.query('SELECT reviewer_id FROM change_request_reviewers');
        expect(requests.rows).toEqual([{ reviewer_id: o.member('edit').user.id }]);
      } finally {
        await admin.end();
      }
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
