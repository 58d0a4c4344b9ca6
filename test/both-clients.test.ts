import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ContentType as SeedContentType,
  GitBookAPIError as SeedAPIError,
  ImportContentSource,
  MemberRole as SeedMemberRole,
  type GitBookAPI as SeedClient,
} from '@gitbook/api';
import {
  ContentType as NewestContentType,
  GitBookAPIError as NewestAPIError,
  MemberRole as NewestMemberRole,
  type GitBookAPI as NewestClient,
} from '@gitbook/api-next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, useTestApp } from './support/app.js';
import { newestOfficialClient, officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

const t = useTestApp();
let endpoint: string;
/** Serves the markdown file 0.143.2's client imports, as it has no call that writes content. */
let files: Server;
let filesUrl: string;

/** The page each client writes: its leading heading becomes the title, in an import as in a content update. */
const PAGE_MARKDOWN = '# Getting started\n\nInstall the **walrus** widget with care.\n';
const PAGE_BODY = 'Install the **walrus** widget with care.\n';
const SPEC_TEXT = '{"openapi":"3.0.3","info":{"title":"Walrus API","version":"1"},"paths":{}}';

beforeAll(async () => {
  endpoint = await listen(t.app);
  files = createServer((request, response) => {
    if (request.url !== '/getting-started.md') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(PAGE_MARKDOWN);
  });
  files.listen(0, '127.0.0.1');
  await new Promise((resolve) => files.once('listening', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => files.close(resolve));
});

interface ApiToken {
  id: string;
  label: string;
  current: boolean;
  token?: string;
}

/** One official client, connected with one user's token: the calls whose names or shapes differ between versions. */
interface Connection {
  api: SeedClient | NewestClient;
  /** Writes PAGE_MARKDOWN as a new page into a change request. */
  writePage(spaceId: string, changeRequestId: string): Promise<void>;
  inviteReviewer(spaceId: string, userId: string): Promise<number>;
  /** API tokens are this service's own (GitBook's API has none): called through the client's generic request. */
  createToken(label: string): Promise<ApiToken>;
  listTokens(): Promise<ApiToken[]>;
}

interface ClientUnderTest {
  name: string;
  connect(token: string): Connection;
  /** The status of the error this client's own error class carries, thrown by `call`. */
  refusal(call: Promise<unknown>): Promise<number>;
  /** Validates an answer against the spec of this client's own version. */
  expectResponse(operationId: string, status: number, body: unknown): void;
}

const seed: ClientUnderTest = {
  name: '@gitbook/api 0.143.2',
  connect(token) {
    const api = officialClient(endpoint, token);
    return {
      api,
      // 0.143.2 has no updateChangeRequestContent: it writes content by importing a markdown file.
      async writePage(spaceId, changeRequestId) {
        const imported = await api.spaces.importContentInChangeRequest(spaceId, changeRequestId, {
          url: `${filesUrl}/getting-started.md`,
          source: ImportContentSource.Markdown,
        });
        expect(imported.status).toBe(201);
        expectSpecResponse('importContentInChangeRequest', 201, imported.data);
        expect(imported.data).toMatchObject({ importedResources: 1, totalResources: 1 });
      },
      async inviteReviewer(spaceId, userId) {
        return (await api.spaces.inviteToSpace(spaceId, { role: SeedMemberRole.Review, users: [userId] })).status;
      },
      async createToken(label) {
        const { data } = await api.request<ApiToken>({
          path: '/user/tokens',
          method: 'POST',
          body: { label },
          secure: true,
          type: SeedContentType.Json,
          format: 'json',
        });
        return data;
      },
      async listTokens() {
        const { data } = await api.request<{ items: ApiToken[] }>({
          path: '/user/tokens',
          secure: true,
          format: 'json',
        });
        return data.items;
      },
    };
  },
  refusal: (call) =>
    call.then(
      () => 0,
      (error: unknown) => (error instanceof SeedAPIError ? error.code : -1),
    ),
  expectResponse: expectSpecResponse,
};

const newest: ClientUnderTest = {
  name: '@gitbook/api 0.202.0',
  connect(token) {
    const api = newestOfficialClient(endpoint, token);
    return {
      api,
      async writePage(spaceId, changeRequestId) {
        const written = await api.spaces.updateChangeRequestContent(spaceId, changeRequestId, {
          changes: [{ operation: 'insert_page', document: { markdown: PAGE_MARKDOWN } }],
        });
        expect(written.status).toBe(200);
        expectNewestSpecResponse('updateChangeRequestContent', 200, written.data);
      },
      async inviteReviewer(spaceId, userId) {
        return (await api.spaces.inviteToSpace(spaceId, { role: NewestMemberRole.Review, users: [userId] })).status;
      },
      async createToken(label) {
        const { data } = await api.request<ApiToken>({
          path: '/user/tokens',
          method: 'POST',
          body: { label },
          secure: true,
          type: NewestContentType.Json,
          format: 'json',
        });
        return data;
      },
      async listTokens() {
        const { data } = await api.request<{ items: ApiToken[] }>({
          path: '/user/tokens',
          secure: true,
          format: 'json',
        });
        return data.items;
      },
    };
  },
  refusal: (call) =>
    call.then(
      () => 0,
      (error: unknown) => (error instanceof NewestAPIError ? error.code : -1),
    ),
  expectResponse: expectNewestSpecResponse,
};

describe.each([seed, newest])('a day through the official client $name', (client) => {
  let me: Account;
  let colleague: Account;
  let conn: Connection;
  let organizationId: string;
  let spaceId: string;
  let pageId: string;
  const check = (operationId: string, status: number, body: unknown): void =>
    client.expectResponse(operationId, status, body);

  beforeAll(async () => {
    me = await t.factory.account({ name: 'Walrus Keeper' });
    colleague = await t.factory.account({ name: 'Seal Watcher' });
    organizationId = (await t.factory.organization(me.user.id, { title: 'Walrus Works' })).id;
    await t.factory.member(organizationId, colleague.user.id, 'read');
    conn = client.connect(me.token);
  });

  it('reads the authenticated user', async () => {
    const { data, status } = await conn.api.user.getAuthenticatedUser();
    expect(status).toBe(200);
    check('getAuthenticatedUser', 200, data);
    expect(data).toMatchObject({ object: 'user', id: me.user.id, displayName: 'Walrus Keeper' });
  });

  it('lists, reads and renames the organization', async () => {
    const list = await conn.api.orgs.listOrganizationsForAuthenticatedUser();
    check('listOrganizationsForAuthenticatedUser', 200, list.data);
    expect(list.data.items.map((item) => item.id)).toEqual([organizationId]);

    const read = await conn.api.orgs.getOrganizationById(organizationId);
    check('getOrganizationById', 200, read.data);
    expect(read.data.title).toBe('Walrus Works');

    const updated = await conn.api.orgs.updateOrganizationById(organizationId, { title: 'Walrus Workshop' });
    expect(updated.status).toBe(200);
    check('updateOrganizationById', 200, updated.data);
    expect((await conn.api.orgs.getOrganizationById(organizationId)).data.title).toBe('Walrus Workshop');
  });

  it('lists the members and gathers them in a team', async () => {
    const members = await conn.api.orgs.listMembersInOrganizationById(organizationId);
    check('listMembersInOrganizationById', 200, members.data);
    expect(members.data.items.map((member) => [member.user.id, member.role]).sort()).toEqual(
      [
        [me.user.id, 'admin'],
        [colleague.user.id, 'read'],
      ].sort(),
    );

    const team = await conn.api.orgs.createOrganizationTeam(organizationId, {
      title: 'Keepers',
      members: [colleague.user.id],
    });
    expect(team.status).toBe(201);
    check('createOrganizationTeam', 201, team.data);
    const teams = await conn.api.orgs.listTeamsInOrganizationById(organizationId);
    check('listTeamsInOrganizationById', 200, teams.data);
    expect(teams.data.items.map((item) => item.title)).toEqual(['Keepers']);
    const teamMembers = await conn.api.orgs.listTeamMembersInOrganizationById(organizationId, team.data.id);
    check('listTeamMembersInOrganizationById', 200, teamMembers.data);
    expect(teamMembers.data.items.map((member) => member.organization.user.id)).toEqual([colleague.user.id]);
  });

  it('creates a collection and a space in it', async () => {
    const collection = await conn.api.orgs.createCollection(organizationId, { title: 'Handbooks' });
    expect(collection.status).toBe(201);
    check('createCollection', 201, collection.data);
    const space = await conn.api.orgs.createSpace(organizationId, {
      title: 'Walrus guide',
      parent: collection.data.id,
    });
    expect(space.status).toBe(201);
    check('createSpace', 201, space.data);
    expect(space.data).toMatchObject({
      title: 'Walrus guide',
      parent: collection.data.id,
      organization: organizationId,
    });
    spaceId = space.data.id;
  });

  it('writes a page in a change request, reads it there, and merges it', async () => {
    const created = await conn.api.spaces.createChangeRequest(spaceId, { subject: 'First page' });
    expect(created.status).toBe(201);
    check('createChangeRequest', 201, created.data);
    const changeRequestId = created.data.id;

    await conn.writePage(spaceId, changeRequestId);
    const pages = await conn.api.spaces.listPagesInChangeRequest(spaceId, changeRequestId);
    check('listPagesInChangeRequest', 200, pages.data);
    expect(pages.data.pages).toMatchObject([{ type: 'document', title: 'Getting started', path: 'getting-started' }]);
    pageId = pages.data.pages[0]!.id;
    const inChangeRequest = await conn.api.spaces.getPageInChangeRequestById(spaceId, changeRequestId, pageId, {
      format: 'markdown',
    });
    check('getPageInChangeRequestById', 200, inChangeRequest.data);
    expect(inChangeRequest.data).toMatchObject({ title: 'Getting started', markdown: PAGE_BODY });
    // Not in the space until merged.
    expect((await conn.api.spaces.listPages(spaceId)).data.pages).toEqual([]);

    const merged = await conn.api.spaces.mergeChangeRequest(spaceId, changeRequestId);
    expect(merged.status).toBe(200);
    check('mergeChangeRequest', 200, merged.data);
    expect(merged.data.result).toBe('merge');
    const after = await conn.api.spaces.getChangeRequestById(spaceId, changeRequestId);
    expect(after.data.status).toBe('merged');
  });

  it('reads the merged page of the space by id and by path', async () => {
    const pages = await conn.api.spaces.listPages(spaceId);
    check('listPages', 200, pages.data);
    expect(pages.data.pages.map((page) => page.id)).toEqual([pageId]);

    const byId = await conn.api.spaces.getPageById(spaceId, pageId, { format: 'markdown' });
    check('getPageById', 200, byId.data);
    expect(byId.data).toMatchObject({ id: pageId, title: 'Getting started', markdown: PAGE_BODY });
    const byPath = await conn.api.spaces.getPageByPath(spaceId, 'getting-started');
    check('getPageByPath', 200, byPath.data);
    expect(byPath.data).toMatchObject({ id: pageId, path: 'getting-started' });
  });

  it('comments on the page and replies', async () => {
    const posted = await conn.api.spaces.postCommentInSpace(spaceId, {
      page: pageId,
      body: { markdown: 'Which **widget**?' },
    });
    check('postCommentInSpace', 200, posted.data);
    expect(posted.data).toMatchObject({ postedBy: { id: me.user.id }, body: { markdown: 'Which **widget**?' } });
    const reply = await conn.api.spaces.postCommentReplyInSpace(spaceId, posted.data.id, {
      body: { markdown: 'The blue one.' },
    });
    check('postCommentReplyInSpace', 200, reply.data);

    const replies = await conn.api.spaces.listCommentRepliesInSpace(spaceId, posted.data.id, { format: 'markdown' });
    check('listCommentRepliesInSpace', 200, replies.data);
    expect(replies.data.items.map((item) => [item.id, item.body])).toEqual([
      [reply.data.id, { markdown: 'The blue one.' }],
    ]);
    const comment = await conn.api.spaces.getCommentInSpace(spaceId, posted.data.id);
    check('getCommentInSpace', 200, comment.data);
    expect(comment.data.replies).toBe(1);
    // Who replied, which 0.202.0's Comment requires (0.143.2 lets it through unnamed).
    expect((comment.data as { repliers?: unknown }).repliers).toEqual([
      { user: expect.objectContaining({ id: me.user.id }), count: 1, updatedAt: reply.data.postedAt },
    ]);
  });

  it('finds the page in the space and in the organization', async () => {
    const inSpace = await conn.api.spaces.searchSpaceContent(spaceId, { query: 'walrus' });
    check('searchSpaceContent', 200, inSpace.data);
    expect(inSpace.data.items.map((page) => page.id)).toEqual([pageId]);
    const inOrganization = await conn.api.orgs.searchOrganizationContent(organizationId, { query: 'walrus' });
    check('searchOrganizationContent', 200, inOrganization.data);
    expect(inOrganization.data.items.map((space) => [space.id, space.pages.map((page) => page.id)])).toEqual([
      [spaceId, [pageId]],
    ]);
    const nothing = await conn.api.spaces.searchSpaceContent(spaceId, { query: 'narwhal' });
    expect(nothing.data.items).toEqual([]);
  });

  it('publishes a site with the space and reads its structure and published content', async () => {
    const site = await conn.api.orgs.createSite(organizationId, { title: 'Walrus docs', spaces: [spaceId] });
    expect(site.status).toBe(201);
    check('createSite', 201, site.data);
    const published = await conn.api.orgs.publishSite(organizationId, site.data.id);
    expect(published.status).toBe(200);
    check('publishSite', 200, published.data);

    const structure = await conn.api.orgs.getSiteStructure(organizationId, site.data.id);
    check('getSiteStructure', 200, structure.data);
    expect(structure.data.type).toBe('siteSpaces');
    const content = await conn.api.orgs.getPublishedContentSite(organizationId, site.data.id);
    check('getPublishedContentSite', 200, content.data);
    expect(content.data.site).toMatchObject({ id: site.data.id, title: 'Walrus docs' });
    expect(content.data.structure.type).toBe('siteSpaces');
    if (content.data.structure.type !== 'siteSpaces') return;
    expect(content.data.structure.structure.map((siteSpace) => siteSpace.space.id)).toEqual([spaceId]);
  });

  it('makes an API token that works and lists it', async () => {
    const token = await conn.createToken('Laptop');
    expect(token).toMatchObject({ label: 'Laptop', token: expect.any(String) });
    const withIt = client.connect(token.token!);
    expect((await withIt.api.user.getAuthenticatedUser()).data.id).toBe(me.user.id);
    const listed = await withIt.listTokens();
    expect(listed.find((item) => item.id === token.id)).toMatchObject({ label: 'Laptop', current: true });
    expect(listed.find((item) => item.id === me.tokenId)).toMatchObject({ current: false });
    expect(listed.every((item) => item.token === undefined)).toBe(true);
  });

  it('invites a reviewer to the space and lists the permissions', async () => {
    expect(await conn.inviteReviewer(spaceId, colleague.user.id)).toBe(204);
    const users = await conn.api.spaces.listUserPermissionsInSpace(spaceId);
    check('listUserPermissionsInSpace', 200, users.data);
    expect(users.data.items.map((item) => [item.permission, item.user.id])).toEqual([['review', colleague.user.id]]);
  });

  it('creates an OpenAPI spec from a text and reads it back', async () => {
    const slug = 'walrus';
    const created = await conn.api.orgs.createOpenApiSpec(organizationId, { slug, source: { text: SPEC_TEXT } });
    expect(created.status).toBe(201);
    check('createOpenAPISpec', 201, created.data);
    expect(created.data).toMatchObject({ slug, processingState: 'pending' });
    const read = await conn.api.orgs.getOpenApiSpecBySlug(organizationId, slug);
    check('getOpenAPISpecBySlug', 200, read.data);
    expect(read.data).toMatchObject({ id: created.data.id, slug });
    const stored = await t.db
      .selectFrom('openapi_specs')
      .select('source_text')
      .where('id', '=', created.data.id)
      .executeTakeFirstOrThrow();
    expect(stored.source_text).toBe(SPEC_TEXT);
  });

  it('shows a stranger with an organization of their own none of it', async () => {
    const stranger = await t.factory.account();
    await t.factory.organization(stranger.user.id);
    const theirs = client.connect(stranger.token).api;
    expect(await client.refusal(theirs.orgs.getOrganizationById(organizationId))).toBe(404);
    expect(await client.refusal(theirs.spaces.getSpaceById(spaceId))).toBe(404);
    expect(await client.refusal(theirs.spaces.getPageById(spaceId, pageId))).toBe(404);
    expect(await client.refusal(theirs.orgs.searchOrganizationContent(organizationId, { query: 'walrus' }))).toBe(404);
    expect(await client.refusal(theirs.spaces.listUserPermissionsInSpace(spaceId))).toBe(404);
    expect(await client.refusal(theirs.orgs.getOpenApiSpecBySlug(organizationId, 'walrus'))).toBe(404);
  });
});
