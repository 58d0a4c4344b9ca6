import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOwnApp, testConfig, useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { contentApi } from './support/content.js';

const t = useTestApp();
/** Another instance on the same database, keeping no answers: what every answer must equal. */
let plain: FastifyInstance;

beforeAll(async () => {
  plain = await buildOwnApp(testConfig(t.database.url, { answerStoreBytes: 0 }));
  await plain.ready();
});
afterAll(async () => {
  await plain?.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

async function send(app: FastifyInstance, account: Account, method: Method, url: string, payload?: object) {
  return app.inject({ method, url, headers: account.headers, ...(payload ? { payload } : {}) });
}

/** A write through the instance that keeps no answers, so that the other learns of it only from the database. */
async function write(account: Account, method: Method, url: string, payload?: object) {
  const res = await send(plain, account, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.body ? res.json() : undefined;
}

const stats = () => t.app.httpCache.stats();

describe('kept answers', () => {
  it('serves a list again while its rows are unchanged, and shows at once a change made elsewhere', async () => {
    const o = await t.factory.team(['read']);
    const url = `/v1/orgs/${o.organization.id}/spaces`;
    for (const title of ['One', 'Two']) await write(o.admin, 'POST', url, { title });

    const before = stats();
    const first = await send(t.app, o.admin, 'GET', url);
    expect(first.statusCode).toBe(200);
    expect(stats().entries).toBe(before.entries + 1);
    const again = await send(t.app, o.admin, 'GET', url);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(stats().hits).toBe(before.hits + 1);

    // Renamed through the other instance, and then straight in the database.
    const [newest] = first.json().items;
    await write(o.admin, 'PATCH', `/v1/spaces/${newest.id}`, { title: 'Renamed' });
    const renamed = await send(t.app, o.admin, 'GET', url);
    expect(renamed.json().items[0].title).toBe('Renamed');
    expect(renamed.body).toBe((await send(plain, o.admin, 'GET', url)).body);
    await t.db.updateTable('spaces').set({ title: 'Quietly' }).where('id', '=', newest.id).execute();
    expect((await send(t.app, o.admin, 'GET', url)).json().items[0].title).toBe('Quietly');

    // Each caller has answers of their own; a member removed is refused at once.
    const member = o.member('read');
    expect((await send(t.app, member, 'GET', url)).json().items).toHaveLength(2);
    expect((await send(t.app, member, 'GET', url)).json().items).toHaveLength(2);
    await write(o.admin, 'DELETE', `/v1/orgs/${o.organization.id}/members/${member.user.id}`);
    expect((await send(t.app, member, 'GET', url)).statusCode).toBe(404);
    expect((await send(t.app, member, 'GET', url)).statusCode).toBe(404);
  });

  it('leaves a list that changes before every read to its handler for a while, and keeps it again once it stops', async () => {
    const o = await t.factory.team();
    const url = `/v1/orgs/${o.organization.id}/spaces`;
    const space = await write(o.admin, 'POST', url, { title: 'Busy' });
    const before = stats();
    for (let i = 0; i < 20; i++) {
      await t.db
        .updateTable('spaces')
        .set({ title: `Busy ${i}` })
        .where('id', '=', space.id)
        .execute();
      expect((await send(t.app, o.admin, 'GET', url)).json().items[0].title).toBe(`Busy ${i}`);
    }
    const busy = stats();
    expect(busy.hits).toBe(before.hits);
    // Made at requests 1, 2, 3, 6, 11 and 20; the 14 between were left to the handler.
    expect(busy.misses - before.misses).toBe(6);
    expect(busy.skipped - before.skipped).toBe(14);

    let served = 0;
    for (let i = 0; i < 70 && served === 0; i++) {
      await send(t.app, o.admin, 'GET', url);
      served = stats().hits - busy.hits;
    }
    expect(served).toBe(1);
    expect((await send(t.app, o.admin, 'GET', url)).json().items[0].title).toBe('Busy 19');
    expect(stats().hits).toBe(busy.hits + 2);
  });

  it('answers 304 to a client that holds the answer, and a new ETag once it changes', async () => {
    const o = await t.factory.team();
    const url = `/v1/orgs/${o.organization.id}`;
    const first = await send(t.app, o.admin, 'GET', url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const held = await t.app.inject({ method: 'GET', url, headers: { ...o.admin.headers, 'if-none-match': etag } });
    expect(held.statusCode).toBe(304);
    expect(held.body).toBe('');
    expect(held.headers.etag).toBe(etag);
    const weak = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...o.admin.headers, 'if-none-match': `"x", W/${etag}` },
    });
    expect(weak.statusCode).toBe(304);

    await write(o.admin, 'PATCH', url, { title: 'Another title' });
    const changed = await t.app.inject({ method: 'GET', url, headers: { ...o.admin.headers, 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().title).toBe('Another title');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('keeps no refusal and no answer of another token or scope, and keeps a search its version checks', async () => {
    const o = await t.factory.team();
    const outsider = await t.factory.account();
    const url = `/v1/orgs/${o.organization.id}/members`;
    const before = stats().entries;
    expect((await send(t.app, outsider, 'GET', url)).statusCode).toBe(404);
    expect(stats().entries).toBe(before);

    // A search of members is served again while the organization's version holds, not run again.
    const searched = stats().hits;
    for (const round of [1, 2]) {
      expect((await send(t.app, o.admin, 'GET', `${url}?search=a`)).statusCode, `round ${round}`).toBe(200);
    }
    expect(stats().hits).toBe(searched + 1);

    await send(t.app, o.admin, 'GET', url);
    const narrow = await t.factory.token(o.admin.user.id, { scopes: ['space:read'] });
    expect((await send(t.app, narrow, 'GET', url)).statusCode).toBe(403);
    const other = await t.factory.token(o.admin.user.id);
    const hits = stats().hits;
    expect((await send(t.app, other, 'GET', url)).statusCode).toBe(200);
    expect(stats().hits).toBe(hits);
  });

  it('keeps a page and a search of a space until its content or the caller’s access changes, and not with a share key', async () => {
    const o = await t.factory.team(['read']);
    const reader = o.member('read');
    const api = contentApi(() => plain);
    const space = await api.createSpace(o.admin, o.organization.id, { title: 'Kept pages' });
    const { written } = await api.change(o.admin, space.id, [
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'First words.\n' } },
    ]);
    const pageId = (written as { result: { pages: Array<{ id: string }> } }).result?.pages?.[0]?.id;
    const pages = await send(plain, o.admin, 'GET', `/v1/spaces/${space.id}/content/pages`);
    const page = pages.json().pages[0] as { id: string; path: string };
    expect(pageId === undefined || pageId === page.id).toBe(true);
    const byId = `/v1/spaces/${space.id}/content/page/${page.id}?format=markdown`;
    const byPath = `/v1/spaces/${space.id}/content/path/${page.path}?format=markdown`;

    for (const url of [byId, byPath]) {
      const first = await send(t.app, reader, 'GET', url);
      expect(first.json().markdown).toContain('First words.');
      const hits = stats().hits;
      const again = await send(t.app, reader, 'GET', url);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(stats().hits).toBe(hits + 1);
      const held = await t.app.inject({
        method: 'GET',
        url,
        headers: { ...reader.headers, 'if-none-match': String(first.headers.etag) },
      });
      expect(held.statusCode).toBe(304);
    }

    // A search of the space and of the organization is kept too.
    const searches = [
      (word: string) => `/v1/spaces/${space.id}/search?query=${word}`,
      (word: string) => `/v1/orgs/${o.organization.id}/search?query=${word}`,
    ];
    const found = async (url: string) => {
      const res = await send(t.app, reader, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      return JSON.stringify(res.json()).includes(page.id);
    };
    for (const search of searches) {
      expect(await found(search('first'))).toBe(true);
      const hits = stats().hits;
      expect(await found(search('first'))).toBe(true);
      expect(await found(search('second'))).toBe(false);
      expect(stats().hits).toBe(hits + 1);
    }

    // Merged through the other instance: the reads and the searches show the new words at once.
    await api.change(o.admin, space.id, [
      { operation: 'update_page', page: page.id, document: { markdown: 'Second words.\n' } },
    ]);
    for (const url of [byId, byPath]) {
      const res = await send(t.app, reader, 'GET', url);
      expect(res.json().markdown).toContain('Second words.');
      expect(res.body).toBe((await send(plain, reader, 'GET', url)).body);
    }
    for (const search of searches) {
      expect(await found(search('second'))).toBe(true);
      expect(await found(search('first'))).toBe(false);
    }

    // A share link's key is no clock's: such a read is never kept.
    const shared = `${byId}&shareKey=not-a-link`;
    await send(t.app, reader, 'GET', shared);
    const hits = stats().hits;
    expect((await send(t.app, reader, 'GET', shared)).statusCode).toBe(200);
    expect(stats().hits).toBe(hits);

    // The reader removed from the organization: refused at once.
    await write(o.admin, 'DELETE', `/v1/orgs/${o.organization.id}/members/${reader.user.id}`);
    for (const url of [byId, byPath, searches[0]!('second'), searches[1]!('second')])
      expect((await send(t.app, reader, 'GET', url)).statusCode, url).toBe(404);
  });

  it('gives every caller, through any sequence of changes, the bytes the instance without it gives', async () => {
    const kinds = [
      'space',
      'rename',
      'trash',
      'restore',
      'role',
      'team',
      'grant',
      'collection',
      'move',
      'comment',
      'cr',
      'edit',
      'resolve',
      'reopen',
      'react',
      'unreact',
      'reply',
      'uncomment',
      'crcomment',
      'profile',
      'publish',
      'unpublish',
      'crupdate',
      'site',
      'sitespace',
      'unsite',
      'boxrename',
      'teammember',
      'ping',
      'orgrename',
    ];
    const stepOf = (kind: fc.Arbitrary<string>) =>
      fc.record({ kind, pick: fc.nat(1000), role: fc.constantFrom('read', 'edit', 'admin', null) });
    // Every kind once, in a random order, then some more at random: no kind of change goes untried.
    const everyKind = fc
      .shuffledSubarray(kinds, { minLength: kinds.length, maxLength: kinds.length })
      .chain((order) => fc.tuple(...order.map((kind) => stepOf(fc.constant(kind)))));
    const someMore = fc.array(stepOf(fc.constantFrom(...kinds)), { maxLength: 8 });
    const sequences = fc.tuple(everyKind, someMore).map(([all, more]) => [...all, ...more]);
    await fc.assert(
      fc.asyncProperty(sequences, async (steps) => {
        const o = await t.factory.team(['read', 'edit', null]);
        const org = o.organization.id;
        const callers = [o.admin, o.member('read'), o.member('edit'), o.member(null)];
        const spaces: string[] = [];
        const trashed: string[] = [];
        const collections: string[] = [];
        const teams: string[] = [];
        // Comments and change requests of the first space, whose lists are compared.
        const comments: string[] = [];
        const changeRequests: string[] = [];
        const integrations: string[] = [];
        const sites: string[] = [];
        const pick = <T>(list: T[], n: number) => list[n % list.length];

        const urls = () => [
          '/v1/orgs',
          '/v1/integrations',
          `/v1/integrations?owner=${org}&limit=1`,
          `/v1/orgs/${org}`,
          `/v1/orgs/${org}/spaces`,
          `/v1/orgs/${org}/spaces?limit=2`,
          `/v1/orgs/${org}/members`,
          `/v1/orgs/${org}/members?role=read&limit=1`,
          `/v1/orgs/${org}/members?sort=lastSeenAt`,
          `/v1/orgs/${org}/members?search=e`,
          `/v1/orgs/${org}/members/${o.member('read').user.id}`,
          `/v1/orgs/${org}/teams`,
          `/v1/orgs/${org}/collections`,
          `/v1/orgs/${org}/collections?nested=false&limit=1`,
          `/v1/orgs/${org}/sites`,
          `/v1/orgs/${org}/sites?limit=1`,
          ...spaces.slice(0, 1).map((id) => `/v1/orgs/${org}/sites?space=${id}`),
          `/v1/orgs/${org}/members/${o.member(null).user.id}/spaces`,
          ...spaces.slice(0, 1).map((id) => `/v1/spaces/${id}`),
          ...trashed.slice(0, 1).map((id) => `/v1/spaces/${id}`),
          ...collections.slice(0, 1).flatMap((id) => [`/v1/collections/${id}`, `/v1/collections/${id}/spaces`]),
          ...teams.slice(0, 1).flatMap((id) => [`/v1/orgs/${org}/teams/${id}`, `/v1/orgs/${org}/teams/${id}/members`]),
          ...spaces
            .slice(0, 1)
            .flatMap((id) => [
              `/v1/spaces/${id}/comments`,
              `/v1/spaces/${id}/comments?format=document&status=open`,
              `/v1/spaces/${id}/comments?authors=${o.admin.user.id}&limit=2`,
              ...comments.slice(0, 1).map((comment) => `/v1/spaces/${id}/comments/${comment}`),
              ...changeRequests
                .slice(0, 1)
                .flatMap((cr) => [
                  `/v1/spaces/${id}/change-requests/${cr}/comments`,
                  `/v1/spaces/${id}/change-requests/${cr}`,
                ]),
              `/v1/spaces/${id}/change-requests`,
              `/v1/spaces/${id}/change-requests?status=draft`,
            ]),
        ];
        const compare = async (label: string) => {
          for (const url of urls()) {
            for (const caller of callers) {
              const expected = await send(plain, caller, 'GET', url);
              // The first may be made, the second served from the store.
              for (const round of [1, 2]) {
                const hits = stats().hits;
                const got = await send(t.app, caller, 'GET', url);
                expect(`${got.statusCode} ${got.body}`, `${label}, ${url}, round ${round}`).toBe(
                  `${expected.statusCode} ${expected.body}`,
                );
                // Nothing changed since the first: the version is the same and the answer is served again.
                // A deleted space is not kept (its version is null): it answers its admins until its retention ends.
                const kept = !trashed.some((id) => url === `/v1/spaces/${id}`);
                if (round === 2 && got.statusCode === 200)
                  expect(stats().hits, `${label}, ${url}: kept`).toBe(hits + (kept ? 1 : 0));
              }
            }
          }
        };

        // A space with a comment and a change request, and an integration of the organization, from the
        // start, so that every kind of step has something to change.
        spaces.push((await write(o.admin, 'POST', `/v1/orgs/${org}/spaces`, { title: 'First' })).id);
        const first = `/v1/spaces/${spaces[0]}`;
        comments.push((await write(o.admin, 'POST', `${first}/comments`, { body: { markdown: 'First' } })).id);
        changeRequests.push((await write(o.admin, 'POST', `${first}/change-requests`, { subject: 'First' })).id);
        const tool = { title: 'First tool', description: 'Stays', script: 'export default {}', organization: org };
        await write(o.admin, 'POST', `/v1/integrations/first-${org.slice(0, 8).toLowerCase()}`, tool);
        await compare('at the start');
        for (const [index, { kind, pick: n, role }] of steps.entries()) {
          const space = pick(spaces, n);
          switch (kind) {
            case 'space':
              spaces.push((await write(o.admin, 'POST', `/v1/orgs/${org}/spaces`, { title: `Space ${index}` })).id);
              break;
            case 'rename':
              if (space) await write(o.admin, 'PATCH', `/v1/spaces/${space}`, { title: `Renamed ${index}` });
              break;
            case 'trash':
              if (space) {
                await write(o.admin, 'DELETE', `/v1/spaces/${space}`);
                if (space === spaces[0]) comments.length = changeRequests.length = 0;
                spaces.splice(spaces.indexOf(space), 1);
                trashed.push(space);
              }
              break;
            case 'restore': {
              const back = trashed.pop();
              if (back) {
                await write(o.admin, 'POST', `/v1/spaces/${back}/restore`);
                spaces.push(back);
              }
              break;
            }
            case 'role': {
              const member = pick([o.member('read'), o.member('edit'), o.member(null)], n)!;
              await write(o.admin, 'PATCH', `/v1/orgs/${org}/members/${member.user.id}`, { role });
              break;
            }
            case 'team':
              teams.push(
                (
                  await write(o.admin, 'PUT', `/v1/orgs/${org}/teams`, {
                    title: `Team ${index}`,
                    members: [o.member(null).user.id],
                  })
                ).id,
              );
              break;
            case 'grant':
              if (space) {
                const team = pick(teams, n);
                await write(o.admin, 'POST', `/v1/spaces/${space}/permissions`, {
                  role: 'read',
                  ...(team ? { teams: [team] } : { users: [o.member(null).user.id] }),
                });
              }
              break;
            case 'collection':
              collections.push(
                (await write(o.admin, 'POST', `/v1/orgs/${org}/collections`, { title: `Box ${index}` })).id,
              );
              break;
            case 'move':
              if (space)
                await write(o.admin, 'POST', `/v1/spaces/${space}/move`, { parent: pick(collections, n) ?? null });
              break;
            case 'comment':
              if (spaces[0]) {
                const body = { body: { markdown: `Note ${index}` } };
                comments.push((await write(o.admin, 'POST', `/v1/spaces/${spaces[0]}/comments`, body)).id);
              }
              break;
            case 'cr':
              if (spaces[0]) {
                const body = { subject: `Change ${index}` };
                changeRequests.push((await write(o.admin, 'POST', `/v1/spaces/${spaces[0]}/change-requests`, body)).id);
              }
              break;
          }
          const comment = pick(comments, n);
          const commentUrl = `/v1/spaces/${spaces[0]}/comments/${comment}`;
          switch (kind) {
            case 'edit':
              if (comment) await write(o.admin, 'PUT', commentUrl, { body: { markdown: `Edited *${index}*` } });
              break;
            case 'resolve':
            case 'reopen':
              if (comment) await write(o.admin, 'PUT', commentUrl, { resolved: kind === 'resolve' });
              break;
            case 'react':
            case 'unreact': {
              // By the admin: the members' roles change in other steps.
              const emoji = pick(['👍', '🎉'], n)!;
              const change = kind === 'react' ? { addedReactions: [emoji] } : { removedReactions: [emoji] };
              if (comment) await write(o.admin, 'PUT', commentUrl, change);
              break;
            }
            case 'reply':
              if (comment) await write(o.admin, 'POST', `${commentUrl}/replies`, { body: { markdown: 'Yes' } });
              break;
            case 'uncomment':
              if (comment) {
                await write(o.admin, 'DELETE', commentUrl);
                comments.splice(comments.indexOf(comment), 1);
              }
              break;
            case 'crcomment': {
              const cr = pick(changeRequests, n);
              const body = { body: { markdown: `On the change ${index}` } };
              if (cr) await write(o.admin, 'POST', `/v1/spaces/${spaces[0]}/change-requests/${cr}/comments`, body);
              break;
            }
            case 'publish': {
              const name = `step-${index}-${integrations.length}-${org.slice(0, 6).toLowerCase()}`;
              const visibility = pick(['public', 'unlisted', 'private'], n);
              const body = {
                title: `Tool ${index}`,
                description: 'Does a thing',
                script: 'export default {}',
                organization: org,
                visibility,
              };
              await write(o.admin, 'POST', `/v1/integrations/${name}`, body);
              integrations.push(name);
              break;
            }
            case 'unpublish': {
              const name = pick(integrations, n);
              if (name) {
                await write(o.admin, 'DELETE', `/v1/integrations/${name}`);
                integrations.splice(integrations.indexOf(name), 1);
              }
              break;
            }
            case 'crupdate': {
              const cr = pick(changeRequests, n);
              const change = { subject: `Changed ${index}`, status: pick(['open', 'draft'], n) };
              if (cr) await write(o.admin, 'PATCH', `/v1/spaces/${spaces[0]}/change-requests/${cr}`, change);
              break;
            }
            case 'site': {
              const body = { title: `Site ${index}`, ...(space ? { spaces: [space] } : {}) };
              sites.push((await write(o.admin, 'POST', `/v1/orgs/${org}/sites`, body)).id);
              break;
            }
            case 'sitespace': {
              const site = pick(sites, n);
              // Refused when the space is there already: either way, the lists must agree.
              if (site && space)
                await send(plain, o.admin, 'POST', `/v1/orgs/${org}/sites/${site}/site-spaces`, { spaceId: space });
              break;
            }
            case 'unsite': {
              const site = pick(sites, n);
              if (site) {
                await write(o.admin, 'DELETE', `/v1/orgs/${org}/sites/${site}`);
                sites.splice(sites.indexOf(site), 1);
              }
              break;
            }
            case 'boxrename': {
              const box = pick(collections, n);
              if (box) await write(o.admin, 'PATCH', `/v1/collections/${box}`, { title: `Renamed box ${index}` });
              break;
            }
            case 'teammember': {
              const team = pick(teams, n);
              const member = pick([o.member('read'), o.member('edit'), o.member(null)], n)!;
              if (team) await write(o.admin, 'PUT', `/v1/orgs/${org}/teams/${team}/members/${member.user.id}`);
              break;
            }
            case 'orgrename':
              // Integrations show their owner organization whole.
              await write(o.admin, 'PATCH', `/v1/orgs/${org}`, { title: `Org ${index}` });
              break;
            case 'ping':
              await write(pick(callers, n)!, 'POST', `/v1/orgs/${org}/ping`);
              break;
            case 'profile':
              // No route changes a profile; an operator's change in the database must show all the same.
              await t.db
                .updateTable('users')
                .set({ display_name: `Renamed ${index}` })
                .where('id', '=', o.admin.user.id)
                .execute();
              break;
          }
          await compare(`after step ${index} (${kind})`);
        }
      }),
      // One sequence, fixed by the seed: every kind of change in a shuffled order and some more, each followed
      // by some 30 reads for each of four callers. A second sequence doubled the suite's costliest test (90 s
      // of a slow machine's CI).
      { seed: 20261124, numRuns: 1, endOnFailure: true },
    );
  }, 240_000);
});

describe('conditional requests', () => {
  it('gives every JSON answer to a GET a strong ETag and a 304 to a client that holds it, but keeps only answers of a route with a version', async () => {
    const o = await t.factory.team();
    const before = stats();
    const first = await send(t.app, o.admin, 'GET', '/v1/user');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const held = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { ...o.admin.headers, 'if-none-match': etag },
    });
    expect(held.statusCode).toBe(304);
    expect(held.body).toBe('');
    // GET /v1/user declares no version: it ran its handler each time and nothing was kept.
    expect(stats().entries).toBe(before.entries);
    expect(stats().hits).toBe(before.hits);
    // The same bytes from an instance that keeps nothing: the same tag.
    expect((await send(plain, o.admin, 'GET', '/v1/user')).headers.etag).toBe(etag);
  });

  it('writes with If-Match only while the resource is as the caller read it, and refuses with 412 once it changed', async () => {
    const o = await t.factory.team(['edit']);
    const space = await write(o.admin, 'POST', `/v1/orgs/${o.organization.id}/spaces`, { title: 'Shared' });
    const url = `/v1/spaces/${space.id}`;
    const etagFor = async (account: Account) => (await send(t.app, account, 'GET', url)).headers.etag as string;
    // Each caller's answer is their own (it carries their permissions): so is its tag.
    const [adminTag, editorTag] = [await etagFor(o.admin), await etagFor(o.member('edit'))];
    expect(adminTag).toMatch(/^"[\w-]{27}"$/);
    expect(editorTag).not.toBe(adminTag);

    const patch = (account: Account, title: string, ifMatch: string) =>
      t.app.inject({ method: 'PATCH', url, headers: { ...account.headers, 'if-match': ifMatch }, payload: { title } });
    const written = await patch(o.admin, 'First edit', adminTag);
    expect(written.statusCode, written.body).toBe(200);
    expect(written.json().title).toBe('First edit');

    // The editor read the space before that edit: refused, and nothing changes.
    const stale = await patch(o.member('edit'), 'Second edit', editorTag);
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({ error: { code: 412, message: expect.stringContaining('changed since') } });
    const stored = await t.db.selectFrom('spaces').select('title').where('id', '=', space.id).executeTakeFirstOrThrow();
    expect(stored.title).toBe('First edit');
    // The admin's own tag of before is stale too.
    expect((await patch(o.admin, 'Again', adminTag)).statusCode).toBe(412);

    // With the new tag (or *, the resource as it is), the write goes through; a weak tag never matches.
    const fresh = await etagFor(o.member('edit'));
    expect((await patch(o.member('edit'), 'Weak', `W/${fresh}`)).statusCode).toBe(412);
    expect((await patch(o.member('edit'), 'Second edit', `"other", ${fresh}`)).statusCode).toBe(200);
    expect((await patch(o.admin, 'Any', '*')).statusCode).toBe(200);
    // Without If-Match, a write is not conditional.
    expect(
      (await t.app.inject({ method: 'PATCH', url, headers: o.admin.headers, payload: { title: 'Plain' } })).statusCode,
    ).toBe(200);
  });

  it('refuses If-Match where the caller has no current answer: a resource they cannot see, or a path with no GET', async () => {
    const o = await t.factory.team();
    const outsider = await t.factory.account();
    const space = await write(o.admin, 'POST', `/v1/orgs/${o.organization.id}/spaces`, { title: 'Kept' });
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: { ...outsider.headers, 'if-match': '*' },
      payload: { title: 'Taken' },
    });
    expect(refused.statusCode).toBe(412);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/move`,
      headers: { ...o.admin.headers, 'if-match': '*' },
      payload: { parent: null },
    });
    expect(moved.statusCode).toBe(412);
    const stored = await t.db.selectFrom('spaces').select('title').where('id', '=', space.id).executeTakeFirstOrThrow();
    expect(stored.title).toBe('Kept');
  });

  it('lets one of two editors who read the same answer write, and gives the other a 412, when they write at once', async () => {
    const o = await t.factory.team(['edit']);
    const space = await write(o.admin, 'POST', `/v1/orgs/${o.organization.id}/spaces`, { title: 'Raced' });
    const url = `/v1/spaces/${space.id}`;
    for (let round = 0; round < 5; round++) {
      const etag = (await send(t.app, o.admin, 'GET', url)).headers.etag as string;
      // Through two instances, as behind a load balancer: the lock is the database's.
      const results = await Promise.all(
        (
          [
            [t.app, o.admin],
            [plain, o.member('edit')],
          ] as const
        ).map(([app, account], i) =>
          app.inject({
            method: 'PATCH',
            url,
            headers: { ...account.headers, 'if-match': etag },
            payload: { title: `Round ${round} by ${i}` },
          }),
        ),
      );
      expect(results.map((res) => res.statusCode).sort()).toEqual([200, 412]);
      const winner = results.find((res) => res.statusCode === 200)!.json().title;
      const stored = await t.db
        .selectFrom('spaces')
        .select('title')
        .where('id', '=', space.id)
        .executeTakeFirstOrThrow();
      expect(stored.title).toBe(winner);
    }
  });
});
