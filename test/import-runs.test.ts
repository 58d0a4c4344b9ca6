import { zipSync, strToU8 } from 'fflate';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImportRunProcessor } from '../src/imports/processor.js';
import { claimImportRun } from '../src/imports/queries.js';
import { executeRun, noteCancelled, RunReleased } from '../src/imports/run.js';
import { readZip, ZIP_LIMITS } from '../src/imports/zip-read.js';
import { listen, PUBLIC_URL, useTestApp } from './support/app.js';
import { newestOfficialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { startGitServer, type GitServer } from './support/git-server.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

let git: GitServer;
let site: Server;
let siteUrl: string;
beforeAll(async () => {
  git = await startGitServer();
  const pages: Record<string, string> = {
    '/': '<html><head><title>Home</title></head><body><main><h1>Home</h1><p>Welcome home. See <a href="/guide">the guide</a>.</p></main></body></html>',
    '/guide':
      '<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Read this guide to start.</p></main></body></html>',
  };
  site = createServer((request, response) => {
    const page = pages[request.url ?? ''];
    if (!page) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await git.close();
  await new Promise((resolve) => site.close(resolve));
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const zipOf = (files: Record<string, string | Uint8Array>) =>
  Buffer.from(
    zipSync(
      Object.fromEntries(
        Object.entries(files).map(([path, body]) => [path, typeof body === 'string' ? strToU8(body) : body]),
      ),
    ),
  );

/** A completed storage upload of the bytes, as a client makes one; its key. */
async function upload(account: Account, organizationId: string, bytes: Buffer, name = 'docs.zip'): Promise<string> {
  const announced = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}/storage/upload`,
    headers: account.headers,
    payload: { file: { name, type: 'application/zip', size: bytes.byteLength }, kind: 'import_file' },
  });
  expect(announced.statusCode, announced.body).toBe(201);
  const { url, key } = announced.json() as { url: string; key: string };
  const put = await t.app.inject({
    method: 'PUT',
    url: url.slice(PUBLIC_URL.length),
    headers: { 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  expect(put.statusCode, put.body).toBe(200);
  return key;
}

const start = (account: Account, organizationId: string, body: object) =>
  t.app.inject({ method: 'POST', url: `/v1/org/${organizationId}/imports`, headers: account.headers, payload: body });

const getRun = (account: Account, organizationId: string, runId: string) =>
  t.app.inject({ method: 'GET', url: `/v1/org/${organizationId}/imports/${runId}`, headers: account.headers });

const cancel = (account: Account, organizationId: string, runId: string) =>
  t.app.inject({ method: 'POST', url: `/v1/org/${organizationId}/imports/${runId}/cancel`, headers: account.headers });

/** Runs every run due, as the worker of an instance would. */
async function runAll(): Promise<void> {
  const processor = createImportRunProcessor(t.app.context);
  while (await processor.runNext());
}

interface TreePage {
  id: string;
  title: string;
  type: string;
  path?: string;
  pages?: TreePage[];
}

async function pages(account: Account, spaceId: string): Promise<TreePage[]> {
  return (await api.read(account, `/v1/spaces/${spaceId}/content/pages`)).json().pages as TreePage[];
}

const titles = (tree: TreePage[]): unknown[] =>
  tree.map((page) => (page.pages?.length ? [page.title, titles(page.pages)] : page.title));

async function markdownAt(account: Account, spaceId: string, path: string): Promise<string> {
  const page = await api.read(account, `/v1/spaces/${spaceId}/content/path/${path}`, { format: 'markdown' });
  expect(page.statusCode, page.body).toBe(200);
  return page.json().markdown as string;
}

async function newSpace() {
  const team = await t.factory.team(['read', 'edit', null]);
  const space = await api.createSpace(team.admin, team.organization.id, { title: 'Docs' });
  return { ...team, space };
}

const GITBOOK_ZIP = {
  'SUMMARY.md':
    '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
  'README.md': '# Welcome\n\nStart with the [guide](guide/).\n',
  'guide/README.md': '# Guide\n\nRead [setup](setup.md).\n',
  'guide/setup.md': '---\ndescription: Install it.\n---\n\n# Setup\n\n![Screen](../.gitbook/assets/screen.png)\n',
  '.gitbook/assets/screen.png': PNG,
};

describe('starting and running an import run', () => {
  it('imports a zip in GitBook’s format through a change request merged at its end, and answers as the spec says', async () => {
    const { admin, organization, space } = await newSpace();
    const key = await upload(admin, organization.id, zipOf(GITBOOK_ZIP));
    const started = await start(admin, organization.id, {
      source: { type: 'file', files: [key] },
      target: { space: space.id },
    });
    expect(started.statusCode, started.body).toBe(201);
    expectNewestSpecResponse('startImportRun', 201, started.json());
    expect(started.json()).toMatchObject({
      object: 'import-run',
      status: 'pending',
      source: { type: 'file', files: [key] },
      target: { space: space.id },
      createdBy: admin.user.id,
      urls: { location: `${PUBLIC_URL}/v1/org/${organization.id}/imports/${started.json().id}` },
      pages: [],
    });
    // Nothing is written before the worker runs it.
    expect(await pages(admin, space.id)).toEqual([]);

    await runAll();
    const done = await getRun(admin, organization.id, started.json().id as string);
    expectNewestSpecResponse('getImportRun', 200, done.json());
    const run = done.json();
    expect(run).toMatchObject({ status: 'completed', progress: { stepsDone: run.progress.stepsTotal } });
    expect(run.completedAt).toEqual(expect.any(String));
    expect(run.pages).toHaveLength(3);
    expect(titles(await pages(admin, space.id))).toEqual(['Welcome', ['Guide', ['Setup']]]);
    const setup = await markdownAt(admin, space.id, 'guide/setup');
    expect(setup).toMatch(/!\[Screen\]\(\/files\/\w+\)/);
    const changeRequest = (
      await api.read(admin, `/v1/spaces/${space.id}/change-requests/${run.progress.changeRequest}`)
    ).json();
    expect(changeRequest).toMatchObject({ status: 'merged', subject: 'Import of an uploaded zip' });
  });

  it('reads Outline’s markdown zip: collections as groups, Title.md beside Title/ as its page, attachments as files', async () => {
    const { admin, organization, space } = await newSpace();
    const zip = zipOf({
      'Engineering/Getting Started.md':
        '# Getting Started\n\nFirst read [Install](Getting%20Started/Install.md).\n\n![diagram](uploads/abc/def/diagram.png)\n',
      'Engineering/Getting Started/Install.md': '# Install\n\nBack to [the start](../Getting%20Started.md).\n',
      'Engineering/Getting Started/uploads/abc/def/diagram.png': PNG,
      'Engineering/Architecture.md': '# Architecture\n\nBoxes and arrows.\n',
      'Handbook/Holidays.md': '# Holidays\n\nTake them.\n',
      'Engineering/uploads/abc/def/diagram.png': PNG,
    });
    const key = await upload(admin, organization.id, zip);
    const started = await start(admin, organization.id, {
      source: { type: 'file', files: [key] },
      target: { space: space.id },
    });
    expect(started.statusCode, started.body).toBe(201);
    await runAll();
    const run = (await getRun(admin, organization.id, started.json().id as string)).json();
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed' });

    const tree = await pages(admin, space.id);
    expect(titles(tree)).toEqual([
      ['Engineering', ['Architecture', ['Getting Started', ['Install']]]],
      ['Handbook', ['Holidays']],
    ]);
    expect(tree.map((page) => page.type)).toEqual(['group', 'group']);
    const gettingStarted = tree[0]!.pages![1]!;
    const install = gettingStarted.pages![0]!;
    const files = (await api.read(admin, `/v1/spaces/${space.id}/content/files`)).json().items as Array<{
      id: string;
      name: string;
    }>;
    expect(files.map((file) => file.name).sort()).toEqual(['diagram (2).png', 'diagram.png']);
    // The relative link to a page became a link to it, and the attachment beside the page a file of the space.
    const startPage = await markdownAt(admin, space.id, 'engineering/getting-started');
    expect(startPage).toContain(`[Install](/pages/${install.id})`);
    const diagram = files.find((file) => file.name === 'diagram (2).png')!;
    expect(startPage).toContain(`![diagram](/files/${diagram.id})`);
    const installPage = await markdownAt(admin, space.id, 'engineering/getting-started/install');
    expect(installPage).toContain(`[the start](/pages/${gettingStarted.id})`);
  });

  it('reads Docmost’s markdown zip: pages at the top, Page.md beside Page/ with its subpages, files/<id>/name as files', async () => {
    const { admin, organization, space } = await newSpace();
    const zip = zipOf({
      'Welcome.md': '# Welcome\n\nSee [Child Page](Welcome/Child%20Page.md) and ![chart](files/0193-id/chart.png).\n',
      'Welcome/Child Page.md': '# Child Page\n\nA child.\n',
      'Welcome/Child Page/Grandchild.md': '# Grandchild\n\nDeep.\n',
      'About.md': '# About\n\nUs.\n',
      'files/0193-id/chart.png': PNG,
    });
    const key = await upload(admin, organization.id, zip);
    expect(
      (await start(admin, organization.id, { source: { type: 'file', files: [key] }, target: { space: space.id } }))
        .statusCode,
    ).toBe(201);
    await runAll();
    const tree = await pages(admin, space.id);
    expect(titles(tree)).toEqual(['About', ['Welcome', [['Child Page', ['Grandchild']]]]]);
    const listed = (await api.read(admin, `/v1/spaces/${space.id}/content/files`)).json().items as Array<{
      id: string;
      name: string;
    }>;
    expect(listed.map((file) => file.name)).toEqual(['chart.png']);
    const welcome = await markdownAt(admin, space.id, 'welcome');
    expect(welcome).toContain(`[Child Page](/pages/${tree[1]!.pages![0]!.id})`);
    expect(welcome).toContain(`![chart](/files/${listed[0]!.id})`);
  });

  it('imports a Git branch in GitBook’s format, its credentials kept sealed and shown nowhere', async () => {
    const { admin, organization, space } = await newSpace();
    await git.create('run-docs');
    await git.commit('run-docs', 'main', {
      'SUMMARY.md': '# Table of contents\n\n* [Intro](README.md)\n* [Usage](usage.md)\n',
      'README.md': '# Intro\n\nHello.\n',
      'usage.md': '# Usage\n\nUse it.\n',
    });
    const url = git.url('run-docs').replace('http://', 'http://bot:secret-token@');
    const started = await start(admin, organization.id, {
      source: { type: 'git', url, ref: 'refs/heads/main' },
      target: { space: space.id },
    });
    expect(started.statusCode, started.body).toBe(201);
    expectNewestSpecResponse('startImportRun', 201, started.json());
    expect(started.json()).not.toHaveProperty('source');
    expect(started.json().git).toEqual({ url: git.url('run-docs'), ref: 'refs/heads/main', repoProjectDirectory: '' });
    const row = await t.db
      .selectFrom('import_runs')
      .selectAll()
      .where('id', '=', started.json().id)
      .executeTakeFirstOrThrow();
    expect(row.authorization_sealed).toEqual(expect.any(String));
    expect(JSON.stringify(row)).not.toContain('secret-token');
    await runAll();
    const run = (await getRun(admin, organization.id, started.json().id as string)).json();
    expect(run).toMatchObject({ status: 'completed' });
    expect(titles(await pages(admin, space.id))).toEqual(['Intro', 'Usage']);
    const ended = await t.db
      .selectFrom('import_runs')
      .select('authorization_sealed')
      .where('id', '=', run.id)
      .executeTakeFirstOrThrow();
    expect(ended.authorization_sealed).toBeNull();
  });

  it('crawls a website into the target change request, which it leaves open', async () => {
    const { admin, organization, space } = await newSpace();
    const changeRequestId = await api.openChangeRequest(admin, space.id, 'Site');
    const started = await start(admin, organization.id, {
      source: { type: 'website', url: siteUrl },
      target: { space: space.id, changeRequest: changeRequestId },
    });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().target).toEqual({ space: space.id, changeRequest: changeRequestId });
    await runAll();
    const run = (await getRun(admin, organization.id, started.json().id as string)).json();
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', progress: { stepsDone: 1, stepsTotal: 1 } });
    expect(run.progress).not.toHaveProperty('changeRequest');
    // The space is untouched; the change request holds the site.
    expect(await pages(admin, space.id)).toEqual([]);
    const drafted = (
      await api.read(admin, `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content/pages`)
    ).json().pages as TreePage[];
    expect(drafted.map((page) => page.title)).toContain('Home');
    const changeRequest = (await api.read(admin, `/v1/spaces/${space.id}/change-requests/${changeRequestId}`)).json();
    expect(changeRequest.status).not.toBe('merged');
  });

  it('puts the imported pages under the target page', async () => {
    const { admin, organization, space } = await newSpace();
    const { written } = await api.change(admin, space.id, [
      { operation: 'insert_page', ref: 'home', title: 'Home', document: { markdown: 'Home.\n' } },
    ]);
    const home = (written.changes as Array<{ page: { id: string } }>)[0]!.page.id;
    const key = await upload(
      admin,
      organization.id,
      zipOf({ 'Notes.md': '# Notes\n\nSome.\n', 'Todo.md': '# Todo\n' }),
    );
    const started = await start(admin, organization.id, {
      source: { type: 'file', files: [key] },
      target: { space: space.id, page: home },
    });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().target).toEqual({ space: space.id, page: home });
    await runAll();
    expect(titles(await pages(admin, space.id))).toEqual([['Home', ['Notes', 'Todo']]]);
  });

  it('works through the official client', async () => {
    const { admin, organization, space } = await newSpace();
    const key = await upload(admin, organization.id, zipOf({ 'Notes.md': '# Notes\n\nSome.\n' }));
    const client = newestOfficialClient(await listen(t.app), admin.token);
    const { data: run } = await client.org.startImportRun(organization.id, {
      source: { type: 'file', files: [key] },
      target: { space: space.id },
    });
    expect(run.status).toBe('pending');
    const { data: listed } = await client.org.listImportRuns(organization.id, { status: 'active' });
    expect(listed.items.map((item) => item.id)).toEqual([run.id]);
    await runAll();
    const { data: fetched } = await client.org.getImportRun(organization.id, run.id);
    expect(fetched.status).toBe('completed');
  });
});

describe('refusals', () => {
  it('refuses who may not edit the space, another organization’s space, and sources it cannot take, writing no run', async () => {
    const { admin, organization, space, member } = await newSpace();
    const other = await t.factory.team();
    const body = { source: { type: 'website', url: siteUrl }, target: { space: space.id } };
    expect((await start(member('read'), organization.id, body)).statusCode).toBe(403);
    expect((await start(other.admin, organization.id, body)).statusCode).toBe(404);
    // The space exists, but not in the organization of the path.
    const elsewhere = await api.createSpace(other.admin, other.organization.id, { title: 'Theirs' });
    expect((await start(other.admin, other.organization.id, body)).statusCode).toBe(404);
    expect((await start(admin, organization.id, { ...body, target: { space: elsewhere.id } })).statusCode).toBe(404);
    const refused = [
      { source: { type: 'website', url: 'ftp://example.com/' }, target: { space: space.id } },
      { source: { type: 'file', files: ['no-such-upload'] }, target: { space: space.id } },
      { source: { type: 'file', files: [] }, target: { space: space.id } },
      { source: { type: 'git', url: 'https://git.example.com/x.git', ref: 'main' }, target: { space: space.id } },
      { source: { type: 'svn', url: 'https://x' }, target: { space: space.id } },
      { source: { type: 'website', url: siteUrl }, target: { space: space.id }, extra: true },
    ];
    for (const payload of refused) {
      const answer = await start(admin, organization.id, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json().error.message).toEqual(expect.any(String));
    }
    const theirUpload = await upload(other.admin, other.organization.id, zipOf({ 'A.md': '# A\n' }));
    expect(
      (
        await start(admin, organization.id, {
          source: { type: 'file', files: [theirUpload] },
          target: { space: space.id },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await start(admin, organization.id, { ...body, target: { space: space.id, page: 'nope' } })).statusCode,
    ).toBe(404);
    expect(
      (await start(admin, organization.id, { ...body, target: { space: space.id, changeRequest: 'nope' } })).statusCode,
    ).toBe(404);
    const runs = await t.db.selectFrom('import_runs').select('id').where('space_id', '=', space.id).execute();
    expect(runs).toEqual([]);
  });

  it('shows runs to the organization’s members only', async () => {
    const { admin, organization, space, member } = await newSpace();
    const other = await t.factory.team();
    const started = (
      await start(admin, organization.id, { source: { type: 'website', url: siteUrl }, target: { space: space.id } })
    ).json();
    const list = await t.app.inject({
      method: 'GET',
      url: `/v1/org/${organization.id}/imports`,
      headers: member('read').headers,
    });
    expect(list.statusCode).toBe(200);
    expectNewestSpecResponse('listImportRuns', 200, list.json());
    expect(list.json()).toMatchObject({ count: 1, items: [{ id: started.id }] });
    expect((await getRun(other.admin, organization.id, started.id as string)).statusCode).toBe(404);
    expect((await getRun(other.admin, other.organization.id, started.id as string)).statusCode).toBe(404);
    expect((await getRun(member(null), organization.id, started.id as string)).statusCode).toBe(403);
    expect((await cancel(member('read'), organization.id, started.id as string)).statusCode).toBe(403);
    expect((await cancel(other.admin, organization.id, started.id as string)).statusCode).toBe(404);
    const filtered = await t.app.inject({
      method: 'GET',
      url: `/v1/org/${organization.id}/imports?status=completed`,
      headers: admin.headers,
    });
    expect(filtered.json()).toMatchObject({ count: 0, items: [] });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/v1/org/${organization.id}/imports?status=done`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(400);
    await cancel(admin, organization.id, started.id as string);
  });

  it('fails a zip that inflates past its bounds, or is no zip, with the reason, writing nothing', async () => {
    const { admin, organization, space } = await newSpace();
    // 40 MiB of zeros deflate to some 40 KiB: over 200 times.
    const bomb = Buffer.from(zipSync({ 'big.md': new Uint8Array(40 * 1024 * 1024) }));
    const notZip = Buffer.from('this is not a zip');
    const keys = [await upload(admin, organization.id, bomb), await upload(admin, organization.id, notZip, 'x.zip')];
    const ids: string[] = [];
    for (const key of keys)
      ids.push(
        (
          await start(admin, organization.id, { source: { type: 'file', files: [key] }, target: { space: space.id } })
        ).json().id as string,
      );
    await runAll();
    const [first, second] = await Promise.all(ids.map(async (id) => (await getRun(admin, organization.id, id)).json()));
    expectNewestSpecResponse('getImportRun', 200, first);
    expect(first).toMatchObject({ status: 'failed', reason: expect.stringContaining('200 times its compressed size') });
    expect(second).toMatchObject({ status: 'failed', reason: expect.stringContaining('not a zip') });
    expect(await pages(admin, space.id)).toEqual([]);
  });
});

/** Markdown files of `count` pages, Outline's way. */
function manyPages(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n++) files[`Page ${String(n).padStart(3, '0')}.md`] = `# Page ${n}\n\nText ${n}.\n`;
  return files;
}

