import { beforeAll, describe, expect, it } from 'vitest';
import { ChangeRequestReviewStatus, GitBookAPIError } from '@gitbook/api-next';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);
let endpoint: string;

beforeAll(async () => {
  endpoint = await listen(t.app);
});

const reviewsUrl = (spaceId: string, changeRequestId: string | number) =>
  `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/reviews`;

const submit = (account: Account | null, spaceId: string, changeRequestId: string | number, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: reviewsUrl(spaceId, changeRequestId),
    ...(account ? { headers: account.headers } : {}),
    payload: payload as object,
  });
const list = (account: Account, spaceId: string, changeRequestId: string, query: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: reviewsUrl(spaceId, changeRequestId), headers: account.headers, query });
const requestReviewers = (account: Account, spaceId: string, changeRequestId: string, users: string[]) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/requested-reviewers`,
    headers: account.headers,
    payload: { users },
  });

const storedReviews = (changeRequestId: string) =>
  t.db
    .selectFrom('change_request_reviews')
    .select(['id', 'reviewer_id', 'status', 'revision_id', 'requested_by', 'comment_id', 'organization_id'])
    .where('change_request_id', '=', changeRequestId)
    .orderBy('created_at')
    .execute();
const requestedUsers = async (changeRequestId: string) =>
  (
    await t.db
      .selectFrom('change_request_reviewers')
      .select('reviewer_id')
      .where('change_request_id', '=', changeRequestId)
      .orderBy('reviewer_id')
      .execute()
  ).map((row) => row.reviewer_id);

/** An organization with a member of every role, a space, and an open change request by the editor. */
async function changeRequestWithTeam() {
  const team = await t.factory.team([null, 'read', 'comment', 'review', 'edit']);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  const author = team.member('edit');
  const created = await api.createChangeRequest(author, space.id, { subject: 'Draft' });
  expect(created.statusCode).toBe(201);
  const cr = created.json() as { id: string; number: number; revision: string };
  return { ...team, space, cr, author };
}

const userOf = (account: Account) => ({
  object: 'user',
  id: account.user.id,
  displayName: account.user.display_name,
  email: account.user.email,
  urls: { location: `${PUBLIC_URL}/v1/users/${account.user.id}` },
});

describe('submitting a review', () => {
  it('records an approval of the current revision that answers the reviewer’s request, through the official client', async () => {
    const { admin, member, organization, space, cr, author } = await changeRequestWithTeam();
    const reviewer = member('review');
    expect((await requestReviewers(author, space.id, cr.id, [reviewer.user.id])).statusCode).toBe(200);

    const client = newestOfficialClient(endpoint, reviewer.token);
    const { data, status } = await client.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: ChangeRequestReviewStatus.Approved,
    });
    expect(status).toBe(201);
    expectNewestSpecResponse('submitChangeRequestReview', 201, data);
    expect(data).toEqual({
      object: 'change-request-review',
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      revision: cr.revision,
      reviewer: userOf(reviewer),
      requestedBy: userOf(author),
      status: 'approved',
      outdated: false,
      createdAt: data.createdAt,
      updatedAt: data.createdAt,
      urls: { location: `${PUBLIC_URL}/v1/spaces/${space.id}/change-requests/${cr.id}/reviews/${data.id}` },
    });
    expect(await storedReviews(cr.id)).toEqual([
      {
        id: data.id,
        reviewer_id: reviewer.user.id,
        status: 'approved',
        revision_id: cr.revision,
        requested_by: author.user.id,
        comment_id: null,
        organization_id: organization.id,
      },
    ]);
    // The request is answered: it leaves the requested reviewers.
    expect(await requestedUsers(cr.id)).toEqual([]);

    const byId = await client.spaces.getChangeRequestReviewById(space.id, cr.id, data.id);
    expectNewestSpecResponse('getChangeRequestReviewById', 200, byId.data);
    expect(byId.data).toEqual(data);
    const listed = await newestOfficialClient(endpoint, member('read').token).spaces.getReviewsByChangeRequestId(
      space.id,
      cr.id,
    );
    expectNewestSpecResponse('getReviewsByChangeRequestId', 200, listed.data);
    expect(listed.data).toEqual({ count: 1, items: [data] });
    // An admin, not requested, may review too: without a request, no requestedBy.
    const unrequested = await submit(admin, space.id, cr.number, { status: 'changes-requested' });
    expect(unrequested.statusCode, unrequested.body).toBe(201);
    expect(unrequested.json().requestedBy).toBeUndefined();
    expect(unrequested.headers.location).toBe(unrequested.json().urls.location);
  });

  it('posts its comment in the change request’s thread and shows it in either form', async () => {
    const { member, space, cr } = await changeRequestWithTeam();
    const reviewer = member('review');
    const res = await submit(reviewer, space.id, cr.id, {
      status: 'changes-requested',
      comment: { markdown: 'Please **fix** the intro.' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expectNewestSpecResponse('submitChangeRequestReview', 201, res.json());
    const review = res.json();
    expect(review.comment).toMatchObject({
      object: 'comment',
      body: { markdown: 'Please **fix** the intro.' },
      postedBy: { id: reviewer.user.id },
    });
    const [stored] = await storedReviews(cr.id);
    expect(stored!.comment_id).toBe(review.comment.id);
    const comments = await api.read(reviewer, `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`);
    expect(comments.json().items.map((item: { id: string }) => item.id)).toEqual([review.comment.id]);

    const asDocument = await api.read(reviewer, `${reviewsUrl(space.id, cr.id)}/${review.id}`, {
      format: 'document',
    });
    expect(asDocument.statusCode).toBe(200);
    expectNewestSpecResponse('getChangeRequestReviewById', 200, asDocument.json());
    expect(asDocument.json().comment.body.document).toMatchObject({ object: 'document' });
  });

  it('goes outdated when the change request moves to a new revision, and the outdated filter splits the list', async () => {
    const { member, space, cr, author } = await changeRequestWithTeam();
    const reviewer = member('review');
    const first = (await submit(reviewer, space.id, cr.id, { status: 'approved' })).json();
    const written = await api.writeContent(author, space.id, cr.id, [
      { operation: 'insert_page', title: 'New', document: {} },
    ]);
    expect(written.statusCode).toBe(200);
    const revision = written.json().revision as string;

    const again = await list(reviewer, space.id, cr.id);
    expectNewestSpecResponse('getReviewsByChangeRequestId', 200, again.json());
    expect(again.json().items).toEqual([{ ...first, outdated: true }]);
    const second = (await submit(reviewer, space.id, cr.id, { status: 'changes-requested' })).json();
    expect(second).toMatchObject({ revision, outdated: false });

    expect((await list(reviewer, space.id, cr.id, { outdated: 'false' })).json()).toEqual({
      count: 1,
      items: [second],
    });
    expect((await list(reviewer, space.id, cr.id, { outdated: 'true' })).json()).toEqual({
      count: 1,
      items: [{ ...first, outdated: true }],
    });
    // A new request of the same reviewer supersedes their review too.
    expect((await requestReviewers(author, space.id, cr.id, [reviewer.user.id])).statusCode).toBe(200);
    expect((await list(reviewer, space.id, cr.id, { outdated: 'false' })).json().count).toBe(0);
  });

  it('answers a team’s request with a member’s review', async () => {
    const { admin, member, organization, space, cr, author } = await changeRequestWithTeam();
    const reviewer = member('review');
    const created = await t.app.inject({
      method: 'PUT',
      url: `/v1/orgs/${organization.id}/teams`,
      headers: admin.headers,
      payload: { title: 'Reviewers', members: [reviewer.user.id] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const teamId = created.json().id as string;
    const asked = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`,
      headers: author.headers,
      payload: { users: [], teams: [teamId] },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const review = (await submit(reviewer, space.id, cr.id, { status: 'approved' })).json();
    expect(review.requestedBy.id).toBe(author.user.id);
    expect(await requestedUsers(cr.id)).toEqual([]);
  });

  it('lets the author request changes on their own work but not approve it', async () => {
    const { space, cr, author } = await changeRequestWithTeam();
    const refused = await submit(author, space.id, cr.id, { status: 'approved' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: { code: 403, message: 'The author of a change request cannot approve it' },
    });
    expect(await storedReviews(cr.id)).toEqual([]);
    expect((await submit(author, space.id, cr.id, { status: 'changes-requested' })).statusCode).toBe(201);
  });

  it('refuses bad input, callers without the review role, strangers and closed change requests, changing nothing', async () => {
    const { admin, member, space, cr, author } = await changeRequestWithTeam();
    const stranger = await t.factory.account();
    const countThreadComments = async () =>
      (await t.db.selectFrom('comments').select('id').where('change_request_id', '=', cr.id).execute()).length;

    const noToken = await submit(null, space.id, cr.id, { status: 'approved' });
    expect(noToken.statusCode).toBe(401);
    const badStatus = await submit(admin, space.id, cr.id, { status: 'lgtm' });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().error.message).toContain('body/status');
    expect((await submit(admin, space.id, cr.id, {})).statusCode).toBe(400);
    expect((await submit(admin, space.id, cr.id, { status: 'approved', extra: 1 })).statusCode).toBe(400);
    const longComment = await submit(admin, space.id, cr.id, {
      status: 'approved',
      comment: { markdown: 'x'.repeat(70_000) },
    });
    expect(longComment.statusCode).toBe(400);

    for (const role of ['read', 'comment'] as const) {
      const res = await submit(member(role), space.id, cr.id, { status: 'approved' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe('Reviewing a change request needs the review role');
    }
    expect((await submit(stranger, space.id, cr.id, { status: 'approved' })).statusCode).toBe(404);
    expect((await submit(admin, space.id, 'nOsUcHcHaNgErEqUeSt', { status: 'approved' })).statusCode).toBe(404);
    expect((await api.read(admin, `${reviewsUrl(space.id, cr.id)}/nOsUcHrEvIeW`)).statusCode).toBe(404);
    expect((await list(stranger, space.id, cr.id)).statusCode).toBe(404);
    const foreign = await t.factory.team(['review']);
    const foreignSpace = await api.createSpace(foreign.admin, foreign.organization.id, { title: 'Other' });
    // A review of another space's change request is not found through this one.
    expect((await submit(foreign.admin, foreignSpace.id, cr.id, { status: 'approved' })).statusCode).toBe(404);

    expect((await api.patchChangeRequest(author, space.id, cr.id, { status: 'archived' })).statusCode).toBe(200);
    const archived = await submit(admin, space.id, cr.id, { status: 'approved', comment: { markdown: 'No' } });
    expect(archived.statusCode).toBe(409);
    expect((await api.patchChangeRequest(author, space.id, cr.id, { status: 'open' })).statusCode).toBe(200);
    const locked = await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: admin.headers,
      payload: { editMode: 'locked' },
    });
    expect(locked.statusCode).toBe(200);
    expect((await submit(admin, space.id, cr.id, { status: 'approved' })).statusCode).toBe(403);
    expect(await storedReviews(cr.id)).toEqual([]);
    expect(await countThreadComments()).toBe(0);

    await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: admin.headers,
      payload: { editMode: 'live' },
    });
    expect((await api.merge(admin, space.id, cr.id)).json().result).toBe('merge');
    const merged = await submit(admin, space.id, cr.id, { status: 'approved' });
    expect(merged.statusCode).toBe(409);
    expect(merged.json().error.message).toBe('The change request is merged; it can no longer be reviewed');
    expect(await storedReviews(cr.id)).toEqual([]);

    const client = newestOfficialClient(endpoint, member('read').token);
    const error = await client.spaces
      .submitChangeRequestReview(space.id, cr.id, { status: ChangeRequestReviewStatus.Approved })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect((error as GitBookAPIError).code).toBe(403);
  });

  it('shows who replied to a review’s comment', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const posted = await submit(member('review'), space.id, cr.id, {
      status: 'changes-requested',
      comment: { markdown: 'Why?' },
    });
    const review = posted.json();
    const replied = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${review.comment.id}/replies`,
      headers: admin.headers,
      payload: { body: { markdown: 'Because.' } },
    });
    expect(replied.statusCode, replied.body).toBeLessThan(300);
    const read = await api.read(admin, review.urls.location.replace(PUBLIC_URL, ''));
    expectNewestSpecResponse('getChangeRequestReviewById', 200, read.json());
    expect(read.json().comment).toMatchObject({ replies: 1, repliers: [{ user: { id: admin.user.id }, count: 1 }] });
  });

  it('changes what a kept answer of the change request says: a review ticks its clock', async () => {
    const { admin, member, organization, space, cr, author } = await changeRequestWithTeam();
    const rules = { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] } };
    const url = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const first = await api.read(author, url);
    expect(first.headers.etag).toMatch(/^"/);
    // Unchanged, the kept answer is served again.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url,
          headers: { ...author.headers, 'if-none-match': String(first.headers.etag) },
        })
      ).statusCode,
    ).toBe(304);
    const set = await t.app.inject({
      method: 'PATCH',
      url: `/v1/orgs/${organization.id}`,
      headers: admin.headers,
      payload: rules,
    });
    expect(set.statusCode).toBe(200);
    const afterRules = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...author.headers, 'if-none-match': String(first.headers.etag) },
    });
    expect(afterRules.statusCode).toBe(200);
    expect(afterRules.json().permissions.merge).toBe(false);
    expect((await submit(member('review'), space.id, cr.id, { status: 'approved' })).statusCode).toBe(201);
    const afterReview = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...author.headers, 'if-none-match': String(afterRules.headers.etag) },
    });
    expect(afterReview.statusCode).toBe(200);
    expect(afterReview.json().permissions.merge).toBe(true);
  });

  it('records concurrent reviews of one change request each once', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    const results = await Promise.all([
      submit(member('review'), space.id, cr.id, { status: 'approved', comment: { markdown: 'Yes' } }),
      submit(admin, space.id, cr.id, { status: 'changes-requested', comment: { markdown: 'No' } }),
      submit(member('review'), space.id, cr.id, { status: 'changes-requested' }),
    ]);
    expect(results.map((res) => res.statusCode)).toEqual([201, 201, 201]);
    expect(await storedReviews(cr.id)).toHaveLength(3);
    const changeRequest = await t.db
      .selectFrom('change_requests')
      .select(['comments_count', 'comments_total_count'])
      .where('id', '=', cr.id)
      .executeTakeFirstOrThrow();
    expect(changeRequest).toEqual({ comments_count: 2, comments_total_count: 2 });
    // The reviewer's latest review is the current one; the earlier is outdated.
    const current = (await list(admin, space.id, cr.id, { outdated: 'false' })).json();
    expect(current.count).toBe(2);
  });

  it('pages through the reviews newest first', async () => {
    const { admin, member, space, cr } = await changeRequestWithTeam();
    for (let i = 0; i < 3; i++) await submit(member('review'), space.id, cr.id, { status: 'changes-requested' });
    await submit(admin, space.id, cr.id, { status: 'approved' });
    const first = await list(admin, space.id, cr.id, { limit: '3' });
    expect(first.json().count).toBe(4);
    expect(first.json().items).toHaveLength(3);
    expect(first.json().items[0].reviewer.id).toBe(admin.user.id);
    const second = await list(admin, space.id, cr.id, { limit: '3', page: first.json().next.page });
    expect(second.json().items).toHaveLength(1);
    expect(second.json().next).toBeUndefined();
    expect((await list(admin, space.id, cr.id, { page: first.json().next.page, outdated: 'true' })).statusCode).toBe(
      400,
    );
  });
});
