import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';

const t = useTestApp();

/** Each organization's kept member count next to its real number. */
async function countsOf(organizationIds: string[]) {
  const { rows } = await sql<{ id: string; stored: number; actual: number }>`
    select o.id, o.members_count as stored,
      (select count(*)::int from organization_members m where m.organization_id = o.id) as actual
    from organizations o where o.id = any(${organizationIds}::text[]) order by o.id`.execute(t.db);
  return rows;
}

async function expectExact(organizationIds: string[], step: string) {
  const rows = await countsOf(organizationIds);
  expect(rows.length, step).toBe(organizationIds.length);
  for (const row of rows) expect(row.stored, `${step}: organization ${row.id}`).toBe(row.actual);
}

async function call(account: Account, method: 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) {
  const res = await t.app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.body ? res.json() : undefined;
}

/** Accepts each invitation of an invite answer through its link, as its invitee would: for an existing account, with its token. */
async function acceptAll(invited: { acceptLinks: Array<{ url: string }> }, account?: Account) {
  for (const link of invited.acceptLinks) {
    const url = new URL(link.url);
    const res = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}/accept`,
      ...(account ? { headers: account.headers } : {}),
      payload: { secret: url.searchParams.get('secret') },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

async function listedCount(account: Account, organizationId: string): Promise<number> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/orgs/${organizationId}/members?limit=1`,
    headers: account.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json().count;
}

describe('the member counter behind the members list count', () => {
  it('stays equal to the real number through every way in and out of an organization', async () => {
    const admin = await t.factory.account();
    const first = await t.factory.organization(admin.user.id);
    const second = await t.factory.organization(admin.user.id);
    const both = [first.id, second.id];
    await expectExact(both, 'created');
    expect(await listedCount(admin, first.id)).toBe(1);

    const invited = await call(admin, 'POST', `/v1/orgs/${first.id}/invites`, {
      emails: ['one@counts.example', 'two@counts.example', { email: 'guest@counts.example', role: null }],
      role: 'read',
    });
    await acceptAll(invited);
    await expectExact(both, 'invited by e-mail and accepted');
    expect(await listedCount(admin, first.id)).toBe(4);

    const link = await call(admin, 'POST', `/v1/orgs/${second.id}/link-invites`, { role: 'edit' });
    const joiners = await Promise.all([t.factory.account(), t.factory.account(), t.factory.account()]);
    // Joining at the same moment: each statement's change lands on the same row.
    await Promise.all(joiners.map((joiner) => call(joiner, 'POST', `/v1/orgs/${second.id}/invites/${link.id}`)));
    await expectExact(both, 'joined through a link at once');
    expect(await listedCount(admin, second.id)).toBe(4);
    // Joining again adds nobody.
    await call(joiners[0]!, 'POST', `/v1/orgs/${second.id}/invites/${link.id}`);
    expect(await listedCount(admin, second.id)).toBe(4);

    await call(admin, 'DELETE', `/v1/orgs/${second.id}/members/${joiners[0]!.user.id}`);
    await call(joiners[1]!, 'DELETE', `/v1/orgs/${second.id}/members/${joiners[1]!.user.id}`);
    await expectExact(both, 'removed and left');
    expect(await listedCount(admin, second.id)).toBe(2);

    // A user deleted leaves every organization of theirs in one statement.
    await acceptAll(
      await call(admin, 'POST', `/v1/orgs/${first.id}/invites`, { emails: [joiners[2]!.user.email], role: 'read' }),
      joiners[2]!,
    );
    await t.db.deleteFrom('users').where('id', '=', joiners[2]!.user.id).execute();
    await expectExact(both, 'a member of both deleted');
    expect([await listedCount(admin, first.id), await listedCount(admin, second.id)]).toEqual([4, 1]);

    // The filters other than none still count their rows.
    const guests = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${first.id}/members?role=guest&limit=1`,
      headers: admin.headers,
    });
    expect(guests.json().count).toBe(1);
  });

  it('stays exact when memberships of several organizations come and go in statements racing each other', async () => {
    const admin = await t.factory.account();
    const organizations = await Promise.all([1, 2, 3].map(() => t.factory.organization(admin.user.id)));
    const ids = organizations.map((organization) => organization.id);
    const users = await Promise.all(Array.from({ length: 12 }, () => t.factory.user()));
    // Every user joins every organization, in opposite orders from two sides, then half of them go.
    await Promise.all(
      users.map((user, n) =>
        t.db
          .insertInto('organization_members')
          .values(
            (n % 2 === 0 ? ids : [...ids].reverse()).map((id) => ({
              organization_id: id,
              user_id: user.id,
              role: 'read' as const,
            })),
          )
          .execute(),
      ),
    );
    await expectExact(ids, 'joined');
    await Promise.all(users.slice(0, 6).map((user) => t.db.deleteFrom('users').where('id', '=', user.id).execute()));
    await expectExact(ids, 'half deleted');
    expect((await countsOf(ids)).map((row) => row.stored)).toEqual([7, 7, 7]);

    // A membership never moves: the count could not follow it.
    const moving = t.db
      .updateTable('organization_members')
      .set({ organization_id: ids[1]! })
      .where('organization_id', '=', ids[0]!)
      .where('user_id', '=', users[6]!.id)
      .execute();
    await expect(moving).rejects.toMatchObject({ code: '23514' });
    await expectExact(ids, 'a move refused');
  });
});
