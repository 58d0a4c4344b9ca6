import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { machineCacheStats } from '../src/sites/reader/machine.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';

/** A website on 127.0.0.1 that serves `/file/N` as SIZE bytes of its own (distinct hashes), a little late, counting fetches in flight. */
function fileServer(size: number) {
  const state = { served: 0, inFlight: 0, mostInFlight: 0, url: '' };
  const bytesOf = (n: number) => Buffer.alloc(size, n % 251);
  const server: Server = createServer((request, response) => {
    const n = Number(/^\/file\/(\d+)$/.exec(request.url ?? '')?.[1] ?? NaN);
    if (Number.isNaN(n)) return void response.writeHead(404).end();
    state.served++;
    state.inFlight++;
    state.mostInFlight = Math.max(state.mostInFlight, state.inFlight);
    response.once('close', () => state.inFlight--);
    // Answered on a later turn, so that fetches the service starts together overlap here.
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytesOf(n)), 20);
  });
  return {
    state,
    hashOf: (n: number) => createHash('sha256').update(bytesOf(n)).digest('hex'),
    start: async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
    // A stranger who calls the victim's organization is refused on their own budget, not the victim's.
    for (let i = 0; i < USER_MAX; i++) {
      const stranger = await t.factory.account();
      for (let j = 0; j < USER_MAX; j++) {
        const probe = await t.app.inject({
          method: 'GET',
          url: `/v1/orgs/${victim.organization.id}`,
          headers: stranger.headers,
        });
        expect(probe.statusCode).toBe(404);
      }
    }
    // The victim's organization has its own budget.
    const victimRead = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${victim.organization.id}`,
      headers: victim.admin.headers,
    });
    expect(victimRead.statusCode).toBe(200);
  });
});

describe('the files of one content write are bounded together (FILE_BATCH_MAX_BYTES)', () => {
  const BATCH_MAX = 1024 * 1024;
  const FILE_SIZE = 100 * 1024;
  const t = useTestApp({ config: { fileBatchMaxBytes: BATCH_MAX } });
  const api = contentApi(() => t.app);
  const site = fileServer(FILE_SIZE);
  beforeAll(site.start);
  afterAll(site.stop);

  const urlFiles = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ name: `f${from + i}.bin`, url: `${site.state.url}/file/${from + i}` }));

  it('refuses a batch of URL files over the limit with 413, stores nothing, and stops fetching', async () => {
    const team = await t.factory.team();
    const space = (await api.createSpace(team.admin, team.organization.id, { title: 'Files' })) as { id: string };
    const changeRequestId = await api.openChangeRequest(team.admin, space.id);
    const before = await t.db
      .selectFrom('change_requests')
      .select('revision_id')
      .where('id', '=', changeRequestId)
      .executeTakeFirstOrThrow();
    site.state.served = 0;
    // The attack at small scale: 50 changes of 20 files each, every file under its own limit.
    const changes = Array.from({ length: 50 }, (_, c) => ({
      operation: 'insert_files',
      files: urlFiles(1000 + c * 20, 20),
    }));
    const refused = await api.writeContent(team.admin, space.id, changeRequestId, changes);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      error: {
        code: 413,
        message: `The files of this batch are over the ${BATCH_MAX}-byte limit of one write (FILE_BATCH_MAX_BYTES); send them in several writes`,
      },
    });
    // Fetching stopped near the limit, not after a thousand files.
    expect(site.state.served).toBeLessThan(BATCH_MAX / FILE_SIZE + 8);
    expect(site.state.mostInFlight).toBeLessThanOrEqual(4);
    const hashes = Array.from({ length: 1000 }, (_, i) => site.hashOf(1000 + i));
    expect(await t.db.selectFrom('blobs').select('sha256').where('sha256', 'in', hashes).execute()).toEqual([]);
    expect(await t.db.selectFrom('file_versions').select('id').where('space_id', '=', space.id).execute()).toEqual([]);
    const after = await t.db
      .selectFrom('change_requests')
      .select('revision_id')
      .where('id', '=', changeRequestId)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it('counts inline files against the same limit', async () => {
    const team = await t.factory.team();
    const space = (await api.createSpace(team.admin, team.organization.id, { title: 'Inline' })) as { id: string };
    const changeRequestId = await api.openChangeRequest(team.admin, space.id);
    const inline = (n: number) => ({
      name: `i${n}.bin`,
      contentType: 'application/octet-stream',
      base64: Buffer.alloc(512 * 1024, n).toString('base64'),
    });
    const refused = await api.writeContent(team.admin, space.id, changeRequestId, [
      { operation: 'insert_files', files: [inline(1), inline(2), inline(3)] },
    ]);
    expect(refused.statusCode).toBe(413);
    expect(await t.db.selectFrom('file_versions').select('id').where('space_id', '=', space.id).execute()).toEqual([]);
  });

  it('writes a batch of many URL files within the limit, fetching a few at a time', async () => {
    const team = await t.factory.team();
    const space = (await api.createSpace(team.admin, team.organization.id, { title: 'Many' })) as { id: string };
    const changeRequestId = await api.openChangeRequest(team.admin, space.id);
    site.state.mostInFlight = 0;
    const count = Math.floor(BATCH_MAX / FILE_SIZE) - 1;
    const written = await api.writeContent(team.admin, space.id, changeRequestId, [
      { operation: 'insert_files', files: urlFiles(1, 5) },
      { operation: 'insert_files', files: urlFiles(6, count - 5) },
    ]);
    expect(written.statusCode, written.body).toBe(200);
    expect(site.state.mostInFlight).toBeGreaterThan(1);
    expect(site.state.mostInFlight).toBeLessThanOrEqual(4);
    const versions = await t.db
      .selectFrom('file_versions')
      .select(['name', 'sha256', 'size'])
      .where('space_id', '=', space.id)
      .orderBy('name')
      .execute();
    expect(versions).toHaveLength(count);
    expect(versions.every((version) => version.size === FILE_SIZE)).toBe(true);
    expect(new Set(versions.map((version) => version.sha256))).toEqual(
      new Set(Array.from({ length: count }, (_, i) => site.hashOf(1 + i))),
    );
  });
});

describe('imports run a few at a time per organization, on every instance together', () => {
  const t = useTestApp({ config: { importSlots: { perOrganization: 2, total: 3 } } });
  const api = contentApi(() => t.app);
  // Markdown files on 127.0.0.1: /held/* answer only when released, /quick.md at once.
  const held: Array<() => void> = [];
  let arrivals: Array<{ count: number; resolve: () => void }> = [];
  let url = '';
  const server = createServer((request, response) => {
    const answer = () =>
      response.writeHead(200, { 'content-type': 'text/markdown' }).end(`# ${request.url ?? ''}\n\nImported.\n`);
    if (request.url?.startsWith('/held/')) {
      held.push(answer);
      arrivals = arrivals.filter((waiter) => (held.length >= waiter.count ? (waiter.resolve(), false) : true));
    } else answer();
  });
  const heldArrived = (count: number) =>
    held.length >= count ? Promise.resolve() : new Promise<void>((resolve) => arrivals.push({ count, resolve }));
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function organizationWithSpace() {
    const team = await t.factory.team();
    const space = (await api.createSpace(team.admin, team.organization.id, { title: 'Imports' })) as { id: string };
    return { ...team, space };
  }
  const importInto = (account: { headers: { authorization: string } }, spaceId: string, path: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/content/import`,
      headers: account.headers,
      payload: { source: 'markdown', url: `${url}${path}` },
    });
  const revisionOf = async (spaceId: string) =>
    (await t.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow())
      .revision_id;

  it('refuses a third import of one organization while two run, lets another organization import, and frees the slots after', async () => {
    const attacker = await organizationWithSpace();
    const victim = await organizationWithSpace();
    const running = [
      importInto(attacker.admin, attacker.space.id, '/held/1.md'),
      importInto(attacker.admin, attacker.space.id, '/held/2.md'),
    ];
    await heldArrived(2);
    expect(await t.db.selectFrom('import_leases').select('organization_id').execute()).toEqual([
      { organization_id: attacker.organization.id },
      { organization_id: attacker.organization.id },
    ]);

    // A second user of the same organization, with a token of their own, is refused too.
    const colleague = await t.factory.account();
    await t.factory.member(attacker.organization.id, colleague.user.id, 'admin');
    const before = await revisionOf(attacker.space.id);
    const third = await importInto(colleague, attacker.space.id, '/quick.md');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({
      error: {
        code: 429,
        message:
          'This organization already runs 2 imports, as many as it may at once (IMPORT_MAX_RUNNING_PER_ORGANIZATION); retry after the time in Retry-After',
      },
    });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(await revisionOf(attacker.space.id)).toBe(before);
    expect(await t.db.selectFrom('import_leases').select('id').execute()).toHaveLength(2);

    // The victim's organization imports meanwhile, in the last slot of the instance...
    const victimImport = await importInto(victim.admin, victim.space.id, '/quick.md');
    expect(victimImport.statusCode, victimImport.body).toBe(201);
    expect(await revisionOf(victim.space.id)).toBe(victimImport.json().revision);

    // ...and the total holds: with two running and a third held, a fourth organization is refused.
    const other = await organizationWithSpace();
    const held3 = importInto(victim.admin, victim.space.id, '/held/3.md');
    await heldArrived(3);
    const fourth = await importInto(other.admin, other.space.id, '/quick.md');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error.message).toMatch(
      /^This service already runs 3 imports, as many as it may at once \(IMPORT_MAX_RUNNING\)/,
    );

    for (const answer of held.splice(0)) answer();
    for (const done of await Promise.all([...running, held3])) expect(done.statusCode, done.body).toBe(201);
    expect(await t.db.selectFrom('import_leases').select('id').execute()).toEqual([]);
    const again = await importInto(colleague, attacker.space.id, '/quick.md');
    expect(again.statusCode, again.body).toBe(201);
  });

  it('counts a lease whose instance never ended it only until it expires', async () => {
    const team = await organizationWithSpace();
    const past = new Date(Date.now() - 1000);
    for (const id of ['lost-1', 'lost-2']) {
      await t.db
        .insertInto('import_leases')
        .values({
          id,
          organization_id: team.organization.id,
          space_id: team.space.id,
          user_id: team.admin.user.id,
          started_at: past,
          expires_at: past,
        })
        .execute();
    }
    const imported = await importInto(team.admin, team.space.id, '/quick.md');
    expect(imported.statusCode, imported.body).toBe(201);
    expect(await t.db.selectFrom('import_leases').select('id').execute()).toEqual([]);
  });
});

describe('llms.txt, llms-full.txt and sitemap.xml are built once per state of the site', () => {
  const t = useTestApp();
  const api = contentApi(() => t.app);

  async function publishedSite() {
    const team = await t.factory.team();
    const orgs = `/v1/orgs/${team.organization.id}`;
    const call = (method: 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: team.admin.headers, ...(payload ? { payload } : {}) });
    const site = (await call('POST', `${orgs}/sites`, { title: 'Acme Docs' })).json() as { id: string };
    const space = (await api.createSpace(team.admin, team.organization.id, { title: 'Handbook' })) as { id: string };
    await api.change(team.admin, space.id, [
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'The guide.' } },
    ]);
    expect((await call('POST', `${orgs}/sites/${site.id}/site-spaces`, { spaceId: space.id })).statusCode).toBe(201);
    expect((await call('POST', `${orgs}/sites/${site.id}/publish`)).statusCode).toBe(200);
    return { team, site, space };
  }
  const read = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers, remoteAddress: '198.51.100.7' });

  it('builds llms-full.txt once for repeated anonymous reads, answers 304 to its ETag, and shows a merge at once', async () => {
    const { team, site, space } = await publishedSite();
    const builds = () => machineCacheStats(t.app.context).builds;
    const before = builds();
    const first = await read(`/s/${site.id}/llms-full.txt`);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('# Guide\n\nThe guide.\n');
    expect(first.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(builds()).toBe(before + 1);
    for (let i = 0; i < 20; i++) {
      const again = await read(`/s/${site.id}/llms-full.txt`);
      expect(again.body).toBe(first.body);
      expect(again.headers.etag).toBe(first.headers.etag);
    }
    expect(builds()).toBe(before + 1);
    const unchanged = await read(`/s/${site.id}/llms-full.txt`, { 'if-none-match': first.headers.etag as string });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    await api.change(team.admin, space.id, [
      { operation: 'insert_page', title: 'Changelog', document: { markdown: 'Merged just now.' } },
    ]);
    const fresh = await read(`/s/${site.id}/llms-full.txt`, { 'if-none-match': first.headers.etag as string });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.body).toContain('# Changelog\n\nMerged just now.\n');
    expect(fresh.headers.etag).not.toBe(first.headers.etag);
    expect(builds()).toBe(before + 2);
    expect((await read(`/s/${site.id}/llms.txt`)).body).toContain('[Changelog]');
    expect((await read(`/s/${site.id}/sitemap.xml`)).body).toContain('/changelog</loc>');
  });
});

describe('content writes with files run a few at a time per user and per organization', () => {
  const t = useTestApp();
  const api = contentApi(() => t.app);
  // Files on 127.0.0.1: /held/* answer only when released, /quick/* at once.
  const held: Array<() => void> = [];
  let waiters: Array<{ count: number; resolve: () => void }> = [];
  let url = '';
  const server = createServer((request, response) => {
    const answer = () => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(request.url ?? ''));
    if (!request.url?.startsWith('/held/')) return answer();
    held.push(answer);
    waiters = waiters.filter((waiter) => (held.length >= waiter.count ? (waiter.resolve(), false) : true));
  });
  const heldArrived = (count: number) =>
    held.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const writeFile = (account: Account, spaceId: string, crId: string, path: string) =>
    api.writeContent(account, spaceId, crId, [
      { operation: 'insert_files', files: [{ name: 'f.png', url: `${url}${path}` }] },
    ]);
  const filesIn = (spaceId: string) =>
    t.db.selectFrom('file_versions').select('name').where('space_id', '=', spaceId).execute();

  it('refuses a user’s second write with files while the first fetches, then an organization’s third', async () => {
    const attacker = await t.factory.team(['edit', 'create']);
    const victim = await t.factory.team();
    const space = (await api.createSpace(attacker.admin, attacker.organization.id, { title: 'A' })) as { id: string };
    const crId = await api.openChangeRequest(attacker.admin, space.id);
    const first = writeFile(attacker.admin, space.id, crId, '/held/1.png');
    await heldArrived(1);

    // The same user with another token: refused, nothing written.
    const secondToken = await t.factory.token(attacker.admin.user.id);
    const refused = await writeFile(secondToken, space.id, crId, '/quick/2.png');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: {
        code: 429,
        message:
          'Too many content writes that fetch files at once: you already have 1 running; retry after the time in Retry-After',
      },
    });
    expect(refused.headers['retry-after']).toBe('1');

    // A second user of the organization may run one; a third may not.
    const second = writeFile(attacker.member('edit'), space.id, crId, '/held/3.png');
    await heldArrived(2);
    const third = await writeFile(attacker.member('create'), space.id, crId, '/quick/4.png');
    expect(third.statusCode).toBe(429);
    expect(third.json().error.message).toMatch(/this organization already has 2 running/);
    expect(await filesIn(space.id)).toEqual([]);

    // Another organization writes meanwhile.
    const victimSpace = (await api.createSpace(victim.admin, victim.organization.id, { title: 'V' })) as { id: string };
    const victimCr = await api.openChangeRequest(victim.admin, victimSpace.id);
    const victimWrite = await writeFile(victim.admin, victimSpace.id, victimCr, '/quick/5.png');
    expect(victimWrite.statusCode, victimWrite.body).toBe(200);

    for (const answer of held.splice(0)) answer();
    expect((await first).statusCode).toBe(200);
    expect((await second).statusCode).toBe(200);
    expect(await filesIn(space.id)).toHaveLength(2);
    // The slots are free again.
    expect((await writeFile(secondToken, space.id, crId, '/quick/6.png')).statusCode).toBe(200);
  });
});
