import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/core/clock.js';
import { purgeDeletedSpaces } from '../src/spaces/purge.js';
import { useTestApp } from './support/app.js';

const t = useTestApp();

/** The stored counters next to the real numbers, for every organization and collection of these organizations. */
async function countsOf(organizationIds: string[]) {
  const { rows } = await sql<{ kind: string; id: string; stored: number; actual: number }>`
    select 'organization' as kind, o.id, o.live_spaces_count as stored,
      (select count(*)::int from spaces s where s.organization_id = o.id and s.deleted_at is null) as actual
    from organizations o where o.id = any(${organizationIds}::text[])
    union all
    select 'collection', c.id, c.live_spaces_count,
      (select count(*)::int from spaces s where s.parent_id = c.id and s.deleted_at is null)
    from collections c where c.organization_id = any(${organizationIds}::text[])`.execute(t.db);
  return rows;
}

describe('the live space counters behind list counts', () => {
  it('stay equal to the real numbers through every operation that changes a space', async () => {
    const admin = await t.factory.account();
    const source = await t.factory.organization(admin.user.id);
    const target = await t.factory.organization(admin.user.id);
    const call = async (method: 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
      const res = await t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBeLessThan(300);
      return res.body ? res.json() : undefined;
    };
    const check = async (step: string) => {
      for (const row of await countsOf([source.id, target.id]))
        expect(row.stored, `${step}: ${row.kind} ${row.id}`).toBe(row.actual);
    };

    const box = await call('POST', `/v1/orgs/${source.id}/collections`, { title: 'Box' });
    const inner = await call('POST', `/v1/orgs/${source.id}/collections`, { title: 'Inner', parent: box.id });
    const spaces = [];
    for (const parent of [undefined, box.id, box.id, inner.id, undefined]) {
      spaces.push(await call('POST', `/v1/orgs/${source.id}/spaces`, { title: 'S', ...(parent ? { parent } : {}) }));
    }
    await check('created');
    await call('DELETE', `/v1/spaces/${spaces[1].id}`);
    await check('deleted');
    await call('POST', `/v1/spaces/${spaces[1].id}/restore`);
    await check('restored');
    await call('POST', `/v1/spaces/${spaces[0].id}/move`, { parent: inner.id });
    await check('moved in');
    await call('POST', `/v1/spaces/${spaces[2].id}/move`, { parent: null });
    await check('moved out');
    await call('POST', `/v1/spaces/${spaces[4].id}/duplicate`);
    await check('duplicated');
    await call('POST', `/v1/spaces/${spaces[4].id}/transfer`, { organization: target.id });
    await check('space transferred');
    await call('POST', `/v1/collections/${inner.id}/transfer`, { organization: target.id });
    await check('collection transferred');
    await call('DELETE', `/v1/spaces/${spaces[3].id}`);
    await call('DELETE', `/v1/collections/${box.id}`);
    await check('collection deleted');
    await t.db
      .updateTable('spaces')
      .set({ deleted_at: new Date(Date.now() - 30 * 86_400_000) })
      .where('id', '=', spaces[1].id)
      .execute();
    await purgeDeletedSpaces(t.db, systemClock, { retentionMs: 7 * 86_400_000, batchSize: 10 });
    await check('purged');

    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${target.id}/spaces?limit=1`,
      headers: admin.headers,
    });
    const [targetCount] = (await countsOf([target.id])).filter((row) => row.kind === 'organization');
    expect(list.json().count).toBe(targetCount!.actual);
    expect(targetCount!.actual).toBeGreaterThan(0);
  });
});
