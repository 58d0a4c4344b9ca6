import { describe, expect, it } from 'vitest';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (account: Account, method: Method, url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: account.headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const reviewersUrl = (spaceId: string, changeRequestId: string | number) =>
  `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/requested-reviewers`;

const storedRequests = (changeRequestId: string) =>
  t.db
    .selectFrom('change_request_reviewers')
    .select(['reviewer_id', 'user_id', 'team_id', 'requested_by', 'organization_id'])
    .where('change_request_id', '=', changeRequestId)
    .orderBy('created_at')
    .orderBy('reviewer_id')
    .execute();
const storedIds = async (changeRequestId: string) =>
  (await storedRequests(changeRequestId)).map((row) => row.reviewer_id).sort();

/** An organization with a member of each role, a space, a draft change request, and a team maker. */
async function setup() {
  const o = await t.factory.team([null, 'read', 'comment', 'review', 'edit']);
  const space = await api.createSpace(o.admin, o.organization.id, { title: 'Docs' });
  const created = await api.createChangeRequest(o.admin, space.id, { subject: 'Draft' });
  expect(created.statusCode).toBe(201);
  const cr = created.json() as { id: string; number: number; revision: string };
  const team = async (title: string, members: Account[] = []) => {
    const res = await call(o.admin, 'PUT', `/v1/orgs/${o.organization.id}/teams`, {
      title,
      members: members.map((member) => member.user.id),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; title: string };
  };
  return { ...o, space, cr, team, url: reviewersUrl(space.id, cr.id) };
}

describe('team reviewers', () => {
  it('a team of the organization is requested, listed as `kind: team` and stored once', async () => {
    const o = await setup();
    const writers = await o.team('Writers', [o.member('read')]);
    const reviewer = o.member('review');

    const res = await call(o.member('edit'), 'POST', o.url, { users: [reviewer.user.id], teams: [writers.id] });
    expect(res.statusCode, res.body).toBe(200);
    expectSpecResponse('requestReviewersForChangeRequest', 200, res.json());
    const [userItem, teamItem] = res.json().users;
    expect(userItem).toMatchObject({ kind: 'user', user: { id: reviewer.user.id } });
    expect(teamItem).toEqual({
      object: 'change-request-requested-reviewer',
      revision: o.cr.revision,
      requestedBy: {
        object: 'user',
        id: o.member('edit').user.id,
        displayName: o.member('edit').user.display_name,
        email: o.member('edit').user.email,
        urls: { location: `${PUBLIC_URL}/v1/users/${o.member('edit').user.id}` },
      },
      createdAt: userItem.createdAt,
      kind: 'team',
      team: { object: 'team', id: writers.id, title: 'Writers' },
    });
    expect(await storedRequests(o.cr.id)).toEqual(
      expect.arrayContaining([
        {
          reviewer_id: writers.id,
          user_id: null,
          team_id: writers.id,
          requested_by: o.member('edit').user.id,
          organization_id: o.organization.id,
        },
      ]),
    );

    // Asking again keeps the first request; the list shows both kinds, to anyone who reads the space.
    const again = await call(o.admin, 'POST', o.url, { users: [], teams: [writers.id] });
    expect(again.statusCode).toBe(200);
    expect(again.json().users).toEqual([teamItem]);
    expect(await storedIds(o.cr.id)).toEqual([reviewer.user.id, writers.id].sort());
    const listed = await call(o.member('read'), 'GET', o.url);
    expect(listed.statusCode).toBe(200);
    expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, listed.json());
    expect(listed.json().count).toBe(2);
    expect(listed.json().items).toEqual(expect.arrayContaining([userItem, teamItem]));
  });

  it('walks a list of users and teams page by page, oldest first, ties by id', async () => {
    const o = await setup();
    const teams = [await o.team('A'), await o.team('B'), await o.team('C')];
    await call(o.admin, 'POST', o.url, { users: [o.member('review').user.id] });
    await call(o.admin, 'POST', o.url, {
      users: [o.member('edit').user.id],
      teams: teams.map((team) => team.id),
    });
    const expected = (await storedRequests(o.cr.id)).map((row) => row.reviewer_id);
    expect(expected[0]).toBe(o.member('review').user.id);
    expect(expected.slice(1)).toEqual([o.member('edit').user.id, ...teams.map((team) => team.id)].sort());

    const walked: string[] = [];
    let page: string | undefined;
    do {
      const res = await t.app.inject({
        method: 'GET',
        url: o.url,
        headers: o.admin.headers,
        query: { limit: '2', ...(page ? { page } : {}) },
      });
      expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, res.json());
      expect(res.json().count).toBe(5);
      walked.push(
        ...res
          .json()
          .items.map((item: { kind: string; user?: { id: string }; team?: { id: string } }) =>
            item.kind === 'user' ? item.user!.id : item.team!.id,
          ),
      );
      page = res.json().next?.page;
    } while (page);
    expect(walked).toEqual(expected);
  });

  it('refuses teams of another organization and unknown ids with 400, naming them, storing nothing', async () => {
    const o = await setup();
    const other = await setup();
    const theirs = await other.team('Theirs');
    const ours = await o.team('Ours');

    const res = await call(o.admin, 'POST', o.url, { users: [], teams: [ours.id, theirs.id, 'nosuchteam'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      `body/teams names ids that are not teams of the space’s organization: ${theirs.id}, nosuchteam`,
    );
    // A refused user refuses the whole request too, teams included.
    const mixed = await call(o.admin, 'POST', o.url, { users: [o.member('read').user.id], teams: [ours.id] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().error.message).toContain(o.member('read').user.id);

    const malformed: Array<[unknown, string]> = [
      [{ users: [], teams: [] }, 'body/users and body/teams are both empty'],
      [{ teams: [ours.id] }, 'body/users is required'],
      [{ users: [], teams: [ours.id, ours.id] }, 'body/teams must NOT have duplicate items'],
      [{ users: [], teams: ours.id }, 'body/teams must be array'],
      [{ users: [], teams: [''] }, 'body/teams/0 must NOT have fewer than 1 characters'],
      [{ users: [], teams: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'must NOT have more than 100 items'],
    ];
    for (const [payload, message] of malformed) {
      const bad = await call(o.admin, 'POST', o.url, payload);
      expect(bad.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(bad.json().error.message).toContain(message);
    }
    expect(await storedRequests(o.cr.id)).toEqual([]);
  });

  it('requesting needs the edit role (403); strangers and other organizations get 404', async () => {
    const o = await setup();
    const team = await o.team('Team', [o.member('review')]);
    for (const role of ['read', 'comment', 'review'] as const) {
      const res = await call(o.member(role), 'POST', o.url, { users: [], teams: [team.id] });
      expect(res.statusCode, role).toBe(403);
    }
    const other = await setup();
    const stranger = await t.factory.account();
    for (const account of [stranger, other.admin, o.member(null)]) {
      expect((await call(account, 'POST', o.url, { users: [], teams: [team.id] })).statusCode).toBe(404);
      expect((await call(account, 'GET', o.url)).statusCode).toBe(404);
      expect((await call(account, 'DELETE', `${o.url}/${team.id}`)).statusCode).toBe(404);
    }
    expect(await storedRequests(o.cr.id)).toEqual([]);
  });

  it('a member of a requested team may withdraw the team’s request with read access; others need edit', async () => {
    const o = await setup();
    const readers = await o.team('Readers', [o.member('read')]);
    const others = await o.team('Others', [o.member('comment')]);
    await call(o.admin, 'POST', o.url, { users: [], teams: [readers.id, others.id] });

    // Not in the team: a commenter and a reviewer may not.
    for (const account of [o.member('comment'), o.member('review')]) {
      const res = await call(account, 'DELETE', `${o.url}/${readers.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toContain('a team they are in');
    }
    const own = await call(o.member('read'), 'DELETE', `${reviewersUrl(o.space.id, o.cr.number)}/${readers.id}`);
    expect(own.statusCode).toBe(205);
    expect(own.body).toBe('');
    expect((await call(o.member('read'), 'DELETE', `${o.url}/${readers.id}`)).statusCode).toBe(404);
    expect(await storedIds(o.cr.id)).toEqual([others.id]);

    const byEditor = await call(o.member('edit'), 'DELETE', `${o.url}/${others.id}`);
    expect(byEditor.statusCode).toBe(205);
    expect(await storedRequests(o.cr.id)).toEqual([]);
    const unknown = await call(o.member('edit'), 'DELETE', `${o.url}/${others.id}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('No review was requested from this user or team on the change request');
  });

  it('a merged change request refuses team requests and removals with 409', async () => {
    const o = await setup();
    const team = await o.team('Team');
    await call(o.admin, 'POST', o.url, { users: [], teams: [team.id] });
    expect((await api.merge(o.admin, o.space.id, o.cr.id)).statusCode).toBe(200);
    expect((await call(o.admin, 'POST', o.url, { users: [], teams: [team.id] })).statusCode).toBe(409);
    expect((await call(o.admin, 'DELETE', `${o.url}/${team.id}`)).statusCode).toBe(409);
    expect(await storedIds(o.cr.id)).toEqual([team.id]);
  });
});

describe('review requests follow their reviewers', () => {
  it('deleting a team removes its review requests, and only its own', async () => {
    const o = await setup();
    const gone = await o.team('Gone');
    const kept = await o.team('Kept');
    const second = (await api.createChangeRequest(o.admin, o.space.id)).json() as { id: string };
    await call(o.admin, 'POST', o.url, { users: [o.member('review').user.id], teams: [gone.id, kept.id] });
    await call(o.admin, 'POST', reviewersUrl(o.space.id, second.id), { users: [], teams: [gone.id] });

    const deleted = await call(o.admin, 'DELETE', `/v1/orgs/${o.organization.id}/teams/${gone.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(await storedIds(o.cr.id)).toEqual([o.member('review').user.id, kept.id].sort());
    expect(await storedRequests(second.id)).toEqual([]);
    const listed = await call(o.admin, 'GET', o.url);
    expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, listed.json());
    expect(listed.json().count).toBe(2);
  });

  it('a member who is removed, or leaves, is no longer asked to review; their team still is', async () => {
    const o = await setup();
    const leaver = o.member('review');
    const removed = o.member('edit');
    const team = await o.team('Team', [leaver, removed]);
    const second = (await api.createChangeRequest(o.admin, o.space.id)).json() as { id: string };
    await call(o.admin, 'POST', o.url, { users: [leaver.user.id, removed.user.id], teams: [team.id] });
    await call(o.admin, 'POST', reviewersUrl(o.space.id, second.id), { users: [leaver.user.id] });

    expect((await call(o.admin, 'DELETE', `/v1/orgs/${o.organization.id}/members/${removed.user.id}`)).statusCode).toBe(
      204,
    );
    expect(await storedIds(o.cr.id)).toEqual([leaver.user.id, team.id].sort());
    expect((await call(leaver, 'DELETE', `/v1/orgs/${o.organization.id}/members/${leaver.user.id}`)).statusCode).toBe(
      204,
    );
    expect(await storedIds(o.cr.id)).toEqual([team.id]);
    expect(await storedRequests(second.id)).toEqual([]);
    expect((await call(o.admin, 'GET', o.url)).json()).toMatchObject({ count: 1, items: [{ kind: 'team' }] });
  });

  it('a disabled membership loses its review requests', async () => {
    const o = await setup();
    await call(o.admin, 'POST', o.url, { users: [o.member('review').user.id, o.member('edit').user.id] });
    await t.db
      .updateTable('organization_members')
      .set({ disabled: true })
      .where('organization_id', '=', o.organization.id)
      .where('user_id', '=', o.member('review').user.id)
      .execute();
    expect(await storedIds(o.cr.id)).toEqual([o.member('edit').user.id]);
  });

  it('a transfer keeps the requests of users who are members of the new organization, and drops the rest', async () => {
    const o = await setup();
    const team = await o.team('Team');
    const both = o.member('review');
    const only = o.member('edit');
    const target = await t.factory.organization(o.admin.user.id);
    await t.factory.member(target.id, both.user.id, 'review');
    await call(o.admin, 'POST', o.url, { users: [both.user.id, only.user.id], teams: [team.id] });

    const res = await call(o.admin, 'POST', `/v1/spaces/${o.space.id}/transfer`, { organization: target.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await storedRequests(o.cr.id)).toEqual([expect.objectContaining({ reviewer_id: both.user.id })]);
    expect((await storedRequests(o.cr.id))[0]!.organization_id).toBe(target.id);
    const listed = await call(o.admin, 'GET', o.url);
    expect(listed.json()).toMatchObject({ count: 1, items: [{ kind: 'user', user: { id: both.user.id } }] });
  });
});

describe('concurrency', () => {
  it('a team deleted while it is requested leaves no request behind, and no request fails with a 5xx', async () => {
    const o = await setup();
    for (let round = 0; round < 6; round++) {
      const team = await o.team(`Racing ${round}`);
      const [requested, deleted] = await Promise.all([
        call(o.admin, 'POST', o.url, { users: [], teams: [team.id] }),
        call(o.admin, 'DELETE', `/v1/orgs/${o.organization.id}/teams/${team.id}`),
      ]);
      expect(deleted.statusCode).toBe(204);
      // Either the request came first (and went with the team) or it found no team.
      expect([200, 400]).toContain(requested.statusCode);
      expect(await storedIds(o.cr.id)).not.toContain(team.id);
    }
  });

  it('a member removed while being requested leaves no request behind', async () => {
    const o = await setup();
    for (let round = 0; round < 6; round++) {
      const account = await t.factory.account();
      await t.factory.member(o.organization.id, account.user.id, 'review');
      const [requested, removed] = await Promise.all([
        call(o.admin, 'POST', o.url, { users: [account.user.id] }),
        call(o.admin, 'DELETE', `/v1/orgs/${o.organization.id}/members/${account.user.id}`),
      ]);
      expect(removed.statusCode).toBe(204);
      expect([200, 400]).toContain(requested.statusCode);
      expect(await storedIds(o.cr.id)).not.toContain(account.user.id);
    }
  });
});

describe('through the official client', () => {
  it('requests a team, lists it and removes it', async () => {
    const o = await setup();
    const team = await o.team('Client team', [o.member('read')]);
    const endpoint = await listen(t.app);
    const client = officialClient(endpoint, o.admin.token);

    // `teams` goes beyond the spec's request body, which names only users.
    const body = { users: [o.member('review').user.id], teams: [team.id] } as { users: string[] };
    const requested = await client.spaces.requestReviewersForChangeRequest(o.space.id, o.cr.id, body);
    expect(requested.status).toBe(200);
    expect(requested.data.users?.map((item) => (item.kind === 'user' ? item.user.id : item.team.id))).toEqual([
      o.member('review').user.id,
      team.id,
    ]);

    const listed = await client.spaces.getRequestedReviewersByChangeRequestId(o.space.id, String(o.cr.number));
    expectSpecResponse('getRequestedReviewersByChangeRequestId', 200, listed.data);
    expect(listed.data.items.filter((item) => item.kind === 'team')).toEqual([
      expect.objectContaining({ team: { object: 'team', id: team.id, title: 'Client team' } }),
    ]);

    // A member of the team steps down for it through the same operation.
    const member = officialClient(endpoint, o.member('read').token);
    const removed = await member.spaces.removeRequestedReviewerFromChangeRequest(o.space.id, o.cr.id, team.id);
    expect(removed.status).toBe(205);
    expect((await client.spaces.getRequestedReviewersByChangeRequestId(o.space.id, o.cr.id)).data.count).toBe(1);
  });
});
