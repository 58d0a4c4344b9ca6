import { GitBookAPIError } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

let admin: Account;
let spaceId: string;
let firstRevision: string;
let ids: Record<string, string>;

beforeAll(async () => {
  const team = await t.factory.team();
  admin = team.admin;
  const space = await api.createSpace(admin, team.organization.id);
  const { written } = await api.change(admin, space.id, [
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
    { operation: 'insert_page', ref: 'setup', into: 'guide', title: 'Setup', document: { markdown: 'Install it.' } },
    {
      operation: 'insert_page',
      ref: 'advanced',
      into: 'setup',
      title: 'Advanced',
      slug: 'advanced-setup',
      document: { markdown: 'Tune it.' },
    },
    { operation: 'insert_page', ref: 'faq', title: 'Questions fréquentes', document: { markdown: 'Ask.' } },
  ]);
  ids = Object.fromEntries(
    (written.changes as Array<{ ref: string; page: { id: string } }>).map((change) => [change.ref, change.page.id]),
  );
  spaceId = space.id;
  firstRevision = (await api.read(admin, `/v1/spaces/${space.id}`)).json().revision;
  // Then the setup page moves: its old path is only in the first revision.
  await api.change(admin, space.id, [{ operation: 'update_page', page: ids.setup!, slug: 'installation' }]);
});

describe('pages by path', () => {
  it('find the page at a complete path, with the same answer as a read by id', async () => {
    const byPath = await api.read(admin, `/v1/spaces/${spaceId}/content/path/guide/installation/advanced-setup`, {
      format: 'markdown',
    });
    expect(byPath.statusCode).toBe(200);
    expectSpecResponse('getPageByPath', 200, byPath.json());
    const byId = await api.read(admin, `/v1/spaces/${spaceId}/content/page/${ids.advanced!}`, { format: 'markdown' });
    expect(byPath.json()).toEqual(byId.json());
    expect(byPath.json()).toMatchObject({ id: ids.advanced, path: 'guide/installation/advanced-setup' });

    const top = await api.read(admin, `/v1/spaces/${spaceId}/content/path/guide`);
    expectSpecResponse('getPageByPath', 200, top.json());
    expect(top.json()).toMatchObject({ id: ids.guide, title: 'Guide' });
    expect(top.json().pages[0]).toMatchObject({ id: ids.setup, path: 'guide/installation' });
    // A path as a client writes it: percent-encoded, with a trailing slash.
    const faqPath = (await api.read(admin, `/v1/spaces/${spaceId}/content/page/${ids.faq!}`)).json().path as string;
    const encoded = await api.read(admin, `/v1/spaces/${spaceId}/content/path/${encodeURIComponent(faqPath)}/`);
    expect(encoded.statusCode).toBe(200);
    expect(encoded.json().id).toBe(ids.faq);
  });

  it('answer 404 where no page has the path, and for an old path in the current revision', async () => {
    for (const path of ['nothing', 'guide/setup', 'guide/installation/advanced-setup/deeper', 'advanced-setup']) {
      const res = await api.read(admin, `/v1/spaces/${spaceId}/content/path/${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error.message).toBe('No page at this path in this revision');
    }
    expect((await api.read(admin, `/v1/spaces/${spaceId}/content/path/`)).statusCode).toBe(400);
  });

  it('read a revision by its own paths, and a change request by its own', async () => {
    const old = await api.read(admin, `/v1/spaces/${spaceId}/revisions/${firstRevision}/path/guide/setup`);
    expect(old.statusCode).toBe(200);
    expectSpecResponse('getPageInRevisionByPath', 200, old.json());
    expect(old.json()).toMatchObject({ id: ids.setup, path: 'guide/setup' });
    expect(
      (await api.read(admin, `/v1/spaces/${spaceId}/revisions/${firstRevision}/path/guide/installation`)).statusCode,
    ).toBe(404);

    const cr = (await api.createChangeRequest(admin, spaceId, { subject: 'Draft' })).json().id as string;
    await api.writeContent(admin, spaceId, cr, [
      { operation: 'insert_page', into: ids.guide, title: 'Draft', document: { markdown: 'Not yet.' } },
    ]);
    const draft = await api.read(admin, `/v1/spaces/${spaceId}/change-requests/${cr}/content/path/guide/draft`);
    expect(draft.statusCode).toBe(200);
    expectSpecResponse('getPageInChangeRequestByPath', 200, draft.json());
    expect(draft.json()).toMatchObject({ title: 'Draft', path: 'guide/draft' });
    expect((await api.read(admin, `/v1/spaces/${spaceId}/content/path/guide/draft`)).statusCode).toBe(404);
  });

  it('are read through the official client', async () => {
    const client = officialClient(await listen(t.app), admin.token);
    const { data } = await client.spaces.getPageByPath(spaceId, 'guide/installation', { format: 'markdown' });
    expect(data).toMatchObject({ id: ids.setup, title: 'Setup' });
    const missing = await client.spaces.getPageByPath(spaceId, 'nowhere').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect((missing as GitBookAPIError).code).toBe(404);
  });
});
