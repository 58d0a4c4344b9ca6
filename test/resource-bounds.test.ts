import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';

describe('rate limits count per user and per organization, not per token', () => {
  const USER_MAX = 4;
  const ORGANIZATION_MAX = 6;
  const t = useTestApp({
    config: { rateLimit: { max: USER_MAX, organizationMax: ORGANIZATION_MAX, windowMs: 60_000 } },
  });

  it('limits a second token of a user once the first used up the user’s budget', async () => {
    const first = await t.factory.account();
    const second = await t.factory.token(first.user.id);
    for (let i = 0; i < USER_MAX; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/v1/user', headers: first.headers })).statusCode).toBe(200);
    }
    const refused = await t.app.inject({ method: 'GET', url: '/v1/user', headers: second.headers });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: { code: 429, message: expect.stringMatching(/^Rate limit exceeded: 4 requests per/) },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    // A third token made now shares the spent budget too.
    const third = await t.factory.token(first.user.id);
    expect((await t.app.inject({ method: 'GET', url: '/v1/user', headers: third.headers })).statusCode).toBe(429);
    // Another user is not touched.
    const stranger = await t.factory.account();
    expect((await t.app.inject({ method: 'GET', url: '/v1/user', headers: stranger.headers })).statusCode).toBe(200);
  });

  it('limits the users of one organization together, and leaves another organization alone', async () => {
    // Any user can make an organization and add as many users as they like.
    const attacker = await t.factory.team(['read', 'edit']);
    const victim = await t.factory.team();
    const users = [attacker.admin, attacker.member('read'), attacker.member('edit')];
    const statuses: number[] = [];
    // Each user stays under their own budget; together they use up the organization's.
    for (let i = 0; i < ORGANIZATION_MAX; i++) {
      const caller = users[i % users.length]!;
      const answer = await t.app.inject({
        method: 'GET',
        url: `/v1/orgs/${attacker.organization.id}`,
        headers: caller.headers,
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual(Array.from({ length: ORGANIZATION_MAX }, () => 200));
    // The admin has spent 2 of their own 4.
    const refused = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${attacker.organization.id}`,
      headers: attacker.admin.headers,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: {
        code: 429,
        message: expect.stringMatching(/^Rate limit of the organization exceeded: 6 requests per 60 s/),
      },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-limit']).toBe(String(ORGANIZATION_MAX));
    // The victim's organization has its own budget.
    const victimRead = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${victim.organization.id}`,
      headers: victim.admin.headers,
    });
    expect(victimRead.statusCode).toBe(200);
  });
});
