import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';

const t = useTestApp();

/**
 * Where team_reach differs from the reach walked from the grants, as
 * "team space +kept" or "team space -kept" (or its space's creation time
 * differs); empty when it is exact.
 */
async function reachDrift(organizationIds: string[]): Promise<string[]> {
  const { rows } = await sql<{ team_id: string; space_id: string; side: string }>`
    with recursive down(team_id, collection_id, depth) as (
      select g.team_id, g.collection_id, 0 from content_grants g
      where g.team_id is not null and g.collection_id is not null
      union
      select down.team_id, c.id, down.depth + 1 from collections c join down on c.parent_id = down.collection_id
      where down.depth < 100
    ),
    walked as (
      select g.team_id, g.space_id from content_grants g join spaces s on s.id = g.space_id and s.deleted_at is null
      where g.team_id is not null
      union
      select down.team_id, s.id from down join spaces s on s.parent_id = down.collection_id and s.deleted_at is null
    ),
    concerned as (select id from teams where organization_id = any(${organizationIds}::text[]))
    select w.team_id, w.space_id, '-kept' as side from walked w
      where w.team_id in (select id from concerned)
        and not exists (select 1 from team_reach r where r.team_id = w.team_id and r.space_id = w.space_id)
    union all
    select r.team_id, r.space_id, '+kept' from team_reach r
      where r.team_id in (select id from concerned)
        and not exists (select 1 from walked w where w.team_id = r.team_id and w.space_id = r.space_id)
    union all
    select r.team_id, r.space_id, 'created_at differs' from team_reach r join spaces s on s.id = r.space_id
      where r.team_id in (select id from concerned) and r.space_created_at <> s.created_at`.execute(t.db);
  return rows.map((row) => `${row.team_id} ${row.space_id} ${row.side}`).sort();
}

async function setup() {
  const admin = await t.factory.account();
  const home = await t.factory.organization(admin.user.id);
  const other = await t.factory.organization(admin.user.id);
  const call = async (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const res = await t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body ? (res.json() as { id: string }) : undefined;
  };
  return { admin, home, other, call };
}

type Step =
  | { op: 'space'; parent: number | null }
  | { op: 'collection'; parent: number | null }
  | { op: 'grantSpace'; team: number; space: number }
  | { op: 'grantCollection'; team: number; collection: number }
  | { op: 'revokeSpace'; team: number; space: number }
  | { op: 'revokeCollection'; team: number; collection: number }
  | { op: 'moveSpace'; space: number; parent: number | null }
  | { op: 'moveCollection'; collection: number; parent: number | null }
  | { op: 'trash'; space: number }
  | { op: 'restore'; space: number }
  | { op: 'deleteCollection'; collection: number }
  | { op: 'deleteTeam'; team: number }
  | { op: 'transferSpace'; space: number };

const index = fc.nat({ max: 7 });
const parent = fc.option(index, { nil: null });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('space' as const), parent }),
  fc.record({ op: fc.constant('collection' as const), parent }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant('grantSpace' as const), team: index, space: index }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('grantCollection' as const), team: index, collection: index }) },
  fc.record({ op: fc.constant('revokeSpace' as const), team: index, space: index }),
  fc.record({ op: fc.constant('revokeCollection' as const), team: index, collection: index }),
  fc.record({ op: fc.constant('moveSpace' as const), space: index, parent }),
  fc.record({ op: fc.constant('moveCollection' as const), collection: index, parent }),
  fc.record({ op: fc.constant('trash' as const), space: index }),
  fc.record({ op: fc.constant('restore' as const), space: index }),
  fc.record({ op: fc.constant('deleteCollection' as const), collection: index }),
  fc.record({ op: fc.constant('deleteTeam' as const), team: index }),
  fc.record({ op: fc.constant('transferSpace' as const), space: index }),
);

