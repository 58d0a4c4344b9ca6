import { describe, expect, it } from 'vitest';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

const reviewersUrl = (spaceId: string, changeRequestId: string | number) =>
  `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/requested-reviewers`;

const requestReviewers = (account: Account, spaceId: string, changeRequestId: string | number, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: reviewersUrl(spaceId, changeRequestId),
    headers: account.headers,
    payload: payload as object,
  });
const listReviewers = (
  account: Account,
  spaceId: string,
  changeRequestId: string | number,
  query: Record<string, string> = {},
) => t.app.inject({ method: 'GET', url: reviewersUrl(spaceId, changeRequestId), headers: account.headers, query });
const removeReviewer = (account: Account, spaceId: string, changeRequestId: string | number, userId: string) =>
  t.app.inject({
    method: 'DELETE',
    url: `${reviewersUrl(spaceId, changeRequestId)}/${userId}`,
    headers: account.headers,
  });

const storedReviewers = (changeRequestId: string) =>
  t.db
    .selectFrom('change_request_reviewers')
    .select(['user_id', 'requested_by', 'revision_id', 'created_at', 'organization_id'])
    .where('change_request_id', '=', changeRequestId)
    .orderBy('created_at')
    .orderBy('user_id')
    .execute();

/** An organization with a member of every role, a space and a draft change request on it. */
async function changeRequestWithTeam() {
  const team = await t.factory.team([null, 'read', 'comment', 'review', 'edit']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  const created = await api.createChangeRequest(team.admin, space.id, { subject: 'Draft' });
  expect(created.statusCode).toBe(201);
  const cr = created.json() as { id: string; number: number; revision: string };
  return { ...team, space, cr };
}

const userIds = (items: Array<{ user: { id: string } }>) => items.map((item) => item.user.id);

describe('requesting reviewers', () => {
  it('records every user with at least the review role and answers with an item for each', async () => {
    const { admin, member, organization, space, cr } = await changeRequestWithTeam();
    const editor = member('edit');
    const reviewer = member('review');

    const res = await requestReviewers(editor, space.id, cr.id, {
      users: [reviewer.user.id, admin.user.id, editor.user.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expectSpecResponse('requestReviewersForChangeRequest', 200, res.json());
    const body = res.json();
    expect(userIds(body.users)).toEqual([reviewer.user.id, admin.user.id, editor.user.id]);
    const createdAt = body.users[0].createdAt as string;
    expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(body.users[0]).toEqual({
      object: 'change-request-requested-reviewer',
      revision: cr.revision,
      requestedBy: {
        object: 'user',
        id: editor.user.id,
        displayName: editor.user.display_name,
        email: editor.user.email,
        urls: { location: `${PUBLIC_URL}/v1/users/${editor.user.id}` },
      },
      createdAt,
      kind: 'user',
      user: {
        object: 'user',
        id: reviewer.user.id,
        displayName: reviewer.user.display_name,
        email: reviewer.user.email,
        urls: { location: `${PUBLIC_URL}/v1/users/${reviewer.user.id}` },
      },
    });

    const stored = await storedReviewers(cr.id);
    expect(stored).toHaveLength(3);
    for (const row of stored)
      expect(row).toMatchObject({
        requested_by: editor.user.id,
        revision_id: cr.revision,
        organization_id: organization.id,
      });

    // Anyone who reads the space reads the list; the change request may be named by its number.
    const listed = await listReviewers(member('read'), space.id, cr.number);
    expect(listed.statusCode).toBe(200);
    expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, listed.json());
    expect(listed.json().count).toBe(3);
    expect(listed.json().next).toBeUndefined();
    expect(listed.json().items).toEqual(
      [...body.users].sort((a: { user: { id: string } }, b: { user: { id: string } }) =>
        a.user.id < b.user.id ? -1 : 1,
      ),
    );
  });

  it('asking again changes nothing: one row per user, the first request kept', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const reviewer = member('review');
    const first = (await requestReviewers(member('edit'), space.id, cr.id, { users: [reviewer.user.id] })).json()
      .users[0];

    // The change request moves on to a new revision before the second request.
    const written = await api.writeContent(admin, space.id, cr.id, [
      { operation: 'insert_page', title: 'New', document: {} },
    ]);
    expect(written.statusCode).toBe(200);
    const revision = written.json().revision as string;
    expect(revision).not.toBe(cr.revision);

    const again = await requestReviewers(admin, space.id, String(cr.number), {
      users: [admin.user.id, reviewer.user.id],
    });
    expect(again.statusCode).toBe(200);
    expectSpecResponse('requestReviewersForChangeRequest', 200, again.json());
    const [adminItem, reviewerItem] = again.json().users;
    expect(reviewerItem).toEqual(first);
    expect(reviewerItem).toMatchObject({ revision: cr.revision, requestedBy: { id: member('edit').user.id } });
    expect(adminItem).toMatchObject({ revision, requestedBy: { id: admin.user.id }, user: { id: admin.user.id } });

    const stored = await storedReviewers(cr.id);
    expect(stored.map((row) => [row.user_id, row.requested_by, row.revision_id]).sort()).toEqual(
      [
        [admin.user.id, admin.user.id, revision],
        [reviewer.user.id, member('edit').user.id, cr.revision],
      ].sort(),
    );
  });

  it('updates the change request’s subject in the same transaction', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const renamed = await requestReviewers(admin, space.id, cr.id, {
      users: [member('review').user.id],
      subject: 'Ready for review',
    });
    expect(renamed.statusCode).toBe(200);
    expect((await api.getChangeRequest(admin, space.id, cr.id)).json().subject).toBe('Ready for review');

    // A refused request renames nothing.
    const refused = await requestReviewers(admin, space.id, cr.id, {
      users: [member('read').user.id],
      subject: 'Not this',
    });
    expect(refused.statusCode).toBe(400);
    const tooLong = await requestReviewers(admin, space.id, cr.id, {
      users: [member('review').user.id],
      subject: 'x'.repeat(101),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toBe('body/subject must NOT have more than 100 characters');
    expect((await api.getChangeRequest(admin, space.id, cr.id)).json().subject).toBe('Ready for review');

    // Without a subject, the subject stays.
    await requestReviewers(admin, space.id, cr.id, { users: [member('edit').user.id] });
    expect((await api.getChangeRequest(admin, space.id, cr.id)).json().subject).toBe('Ready for review');
  });

  it('refuses with 400 users who cannot review, naming each of them, and stores nothing', async () => {
    const { admin, member, organization, space, cr } = await changeRequestWithTeam();
    const outsider = await t.factory.account();
    const disabled = await t.factory.account();
    await t.factory.member(organization.id, disabled.user.id, 'edit', { disabled: true });
    const otherAdmin = await t.factory.account();
    await t.factory.organization(otherAdmin.user.id);
    const refusedIds = [
      outsider.user.id,
      disabled.user.id,
      member('read').user.id,
      member('comment').user.id,
      member(null).user.id,
      otherAdmin.user.id,
    ];

    const res = await requestReviewers(admin, space.id, cr.id, {
      users: [member('review').user.id, ...refusedIds],
      subject: 'Renamed',
    });
    expect(res.statusCode).toBe(400);
    const message = res.json().error.message as string;
    expect(res.json().error.code).toBe(400);
    for (const id of refusedIds) expect(message).toContain(id);
    expect(message).not.toContain(member('review').user.id);
    expect(message).toContain('review role');

    for (const id of refusedIds) {
      const alone = await requestReviewers(admin, space.id, cr.id, { users: [id] });
      expect(alone.statusCode).toBe(400);
      expect(alone.json().error.message).toContain(id);
    }
    expect(await storedReviewers(cr.id)).toEqual([]);
    expect((await api.getChangeRequest(admin, space.id, cr.id)).json().subject).toBe('Draft');
  });

  it('counts the default levels of the space and of its parent collections', async () => {
    const { admin, member, organization, cr, space } = await changeRequestWithTeam();
    const reader = member('read');
    expect((await requestReviewers(admin, space.id, cr.id, { users: [reader.user.id] })).statusCode).toBe(400);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: admin.headers,
      payload: { defaultLevel: 'review' },
    });
    expect(patched.statusCode).toBe(200);
    expect((await requestReviewers(admin, space.id, cr.id, { users: [reader.user.id] })).statusCode).toBe(200);

    const top = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/collections`,
      headers: admin.headers,
      payload: { title: 'Top' },
    });
    const inner = await t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${organization.id}/collections`,
      headers: admin.headers,
      payload: { title: 'Inner', parent: top.json().id },
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/collections/${top.json().id}`,
      headers: admin.headers,
      payload: { defaultLevel: 'review' },
    });
    const nested = await api.createSpace(admin, organization.id, { title: 'Nested', parent: inner.json().id });
    const nestedCr = (await api.createChangeRequest(admin, nested.id)).json();
    const granted = await requestReviewers(admin, nested.id, nestedCr.id, {
      users: [member('comment').user.id, reader.user.id],
    });
    expect(granted.statusCode, granted.body).toBe(200);
    // Guests get nothing from default levels.
    expect((await requestReviewers(admin, nested.id, nestedCr.id, { users: [member(null).user.id] })).statusCode).toBe(
      400,
    );
  });

  it('answers 400 to malformed bodies', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const id = member('review').user.id;
    const cases: Array<[unknown, string]> = [
      [{}, 'body/users is required'],
      [{ users: [] }, 'body/users and body/teams are both empty'],
      [{ users: [], teams: [] }, 'body/users and body/teams are both empty'],
      [{ users: Array.from({ length: 101 }, (_, i) => `user${i}`) }, 'body/users must NOT have more than 100 items'],
      [{ users: [id, id] }, 'body/users must NOT have duplicate items'],
      [{ users: [''] }, 'body/users/0 must NOT have fewer than 1 characters'],
      [{ users: ['x'.repeat(129)] }, 'body/users/0 must NOT have more than 128 characters'],
      [{ users: [42] }, 'body/users/0 must be string'],
      [{ users: id }, 'body/users must be array'],
      [{ users: [id], description: { object: 'document', nodes: [] } }, 'body/description is not an accepted field'],
    ];
    for (const [payload, message] of cases) {
      const res = await requestReviewers(admin, space.id, cr.id, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 100)).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    expect(await storedReviewers(cr.id)).toEqual([]);
    expect((await listReviewers(admin, space.id, cr.id, { limit: '1001' })).statusCode).toBe(400);
  });
});

describe('who may request and remove reviewers', () => {
  it('every route answers 401 without a valid token and changes nothing', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const reviewer = member('review').user.id;
    await requestReviewers(admin, space.id, cr.id, { users: [reviewer] });
    const routes: Array<[string, string, unknown?]> = [
      ['GET', reviewersUrl(space.id, cr.id)],
      ['POST', reviewersUrl(space.id, cr.id), { users: [admin.user.id] }],
      ['DELETE', `${reviewersUrl(space.id, cr.id)}/${reviewer}`],
    ];
    for (const [method, url, payload] of routes) {
      for (const headers of [{}, { authorization: 'Bearer quire_not-a-real-token' }]) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers,
          ...(payload ? { payload: payload } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().error.code).toBe(401);
      }
    }
    expect((await storedReviewers(cr.id)).map((row) => row.user_id)).toEqual([reviewer]);
  });

  it('requesting needs the edit role: readers, commenters and reviewers get 403', async () => {
    const { member, space, cr } = await changeRequestWithTeam();
    for (const role of ['read', 'comment', 'review'] as const) {
      const res = await requestReviewers(member(role), space.id, cr.id, { users: [member('review').user.id] });
      expect(res.statusCode, role).toBe(403);
      expect(res.json().error.message).toContain('edit role');
    }
    const scoped = await t.factory.token(member('edit').user.id, { scopes: ['space:read'] });
    expect((await requestReviewers(scoped, space.id, cr.id, { users: [member('review').user.id] })).statusCode).toBe(
      403,
    );
    expect((await listReviewers(scoped, space.id, cr.id)).statusCode).toBe(200);
    expect(await storedReviewers(cr.id)).toEqual([]);
  });

  it('a locked space refuses requests and removals with 403, even one’s own', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const reviewer = member('review');
    await requestReviewers(admin, space.id, cr.id, { users: [reviewer.user.id] });
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: admin.headers,
      payload: { editMode: 'locked' },
    });

    const requested = await requestReviewers(admin, space.id, cr.id, { users: [admin.user.id] });
    expect(requested.statusCode).toBe(403);
    expect(requested.json().error.message).toContain('locked');
    for (const account of [admin, reviewer]) {
      const removed = await removeReviewer(account, space.id, cr.id, reviewer.user.id);
      expect(removed.statusCode).toBe(403);
      expect(removed.json().error.message).toContain('locked');
    }
    expect((await storedReviewers(cr.id)).map((row) => row.user_id)).toEqual([reviewer.user.id]);
    expect((await listReviewers(reviewer, space.id, cr.id)).json().count).toBe(1);
  });

  it('answers 404 to unknown spaces, change requests and reviewers, and to spaces the caller cannot see', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const reviewer = member('review').user.id;
    await requestReviewers(admin, space.id, cr.id, { users: [reviewer] });
    const outsider = await t.factory.account();

    const cases = [
      await listReviewers(admin, 'AAAAAAAAAAAAAAAAAAAA', cr.id),
      await requestReviewers(admin, 'AAAAAAAAAAAAAAAAAAAA', cr.id, { users: [reviewer] }),
      await removeReviewer(admin, 'AAAAAAAAAAAAAAAAAAAA', cr.id, reviewer),
      await listReviewers(admin, space.id, 'AAAAAAAAAAAAAAAAAAAA'),
      await listReviewers(admin, space.id, 99),
      await requestReviewers(admin, space.id, 'AAAAAAAAAAAAAAAAAAAA', { users: [reviewer] }),
      await removeReviewer(admin, space.id, 99, reviewer),
      await removeReviewer(admin, space.id, cr.id, admin.user.id),
      await removeReviewer(admin, space.id, cr.id, 'AAAAAAAAAAAAAAAAAAAA'),
      await listReviewers(outsider, space.id, cr.id),
      await requestReviewers(outsider, space.id, cr.id, { users: [outsider.user.id] }),
      await removeReviewer(outsider, space.id, cr.id, reviewer),
    ];
    for (const res of cases) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().error.code).toBe(404);
    }
    expect((await storedReviewers(cr.id)).map((row) => row.user_id)).toEqual([reviewer]);
  });

  it('a change request of another space is not found through this one', async () => {
    const { admin, member, organization, space, cr } = await changeRequestWithTeam();
    const other = await api.createSpace(admin, organization.id, { title: 'Other' });
    expect((await listReviewers(admin, other.id, cr.id)).statusCode).toBe(404);
    expect((await requestReviewers(admin, other.id, cr.id, { users: [member('review').user.id] })).statusCode).toBe(
      404,
    );
    expect((await listReviewers(admin, space.id, cr.id)).statusCode).toBe(200);
  });

  it('a requested user may remove themselves with only read access; others need edit', async () => {
    const { admin, member, organization, space, cr } = await changeRequestWithTeam();
    const reviewer = member('review');
    const editor = member('edit');
    const second = await t.factory.account();
    await t.factory.member(organization.id, second.user.id, 'review');
    await requestReviewers(admin, space.id, cr.id, { users: [reviewer.user.id, second.user.id, editor.user.id] });

    // Neither a reviewer nor a reader may remove someone else.
    for (const account of [reviewer, member('read')]) {
      const res = await removeReviewer(account, space.id, cr.id, second.user.id);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toContain('edit role');
    }

    // Demoted to read since the request, the reviewer still steps down.
    await t.db
      .updateTable('organization_members')
      .set({ role: 'read' })
      .where('organization_id', '=', organization.id)
      .where('user_id', '=', reviewer.user.id)
      .execute();
    const own = await removeReviewer(reviewer, space.id, String(cr.number), reviewer.user.id);
    expect(own.statusCode).toBe(205);
    expect(own.body).toBe('');
    expect((await removeReviewer(reviewer, space.id, cr.id, reviewer.user.id)).statusCode).toBe(404);

    const byEditor = await removeReviewer(editor, space.id, cr.id, second.user.id);
    expect(byEditor.statusCode).toBe(205);
    expect((await storedReviewers(cr.id)).map((row) => row.user_id)).toEqual([editor.user.id]);
    const listed = await listReviewers(admin, space.id, cr.id);
    expect(listed.json()).toMatchObject({ count: 1, items: [{ user: { id: editor.user.id } }] });
  });

  it('a merged change request refuses requests and removals with 409; an archived one refuses requests only', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const reviewer = member('review');
    await requestReviewers(admin, space.id, cr.id, { users: [reviewer.user.id] });
    const archived = (await api.createChangeRequest(admin, space.id)).json();
    await requestReviewers(admin, space.id, archived.id, { users: [reviewer.user.id] });
    expect((await api.patchChangeRequest(admin, space.id, archived.id, { status: 'archived' })).statusCode).toBe(200);

    const onArchived = await requestReviewers(admin, space.id, archived.id, { users: [admin.user.id] });
    expect(onArchived.statusCode).toBe(409);
    expect(onArchived.json().error.message).toContain('archived');
    expect((await removeReviewer(reviewer, space.id, archived.id, reviewer.user.id)).statusCode).toBe(205);

    await api.writeContent(admin, space.id, cr.id, [{ operation: 'insert_page', title: 'Page', document: {} }]);
    expect((await api.merge(admin, space.id, cr.id)).json().result).toBe('merge');
    const onMerged = await requestReviewers(admin, space.id, cr.id, { users: [admin.user.id], subject: 'Too late' });
    expect(onMerged.statusCode).toBe(409);
    expect(onMerged.json().error.message).toContain('merged');
    expect((await removeReviewer(admin, space.id, cr.id, reviewer.user.id)).statusCode).toBe(409);
    expect((await storedReviewers(cr.id)).map((row) => row.user_id)).toEqual([reviewer.user.id]);
    expect((await api.getChangeRequest(admin, space.id, cr.id)).json().subject).toBe('Draft');

    // The merged change request's reviewers still read.
    const listed = await listReviewers(admin, space.id, cr.id);
    expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, listed.json());
    expect(listed.json().count).toBe(1);
  });
});

describe('listing reviewers', () => {
  it('never shows a reviewer of another organization’s change request', async () => {
    const ours = await changeRequestWithTeam();
    const theirs = await changeRequestWithTeam();
    await requestReviewers(ours.admin, ours.space.id, ours.cr.id, { users: [ours.member('review').user.id] });
    await requestReviewers(theirs.admin, theirs.space.id, theirs.cr.id, { users: [theirs.member('review').user.id] });

    // Their admin cannot see our space, nor ask one of ours to review theirs.
    expect((await listReviewers(theirs.admin, ours.space.id, ours.cr.id)).statusCode).toBe(404);
    expect((await listReviewers(theirs.admin, ours.space.id, ours.cr.number)).statusCode).toBe(404);
    const crossed = await requestReviewers(theirs.admin, theirs.space.id, theirs.cr.id, {
      users: [ours.member('review').user.id],
    });
    expect(crossed.statusCode).toBe(400);

    const mine = (await listReviewers(ours.admin, ours.space.id, ours.cr.number)).json();
    expect(mine).toMatchObject({ count: 1, items: [{ user: { id: ours.member('review').user.id } }] });
    const theirList = (await listReviewers(theirs.admin, theirs.space.id, theirs.cr.number)).json();
    expect(theirList).toMatchObject({ count: 1, items: [{ user: { id: theirs.member('review').user.id } }] });
  });

  it('walks every page with a small limit, oldest first, ties by user id', async () => {
    const { admin, organization, space, cr } = await changeRequestWithTeam();
    const reviewers: string[] = [];
    for (let i = 0; i < 7; i++) {
      const account = await t.factory.account();
      await t.factory.member(organization.id, account.user.id, 'review');
      reviewers.push(account.user.id);
    }
    // One at a time, then three at once (one creation time for all three).
    for (const id of reviewers.slice(0, 4))
      expect((await requestReviewers(admin, space.id, cr.id, { users: [id] })).statusCode).toBe(200);
    expect((await requestReviewers(admin, space.id, cr.id, { users: reviewers.slice(4) })).statusCode).toBe(200);
    const expected = (await storedReviewers(cr.id)).map((row) => row.user_id);
    expect(new Set(expected.slice(0, 4))).toEqual(new Set(reviewers.slice(0, 4)));
    expect(expected.slice(4)).toEqual([...reviewers.slice(4)].sort());

    const walked: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const res = await listReviewers(admin, space.id, cr.id, { limit: '2', ...(page ? { page } : {}) });
      expect(res.statusCode, res.body).toBe(200);
      expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, res.json());
      expect(res.json().count).toBe(7);
      expect(res.json().items.length).toBeLessThanOrEqual(2);
      walked.push(...userIds(res.json().items));
      page = res.json().next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(4);
    expect(walked).toEqual(expected);

    expect((await listReviewers(admin, space.id, cr.id, { limit: '0' })).json()).toEqual({ count: 7, items: [] });

    // A cursor of another list, or a tampered one, is a 400.
    const first = (await listReviewers(admin, space.id, cr.id, { limit: '2' })).json().next.page as string;
    const other = (await api.createChangeRequest(admin, space.id)).json();
    await requestReviewers(admin, space.id, other.id, { users: reviewers.slice(0, 3) });
    expect((await listReviewers(admin, space.id, other.id, { limit: '2', page: first })).statusCode).toBe(400);
    expect((await listReviewers(admin, space.id, cr.id, { limit: '2', page: `${first}x` })).statusCode).toBe(400);
    const changeRequests = (await api.listChangeRequests(admin, space.id, { status: 'draft', limit: '1' })).json().next
      .page as string;
    expect((await listReviewers(admin, space.id, cr.id, { page: changeRequests })).statusCode).toBe(400);
  });

  it('shows a requester whose account is gone as a deleted user', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    await requestReviewers(admin, space.id, cr.id, { users: [member('review').user.id] });
    await t.db
      .updateTable('change_request_reviewers')
      .set({ requested_by: null })
      .where('change_request_id', '=', cr.id)
      .execute();
    const listed = await listReviewers(admin, space.id, cr.id);
    expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, listed.json());
    expect(listed.json().items[0].requestedBy).toMatchObject({
      object: 'user',
      id: 'deleted',
      displayName: 'Deleted user',
    });
  });
});

describe('concurrent requests', () => {
  it('asking for the same users in parallel leaves one row per user and the same answer for all', async () => {
    const { admin, member, organization, space, cr } = await changeRequestWithTeam();
    const extra = await t.factory.account();
    await t.factory.member(organization.id, extra.user.id, 'review');
    const users = [member('review').user.id, member('edit').user.id, extra.user.id];

    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        requestReviewers(i % 2 ? admin : member('edit'), space.id, cr.id, {
          users: i % 3 ? users : [...users].reverse(),
        }),
      ),
    );
    expect(results.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    const stored = await storedReviewers(cr.id);
    expect(stored.map((row) => row.user_id).sort()).toEqual([...users].sort());

    // Whoever won, every answer reports the one stored request of each user.
    const byUser = new Map(stored.map((row) => [row.user_id, row]));
    for (const res of results) {
      for (const item of res.json().users) {
        const row = byUser.get(item.user.id)!;
        expect(item.createdAt).toBe(row.created_at.toISOString());
        expect(item.requestedBy.id).toBe(row.requested_by);
      }
    }
  });
});

describe('through the official client', () => {
  it('requests, lists and removes reviewers', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const client = officialClient(await listen(t.app), admin.token);
    const reviewer = member('review').user.id;

    const requested = await client.spaces.requestReviewersForChangeRequest(space.id, cr.id, {
      users: [reviewer],
      subject: 'Please review',
    });
    expect(requested.status).toBe(200);
    expect(requested.data.users?.map((item) => (item.kind === 'user' ? item.user.id : item.team.id))).toEqual([
      reviewer,
    ]);

    const listed = await client.spaces.getRequestedReviewersByChangeRequestId(space.id, String(cr.number), {
      limit: 10,
    });
    expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, listed.data);
    expect(listed.data.count).toBe(1);
    expect(listed.data.items[0]).toMatchObject({
      kind: 'user',
      user: { id: reviewer },
      requestedBy: { id: admin.user.id },
      revision: cr.revision,
    });
    expect((await client.spaces.getChangeRequestById(space.id, cr.id)).data.subject).toBe('Please review');

    const removed = await client.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer);
    expect(removed.status).toBe(205);
    expect((await client.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id)).data).toEqual({
      count: 0,
      items: [],
    });
  });
});

describe('the API description', () => {
  it('publishes the three operations with their schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const list = doc.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers'];
    const one = doc.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}'];
    expect([list.get.operationId, list.post.operationId, one.delete.operationId]).toEqual([
      'getRequestedReviewersByChangeRequestId',
      'requestReviewersForChangeRequest',
      'removeRequestedReviewerFromChangeRequest',
    ]);
    expect(list.post.requestBody.content['application/json'].schema.properties.users).toMatchObject({
      maxItems: 100,
      uniqueItems: true,
    });
    expect(one.delete.responses['205']).toBeDefined();
  });
});