/** Waits until the run has recorded `count` writes. */
async function stepsDone(runId: string, count: number): Promise<void> {
  for (;;) {
    const row = await t.db
      .selectFrom('import_runs')
      .select('steps_done')
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    if (row.steps_done >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('one at a time, cancellable, resumable', () => {
  it('runs an organization’s runs one at a time in order, while another organization’s run goes', async () => {
    const a = await newSpace();
    const b = await newSpace();
    const body = (spaceId: string) => ({ source: { type: 'website', url: siteUrl }, target: { space: spaceId } });
    const first = (await start(a.admin, a.organization.id, body(a.space.id))).json();
    const second = (await start(a.admin, a.organization.id, body(a.space.id))).json();
    const theirs = (await start(b.admin, b.organization.id, body(b.space.id))).json();
    const now = new Date();
    const claimed = await claimImportRun(t.db, now, 60_000);
    expect(claimed?.id).toBe(first.id);
    const next = await claimImportRun(t.db, now, 60_000);
    // Not the second of a's organization while its first runs: b's.
    expect(next?.id).toBe(theirs.id);
    expect(await claimImportRun(t.db, now, 60_000)).toBeUndefined();
    for (const run of [first, second, theirs]) await cancel(a.admin, a.organization.id, run.id as string);
    await cancel(b.admin, b.organization.id, theirs.id as string);
    expect(second.id).toEqual(expect.any(String));
  });

  it('cancels a pending run, which never starts, and refuses to cancel a run that ended', async () => {
    const { admin, organization, space } = await newSpace();
    const run = (
      await start(admin, organization.id, { source: { type: 'website', url: siteUrl }, target: { space: space.id } })
    ).json();
    const cancelled = await cancel(admin, organization.id, run.id as string);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expectNewestSpecResponse('cancelImportRun', 200, cancelled.json());
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', reason: expect.stringContaining('Cancelled') });
    await runAll();
    expect((await getRun(admin, organization.id, run.id as string)).json().status).toBe('cancelled');
    expect(await pages(admin, space.id)).toEqual([]);
    const again = await cancel(admin, organization.id, run.id as string);
    expect(again.statusCode).toBe(409);
  });

  it('stops a run cancelled while it runs at its next step, archiving its change request: the space is as it was', async () => {
    const { admin, organization, space } = await newSpace();
    const key = await upload(admin, organization.id, zipOf(manyPages(130)));
    const run = (
      await start(admin, organization.id, { source: { type: 'file', files: [key] }, target: { space: space.id } })
    ).json();
    const claimed = (await claimImportRun(t.db, new Date(), 60_000))!;
    expect(claimed.id).toBe(run.id);
    const running = executeRun(t.app.context, claimed).catch((error: unknown) => error);
    await stepsDone(run.id as string, 1);
    expect((await cancel(admin, organization.id, run.id as string)).statusCode).toBe(200);
    expect(await running).toBeInstanceOf(RunReleased);
    await noteCancelled(t.app.context, claimed);
    const after = (await getRun(admin, organization.id, run.id as string)).json();
    expect(after.status).toBe('cancelled');
    expect(after.reason).toMatch(/stopped after [1-2] of 3 writes, and the change request that held them is archived/);
    const draft = (
      await api.read(admin, `/v1/spaces/${space.id}/change-requests/${after.progress.changeRequest}`)
    ).json();
    expect(draft.status).toBe('archived');
    expect(await pages(admin, space.id)).toEqual([]);
  });

  it('stops a run cancelled before its first step without making a change request', async () => {
    const { admin, organization, space } = await newSpace();
    const key = await upload(admin, organization.id, zipOf(GITBOOK_ZIP));
    const run = (
      await start(admin, organization.id, { source: { type: 'file', files: [key] }, target: { space: space.id } })
    ).json();
    const claimed = (await claimImportRun(t.db, new Date(), 60_000))!;
    expect((await cancel(admin, organization.id, run.id as string)).statusCode).toBe(200);
    await expect(executeRun(t.app.context, claimed)).rejects.toBeInstanceOf(RunReleased);
    await noteCancelled(t.app.context, claimed);
    const after = (await getRun(admin, organization.id, run.id as string)).json();
    expect(after.reason).toMatch(/before it wrote anything: the space is as it was/);
    expect(after.progress).not.toHaveProperty('changeRequest');
    const changeRequests = await t.db
      .selectFrom('change_requests')
      .select('id')
      .where('space_id', '=', space.id)
      .execute();
    expect(changeRequests).toEqual([]);
  });

  it('goes on after an instance died mid-run, and never writes a page twice, even when its last write went unrecorded', async () => {
    const { admin, organization, space } = await newSpace();
    const key = await upload(admin, organization.id, zipOf(manyPages(130)));
    const run = (
      await start(admin, organization.id, { source: { type: 'file', files: [key] }, target: { space: space.id } })
    ).json();

    // The instance stops after its first write is recorded.
    const claimed = (await claimImportRun(t.db, new Date(), 60_000))!;
    const stopping = new AbortController();
    const running = executeRun(t.app.context, claimed, stopping.signal).catch((error: unknown) => error);
    await stepsDone(run.id as string, 1);
    stopping.abort();
    expect(await running).toBeInstanceOf(RunReleased);
    const stopped = await t.db.selectFrom('import_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
    expect(stopped.status).toBe('in-progress');
    expect(stopped.steps_done).toBeGreaterThanOrEqual(1);
    expect(stopped.steps_done).toBeLessThan(stopped.steps_total!);

    // Its lease has not expired: nobody takes it.
    const processor = createImportRunProcessor(t.app.context);
    expect(await processor.runNext()).toBe(false);
    await t.db
      .updateTable('import_runs')
      .set({ lease_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', run.id)
      .execute();
    await processor.runNext();
    const resumed = (await getRun(admin, organization.id, run.id as string)).json();
    expect(resumed).toMatchObject({ status: 'completed', progress: { stepsDone: stopped.steps_total } });
    const tree = await pages(admin, space.id);
    expect(tree).toHaveLength(130);
    expect(new Set(tree.map((page) => page.title)).size).toBe(130);
    // Resumed in the same change request: its draft was not replaced.
    expect(resumed.progress.changeRequest).toBe(stopped.draft_change_request_id);
    const attempts = await t.db
      .selectFrom('import_runs')
      .select('attempts')
      .where('id', '=', run.id)
      .executeTakeFirstOrThrow();
    expect(attempts.attempts).toBe(2);

    // A run whose last write landed without its record starts over in a new change request, not on top.
    const space2 = await api.createSpace(admin, organization.id, { title: 'Again' });
    const run2 = (
      await start(admin, organization.id, { source: { type: 'file', files: [key] }, target: { space: space2.id } })
    ).json();
    const claimed2 = (await claimImportRun(t.db, new Date(), 60_000))!;
    const stopping2 = new AbortController();
    const running2 = executeRun(t.app.context, claimed2, stopping2.signal).catch((error: unknown) => error);
    await stepsDone(run2.id as string, 1);
    stopping2.abort();
    await running2;
    const partial = await t.db
      .selectFrom('import_runs')
      .selectAll()
      .where('id', '=', run2.id)
      .executeTakeFirstOrThrow();
    // As if the instance died between a write and its record.
    await t.db
      .updateTable('import_runs')
      .set({
        steps_done: partial.steps_done - 1,
        written_revision_id: 'before-the-unrecorded-write',
        lease_expires_at: new Date(Date.now() - 1000),
      })
      .where('id', '=', run2.id)
      .execute();
    await processor.runNext();
    const redone = (await getRun(admin, organization.id, run2.id as string)).json();
    expect(redone.status).toBe('completed');
    expect(redone.progress.changeRequest).not.toBe(partial.draft_change_request_id);
    const tree2 = await pages(admin, space2.id);
    expect(tree2).toHaveLength(130);
    const old = (
      await api.read(admin, `/v1/spaces/${space2.id}/change-requests/${partial.draft_change_request_id}`)
    ).json();
    expect(old.status).toBe('archived');
  });
});

describe('a run left behind', () => {
  it('is answered as failed once its workers stopped three times, and the next worker ends it so', async () => {
    const { admin, organization, space } = await newSpace();
    const run = (
      await start(admin, organization.id, { source: { type: 'website', url: siteUrl }, target: { space: space.id } })
    ).json();
    await t.db
      .updateTable('import_runs')
      .set({ status: 'in-progress', attempts: 3, lease_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', run.id)
      .execute();
    const shown = (await getRun(admin, organization.id, run.id as string)).json();
    expectNewestSpecResponse('getImportRun', 200, shown);
    expect(shown).toMatchObject({ status: 'failed', reason: 'The import stopped 3 times before it could finish' });
    await runAll();
    const row = await t.db.selectFrom('import_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', reason: 'The import stopped 3 times before it could finish' });
    expect(await pages(admin, space.id)).toEqual([]);
  });
});

describe('reading a zip', () => {
  it('tells GitBook’s format, at the top or in the one folder a repository archive has, from markdown folders', () => {
    expect(readZip(zipOf(GITBOOK_ZIP), 'zip').layout).toBe('gitbook');
    const wrapped = Object.fromEntries(Object.entries(GITBOOK_ZIP).map(([path, body]) => [`docs-main/${path}`, body]));
    const read = readZip(zipOf(wrapped), 'zip');
    expect(read.layout).toBe('gitbook');
    expect(read.content.entries.map((entry) => entry.title)).toEqual(['Welcome', 'Guide']);
    expect(readZip(zipOf({ 'A.md': '# A\n' }), 'zip').layout).toBe('markdown-folders');
  });

  it('orders siblings by name, numbers as numbers, and makes a folder without a page an empty page below the top', () => {
    const read = readZip(
      zipOf({
        'Guide/Step 10.md': '# Step 10\n',
        'Guide/Step 2.md': '# Step 2\n',
        'Guide/Parts/Wheel.md': '# Wheel\n',
        'Guide.md': '# The guide\n',
        '.obsidian/app.md': '# Settings\n',
        '__MACOSX/Guide/._Step 2.md': 'junk',
        '../escape.md': '# Out\n',
      }),
      'zip',
    );
    const outline = (entries: Array<{ title: string; children?: unknown[] }>): unknown[] =>
      entries.map((entry) =>
        entry.children?.length ? [entry.title, outline(entry.children as typeof entries)] : entry.title,
      );
    // Hidden folders, macOS's forks and a path that climbs out of the zip are left out.
    expect(outline(read.content.entries)).toEqual([['The guide', [['Parts', ['Wheel']], 'Step 2', 'Step 10']]]);
    const parts = (read.content.entries[0] as { children: Array<{ markdown: string; path: string }> }).children[0]!;
    expect(parts).toMatchObject({ markdown: '# Parts\n', path: 'guide/parts.md' });
  });

  it('refuses a zip past its bounds before inflating it', () => {
    const many: Record<string, Uint8Array> = {};
    for (let n = 0; n <= ZIP_LIMITS.entries; n++) many[`f${n}.txt`] = new Uint8Array(0);
    expect(() => readZip(Buffer.from(zipSync(many)), 'the zip')).toThrow(/over 20000 entries/);
    expect(() => readZip(Buffer.from('PK not really'), 'the zip')).toThrow(/not a zip file/);
  });
});