describe('team_reach, the live spaces each team reaches', () => {
  it('equals the reach walked from the grants after any sequence of changes through the API', async () => {
    const { admin, home, other, call } = await setup();
    const base = `/v1/orgs/${home.id}`;
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 14 }), async (steps) => {
        const teams: string[] = [];
        for (const title of ['A', 'B', 'C']) teams.push((await call('PUT', `${base}/teams`, { title }))!.id);
        // A tree to start from: a collection inside another, one beside them, a space in each and one at the top.
        const collections: string[] = [];
        for (const parentAt of [null, 0, null]) {
          const parentId = parentAt === null ? undefined : collections[parentAt];
          collections.push(
            (await call('POST', `${base}/collections`, { title: 'C', ...(parentId ? { parent: parentId } : {}) }))!.id,
          );
        }
        const spaces: string[] = [];
        for (const parentId of [...collections, undefined]) {
          spaces.push(
            (await call('POST', `${base}/spaces`, { title: 'S', ...(parentId ? { parent: parentId } : {}) }))!.id,
          );
        }
        // And a grant on the outer collection, so that moves, trashes and deletes have a reach to change.
        await call('POST', `/v1/collections/${collections[0]}/permissions`, { role: 'read', teams: [teams[0]] });
        const pick = (list: string[], n: number) => (list.length > 0 ? list[n % list.length] : undefined);
        /** A step's request: refused (4xx) when it makes no sense in the state reached; its created id, if any. */
        const inject = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
          const res = await t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });
          expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
          return res.statusCode === 201 ? (res.json() as { id: string }).id : undefined;
        };
        for (const s of steps) {
          const team = 'team' in s ? pick(teams, s.team) : undefined;
          const space = 'space' in s ? pick(spaces, s.space) : undefined;
          const collection = 'collection' in s ? pick(collections, s.collection) : undefined;
          const parentId = 'parent' in s && s.parent !== null ? pick(collections, s.parent) : undefined;
          // Steps that make no sense in the state reached (a move into its own subtree, a grant
          // twice) are refused by the API and change nothing: they are sent all the same.
          switch (s.op) {
            case 'space': {
              const id = await inject('POST', `${base}/spaces`, {
                title: 'S',
                ...(parentId ? { parent: parentId } : {}),
              });
              if (id) spaces.push(id);
              break;
            }
            case 'collection': {
              const id = await inject('POST', `${base}/collections`, {
                title: 'C',
                ...(parentId ? { parent: parentId } : {}),
              });
              if (id) collections.push(id);
              break;
            }
            case 'grantSpace':
              if (team && space)
                await inject('POST', `/v1/spaces/${space}/permissions`, { role: 'read', teams: [team] });
              break;
            case 'grantCollection':
              if (team && collection)
                await inject('POST', `/v1/collections/${collection}/permissions`, { role: 'read', teams: [team] });
              break;
            case 'revokeSpace':
              if (team && space) await inject('DELETE', `/v1/spaces/${space}/permissions/teams/${team}`);
              break;
            case 'revokeCollection':
              if (team && collection) await inject('DELETE', `/v1/collections/${collection}/permissions/teams/${team}`);
              break;
            case 'moveSpace':
              if (space) await inject('POST', `/v1/spaces/${space}/move`, { parent: parentId ?? null });
              break;
            case 'moveCollection':
              if (collection) await inject('POST', `/v1/collections/${collection}/move`, { parent: parentId ?? null });
              break;
            case 'trash':
              if (space) await inject('DELETE', `/v1/spaces/${space}`);
              break;
            case 'restore':
              if (space) await inject('POST', `/v1/spaces/${space}/restore`);
              break;
            case 'deleteCollection':
              if (collection) await inject('DELETE', `/v1/collections/${collection}`);
              break;
            case 'deleteTeam':
              if (team) await inject('DELETE', `${base}/teams/${team}`);
              break;
            case 'transferSpace':
              if (space) await inject('POST', `/v1/spaces/${space}/transfer`, { organization: other.id });
              break;
          }
        }
        expect(await reachDrift([home.id, other.id])).toEqual([]);
        const { rows: reached } = await sql<{ n: number }>`
          select count(*)::int as n from team_reach where team_id = any(${teams}::text[])`.execute(t.db);
        checked += reached[0]!.n;
        // What the teams list shows is that count.
        const listed = (
          await t.app.inject({ method: 'GET', url: `${base}/teams?limit=100`, headers: admin.headers })
        ).json() as { items: Array<{ id: string; spaces: number }> };
        const { rows } = await sql<{ team_id: string; n: number }>`
          select r.team_id, count(*)::int as n from team_reach r where r.team_id = any(${teams}::text[]) group by 1`.execute(
          t.db,
        );
        const kept = new Map(rows.map((row) => [row.team_id, row.n]));
        for (const item of listed.items.filter((item) => teams.includes(item.id))) {
          expect(item.spaces, item.id).toBe(kept.get(item.id) ?? 0);
        }
      }),
      { numRuns: 12, seed: 1717 },
    );
    // The runs did reach spaces: the property was not checked on empty tables only.
    expect(checked).toBeGreaterThan(20);
  });

  it('follows each kind of change, one after the other', async () => {
    const { home, other, call } = await setup();
    const base = `/v1/orgs/${home.id}`;
    const team = (await call('PUT', `${base}/teams`, { title: 'Readers' }))!.id;
    const spacesOf = async () =>
      (await t.db.selectFrom('team_reach').select('space_id').where('team_id', '=', team).execute())
        .map((row) => row.space_id)
        .sort();
    const granted = (await call('POST', `${base}/collections`, { title: 'Granted' }))!.id;
    const loose = (await call('POST', `${base}/collections`, { title: 'Loose' }))!.id;
    const inLoose = (await call('POST', `${base}/spaces`, { title: 'In loose', parent: loose }))!.id;
    const inGranted = (await call('POST', `${base}/spaces`, { title: 'In granted', parent: granted }))!.id;
    const alone = (await call('POST', `${base}/spaces`, { title: 'Alone' }))!.id;
    await call('POST', `/v1/collections/${granted}/permissions`, { role: 'read', teams: [team] });
    const steps: Array<[string, () => Promise<unknown>, string[]]> = [
      ['granted the collection', async () => undefined, [inGranted]],
      [
        'space granted',
        () => call('POST', `/v1/spaces/${alone}/permissions`, { role: 'read', teams: [team] }),
        [alone, inGranted],
      ],
      [
        'collection moved in',
        () => call('POST', `/v1/collections/${loose}/move`, { parent: granted }),
        [alone, inGranted, inLoose],
      ],
      ['space trashed', () => call('DELETE', `/v1/spaces/${inLoose}`), [alone, inGranted]],
      ['space restored', () => call('POST', `/v1/spaces/${inLoose}/restore`), [alone, inGranted, inLoose]],
      [
        'collection moved out',
        () => call('POST', `/v1/collections/${loose}/move`, { parent: null }),
        [alone, inGranted],
      ],
      [
        'space moved in',
        () => call('POST', `/v1/spaces/${inLoose}/move`, { parent: granted }),
        [alone, inGranted, inLoose],
      ],
      ['space moved out', () => call('POST', `/v1/spaces/${inGranted}/move`, { parent: null }), [alone, inLoose]],
      ['space transferred', () => call('POST', `/v1/spaces/${alone}/transfer`, { organization: other.id }), [inLoose]],
      ['collection deleted', () => call('DELETE', `/v1/collections/${granted}`), []],
    ];
    for (const [step, change, expected] of steps) {
      await change();
      expect(await spacesOf(), step).toEqual([...expected].sort());
      expect(await reachDrift([home.id, other.id]), step).toEqual([]);
    }
    const last = (await call('POST', `${base}/spaces`, { title: 'Last' }))!.id;
    await call('POST', `/v1/spaces/${last}/permissions`, { role: 'read', teams: [team] });
    expect(await spacesOf()).toEqual([last]);
    await call('DELETE', `${base}/teams/${team}`);
    expect(await spacesOf()).toEqual([]);
  });

  it('stays exact when grants and spaces of one collection are created at the same time', async () => {
    const { home, call } = await setup();
    const base = `/v1/orgs/${home.id}`;
    const box = (await call('POST', `${base}/collections`, { title: 'Box' }))!;
    const teams: string[] = [];
    for (let i = 0; i < 6; i++) teams.push((await call('PUT', `${base}/teams`, { title: `T${i}` }))!.id);
    await Promise.all([
      ...teams.map((team) => call('POST', `/v1/collections/${box.id}/permissions`, { role: 'read', teams: [team] })),
      ...Array.from({ length: 12 }, () => call('POST', `${base}/spaces`, { title: 'S', parent: box.id })),
    ]);
    expect(await reachDrift([home.id])).toEqual([]);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from team_reach where team_id = any(${teams}::text[])`.execute(t.db);
    expect(rows[0]!.n).toBe(6 * 12);
  });

  it('gives a guest their spaces page by page, newest first, through teams and grants of their own', async () => {
    const o = await t.factory.team([null]);
    const guest = o.member(null);
    const base = `/v1/orgs/${o.organization.id}`;
    const call = async (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) => {
      const res = await t.app.inject({ method, url, headers: o.admin.headers, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return (res.body ? res.json() : {}) as { id: string };
    };
    const team = (await call('PUT', `${base}/teams`, { title: 'Readers', members: [guest.user.id] })).id;
    const box = (await call('POST', `${base}/collections`, { title: 'Box' })).id;
    const inBox = [];
    for (let i = 0; i < 4; i++)
      inBox.push((await call('POST', `${base}/spaces`, { title: `In ${i}`, parent: box })).id);
    const own = (await call('POST', `${base}/spaces`, { title: 'Own' })).id;
    const both = (await call('POST', `${base}/spaces`, { title: 'Both' })).id;
    await call('POST', `${base}/spaces`, { title: 'Unreached' });
    await call('POST', `/v1/collections/${box}/permissions`, { role: 'read', teams: [team] });
    await call('POST', `/v1/spaces/${both}/permissions`, { role: 'read', teams: [team], users: [guest.user.id] });
    await call('POST', `/v1/spaces/${own}/permissions`, { role: 'read', users: [guest.user.id] });

    const reached = [...inBox, own, both];
    const { rows } = await sql<{ id: string }>`
      select id from spaces where id = any(${reached}::text[]) order by created_at desc, id desc`.execute(t.db);
    const newest = rows.map((row) => row.id);
    const seen: string[] = [];
    let next: string | undefined;
    do {
      const query: Record<string, string> = { limit: '2', ...(next ? { page: next } : {}) };
      const res = await t.app.inject({ method: 'GET', url: `${base}/spaces`, headers: guest.headers, query });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { count: number; items: Array<{ id: string }>; next?: { page: string } };
      expect(body.count).toBe(reached.length);
      seen.push(...body.items.map((item) => item.id));
      next = body.next?.page;
    } while (next);
    expect(seen).toEqual(newest);
  });
});
