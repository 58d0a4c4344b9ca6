import { beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPIError } from '@gitbook/api-next';
import { mergeChangeRequest } from '../src/change-requests/actions.js';
import { listen, useTestApp } from './support/app.js';
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

const patch = (account: Account, url: string, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url, headers: account.headers, payload: payload as object });
const review = (account: Account, spaceId: string, changeRequestId: string, status: string) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/reviews`,
    headers: account.headers,
    payload: { status },
  });
const rules = (...list: object[]) => ({ mergeRules: { type: 'rules', rules: list } });

/** What a refused merge must leave as it was. */
async function stateOf(spaceId: string, changeRequestId: string) {
  const space = await t.db
    .selectFrom('spaces')
    .select(['revision_id', 'change_requests_open_count'])
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
  const changeRequest = await t.db
    .selectFrom('change_requests')
    .select(['status', 'revision_merged_id', 'merged_at'])
    .where('id', '=', changeRequestId)
    .executeTakeFirstOrThrow();
  return { space, changeRequest };
}

/** An organization with reviewers, a space, and an open change request by the editor with a page in it. */
async function setUp(organizationRules?: object) {
  const team = await t.factory.team(['read', 'review', 'edit']);
  if (organizationRules) {
    const res = await patch(team.admin, `/v1/orgs/${team.organization.id}`, organizationRules);
    expect(res.statusCode, res.body).toBe(200);
  }
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  const author = team.member('edit');
  const cr = await api.openChangeRequest(author, space.id, 'Add a page');
  const written = await api.writeContent(author, space.id, cr, [
    { operation: 'insert_page', title: 'Page', document: { markdown: 'Text.' } },
  ]);
  expect(written.statusCode).toBe(200);
  return { ...team, space, cr, author };
}

describe('merge rules', () => {
  it('an organization that requires an approval refuses a merge without one (409 naming the rule) and changes nothing', async () => {
    const { admin, member, organization, space, cr, author } = await setUp();
    const client = newestOfficialClient(endpoint, admin.token);
    const updated = await client.orgs.updateOrganizationById(organization.id, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_approved_review' }] },
    } as never);
    expectNewestSpecResponse('updateOrganizationById', 200, updated.data);
    expect(updated.data.mergeRules).toEqual({
      type: 'rules',
      rules: [{ rule: 'require_at_least_one_approved_review' }],
    });

    const before = await stateOf(space.id, cr);
    const refused = await api.merge(author, space.id, cr);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: {
        code: 409,
        message:
          'The change request does not meet the space’s merge rules: require_at_least_one_approved_review ' +
          '(it needs an approval of its current revision)',
      },
    });
    expect(await stateOf(space.id, cr)).toEqual(before);
    expect((await api.getChangeRequest(author, space.id, cr)).json().permissions).toEqual({
      merge: false,
      review: true,
    });
    const error = await newestOfficialClient(endpoint, author.token)
      .spaces.mergeChangeRequest(space.id, cr)
      .catch((caught: unknown) => caught);
    expect((error as GitBookAPIError).code).toBe(409);

    // A request for changes is no approval.
    expect((await review(member('review'), space.id, cr, 'changes-requested')).statusCode).toBe(201);
    expect((await api.merge(author, space.id, cr)).statusCode).toBe(409);
    expect((await review(member('review'), space.id, cr, 'approved')).statusCode).toBe(201);
    const shown = (await api.getChangeRequest(author, space.id, cr)).json();
    expect(shown.permissions).toEqual({ merge: true, review: true });
    // A reader may not merge, whatever the reviews.
    expect((await api.getChangeRequest(member('read'), space.id, cr)).json().permissions).toEqual({
      merge: false,
      review: false,
    });
    const merged = await newestOfficialClient(endpoint, author.token).spaces.mergeChangeRequest(space.id, cr);
    expect(merged.data.result).toBe('merge');
  });

  it('counts only approvals of the current revision: a write after the approval needs a new one', async () => {
    const { member, space, cr, author } = await setUp(rules({ rule: 'require_at_least_one_approved_review' }));
    expect((await review(member('review'), space.id, cr, 'approved')).statusCode).toBe(201);
    const written = await api.writeContent(author, space.id, cr, [
      { operation: 'insert_page', title: 'Another', document: { markdown: 'More.' } },
    ]);
    expect(written.statusCode).toBe(200);
    const before = await stateOf(space.id, cr);
    expect((await api.merge(author, space.id, cr)).statusCode).toBe(409);
    expect(await stateOf(space.id, cr)).toEqual(before);
    expect((await review(member('review'), space.id, cr, 'approved')).statusCode).toBe(201);
    expect((await api.merge(author, space.id, cr)).json().result).toBe('merge');
  });

  it('takes the space’s own rules over the organization’s: none, or rules of its own', async () => {
    const { admin, member, space, cr, author } = await setUp(rules({ rule: 'require_at_least_one_approved_review' }));
    const none = await patch(admin, `/v1/spaces/${space.id}`, { mergeRules: { type: 'none' } });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().mergeRules).toEqual({ type: 'none' });
    const reviewer = member('review');
    const own = await patch(
      admin,
      `/v1/spaces/${space.id}`,
      rules({ rule: 'require_specific_reviewers', users: [reviewer.user.id, admin.user.id] }),
    );
    expect(own.statusCode, own.body).toBe(200);
    expect((await review(reviewer, space.id, cr, 'approved')).statusCode).toBe(201);
    const refused = await api.merge(author, space.id, cr);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain(
      `require_specific_reviewers (it needs the approval of ${admin.user.id} on its current revision)`,
    );
    expect((await review(admin, space.id, cr, 'approved')).statusCode).toBe(201);
    expect((await api.merge(author, space.id, cr)).json().result).toBe('merge');

    // Back to the organization's.
    const inherit = await patch(admin, `/v1/spaces/${space.id}`, { mergeRules: { type: 'inherit' } });
    expect(inherit.json().mergeRules).toEqual({ type: 'inherit' });
    const next = await api.openChangeRequest(author, space.id, 'Next');
    expect((await api.merge(author, space.id, next)).statusCode).toBe(409);
  });

  it('lets the users of allow_bypass merge without the other rules, and no one else', async () => {
    const { admin, space, cr, author } = await setUp();
    const set = await patch(
      admin,
      `/v1/spaces/${space.id}`,
      rules({ rule: 'require_at_least_one_approved_review' }, { rule: 'allow_bypass', users: [admin.user.id] }),
    );
    expect(set.statusCode, set.body).toBe(200);
    expect((await api.merge(author, space.id, cr)).statusCode).toBe(409);
    expect((await api.getChangeRequest(admin, space.id, cr)).json().permissions.merge).toBe(true);
    expect((await api.merge(admin, space.id, cr)).json().result).toBe('merge');
  });

  it('checks the subject, the author, being up to date, and that every requested review approves', async () => {
    const { admin, member, space, cr, author } = await setUp();
    const reviewer = member('review');
    // The space moves on under the change request.
    const other = await api.openChangeRequest(admin, space.id, 'Other');
    await api.writeContent(admin, space.id, other, [{ operation: 'insert_page', title: 'Other', document: {} }]);
    expect((await api.merge(admin, space.id, other)).json().result).toBe('merge');
    const set = await patch(
      admin,
      `/v1/spaces/${space.id}`,
      rules(
        { rule: 'require_change_request_subject' },
        { rule: 'require_author_to_merge' },
        { rule: 'require_up_to_date_change_request' },
        { rule: 'require_all_reviews_approved' },
      ),
    );
    expect(set.statusCode, set.body).toBe(200);
    await api.patchChangeRequest(author, space.id, cr, { subject: '  ' });
    const asked = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/change-requests/${cr}/requested-reviewers`,
      headers: author.headers,
      payload: { users: [reviewer.user.id, admin.user.id] },
    });
    expect(asked.statusCode).toBe(200);

    const refused = await api.merge(admin, space.id, cr);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'The change request does not meet the space’s merge rules: ' +
        'require_change_request_subject (it needs a subject); ' +
        'require_author_to_merge (only its author may merge it); ' +
        'require_up_to_date_change_request (it must first be brought up to date with the space); ' +
        'require_all_reviews_approved (2 requested review(s) are still to come)',
    );
    await api.patchChangeRequest(author, space.id, cr, { subject: 'Add a page' });
    const updated = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/change-requests/${cr}/update`,
      headers: author.headers,
    });
    expect(updated.json().result).toBe('update');
    expect((await review(reviewer, space.id, cr, 'changes-requested')).statusCode).toBe(201);
    expect((await review(admin, space.id, cr, 'approved')).statusCode).toBe(201);
    expect((await api.merge(author, space.id, cr)).json().error.message).toBe(
      'The change request does not meet the space’s merge rules: ' +
        `require_all_reviews_approved (changes are requested by ${reviewer.user.id})`,
    );
    expect((await review(reviewer, space.id, cr, 'approved')).statusCode).toBe(201);
    expect((await api.merge(admin, space.id, cr)).statusCode).toBe(409);
    expect((await api.merge(author, space.id, cr)).json().result).toBe('merge');
  });

  it('does not hold Git Sync’s merges to the rules', async () => {
    const { space, cr, author } = await setUp(rules({ rule: 'require_at_least_one_approved_review' }));
    expect((await api.merge(author, space.id, cr)).statusCode).toBe(409);
    const outcome = await mergeChangeRequest(t.app.context, author.user.id, space.id, cr, 'git-sync');
    expect(outcome.result).toBe('merge');
  });

  it('refuses rules it cannot evaluate, users outside the organization and non-admins, changing nothing', async () => {
    const { admin, member, organization, space } = await setUp();
    const stranger = await t.factory.account();
    const organizationRules = async () =>
      (
        await t.db
          .selectFrom('organizations')
          .select('merge_rules')
          .where('id', '=', organization.id)
          .executeTakeFirstOrThrow()
      ).merge_rules;
    const spaceRules = async () =>
      (await t.db.selectFrom('spaces').select('merge_rules').where('id', '=', space.id).executeTakeFirstOrThrow())
        .merge_rules;

    const custom = await patch(admin, `/v1/spaces/${space.id}`, rules({ rule: 'custom', expression: 'true' }));
    expect(custom.statusCode).toBe(400);
    expect(custom.json().error.message).toBe(
      'body/mergeRules/rules/0: the rule custom is not supported by this service ' +
        '(it has no review agent, change request descriptions or rule expressions)',
    );
    const strangers = await patch(
      admin,
      `/v1/orgs/${organization.id}`,
      rules({ rule: 'require_one_of_specific_reviewers', users: [stranger.user.id] }),
    );
    expect(strangers.statusCode).toBe(400);
    expect(strangers.json().error.message).toBe(
      `body/mergeRules names users who are not members of the organization: ${stranger.user.id}`,
    );
    for (const body of [
      { mergeRules: { type: 'inherit' } },
      { mergeRules: { type: 'sometimes' } },
      rules({ rule: 'require_specific_reviewers' }),
      rules({ rule: 'require_specific_reviewers', users: [] }),
      rules({ rule: 'require_at_least_one_review', users: [stranger.user.id] }),
      rules(...Array.from({ length: 21 }, () => ({ rule: 'require_at_least_one_review' }))),
    ]) {
      expect((await patch(admin, `/v1/orgs/${organization.id}`, body)).statusCode).toBe(400);
    }
    expect((await patch(admin, `/v1/spaces/${space.id}`, { mergeRules: { type: 'rules' } })).statusCode).toBe(400);

    const editorRefused = await patch(member('edit'), `/v1/spaces/${space.id}`, { mergeRules: { type: 'none' } });
    expect(editorRefused.statusCode).toBe(403);
    expect(editorRefused.json().error.message).toBe('Changing the merge rules of a space needs the admin role on it');
    expect(
      (await patch(member('edit'), `/v1/orgs/${organization.id}`, { mergeRules: { type: 'none' } })).statusCode,
    ).toBe(403);
    expect((await patch(stranger, `/v1/spaces/${space.id}`, { mergeRules: { type: 'none' } })).statusCode).toBe(404);
    expect(await organizationRules()).toEqual({ type: 'none' });
    expect(await spaceRules()).toEqual({ type: 'inherit' });
  });

  it('a review and a merge at once: the merge sees the approval whole or not at all', async () => {
    const { member, space, cr, author } = await setUp(rules({ rule: 'require_at_least_one_approved_review' }));
    const [approved, merged] = await Promise.all([
      review(member('review'), space.id, cr, 'approved'),
      api.merge(author, space.id, cr),
    ]);
    expect(approved.statusCode).toBe(201);
    const state = await stateOf(space.id, cr);
    if (merged.statusCode === 200) expect(state.changeRequest.status).toBe('merged');
    else {
      expect(merged.statusCode).toBe(409);
      // Refused, it stays as it was made: a draft.
      expect(state.changeRequest.status).toBe('draft');
      expect((await api.merge(author, space.id, cr)).json().result).toBe('merge');
    }
  });
});
