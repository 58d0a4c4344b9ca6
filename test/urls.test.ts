import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let outsider: Team;
let space: { id: string; revision: string };
let pages: { intro: { id: string; path: string }; guide: { id: string; path: string } };

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
const call = (account: Account | undefined, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: account?.headers ?? {}, ...(payload ? { payload } : {}) });
const contentAt = (account: Account | undefined, url: string) =>
  call(account, 'GET', `/v1/urls/content?url=${encodeURIComponent(url)}`);
const published = (account: Account | undefined, payload: object) =>
  call(account, 'POST', '/v1/urls/published', payload);

const client = newestClientOf(() => t.app);

beforeAll(async () => {
  team = await t.factory.team(['read']);
  outsider = await t.factory.team();
  space = await api.createSpace(team.admin, team.organization.id, { title: 'Handbook' });
  await api.change(team.admin, space.id, [
    { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Welcome.' } },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: '## Setup\n\nThe guide.' } },
  ]);
  const tree = (await api.read(team.admin, `/v1/spaces/${space.id}/content/pages`)).json().pages as Array<{
    id: string;
    path: string;
  }>;
  pages = { intro: tree[0]!, guide: tree[1]! };
});

/** A site publishing the team's space, published, with the given visibility. */
async function publishedSite(visibility = 'public') {
  const org = `/v1/orgs/${team.organization.id}`;
  const created = await call(team.admin, 'POST', `${org}/sites`, { title: 'Acme Docs', visibility });
  expect(created.statusCode, created.body).toBe(201);
  const siteId = (created.json() as { id: string }).id;
  const added = await call(team.admin, 'POST', `${org}/sites/${siteId}/site-spaces`, { spaceId: space.id });
  expect(added.statusCode, added.body).toBe(201);
  expect((await call(team.admin, 'POST', `${org}/sites/${siteId}/publish`)).statusCode).toBe(200);
  return { siteId, siteSpaceId: (added.json() as { id: string }).id, org: `${org}/sites/${siteId}` };
}

const NOT_FOUND = { error: { code: 404, message: 'No content you can read at this URL' } };

describe('getContentByUrl', () => {
  it('resolves the app’s addresses of a space, its pages and a collection, as the spec answers', async () => {
    const base = `${PUBLIC_URL}/app/o/${team.organization.id}/s/${space.id}`;
    const ofSpace = await contentAt(team.admin, base);
    expect(ofSpace.statusCode, ofSpace.body).toBe(200);
    expect(ofSpace.json()).toEqual({ space: expect.objectContaining({ object: 'space', id: space.id }) });
    expectNewestSpecResponse('getContentByUrl', 200, ofSpace.json());

    const ofPage = await contentAt(team.member('read'), `${base}/${pages.guide.path}#setup`);
    expect(ofPage.statusCode, ofPage.body).toBe(200);
    expect(ofPage.json()).toMatchObject({
      space: { id: space.id, permissions: expect.objectContaining({ edit: false }) },
      page: { id: pages.guide.id, title: 'Guide', path: pages.guide.path, type: 'document' },
    });
    expectNewestSpecResponse('getContentByUrl', 200, ofPage.json());

    const byId = await contentAt(team.admin, `${base}/~/page/${pages.intro.id}`);
    expect(byId.json()).toMatchObject({ space: { id: space.id }, page: { id: pages.intro.id, title: 'Intro' } });

    const collection = await api.createCollection(team.admin, team.organization.id, { title: 'Guides' });
    const ofCollection = await contentAt(team.admin, `${PUBLIC_URL}/app/o/${team.organization.id}/c/${collection.id}`);
    expect(ofCollection.json()).toEqual({
      collection: expect.objectContaining({ id: collection.id, title: 'Guides' }),
    });
    expectNewestSpecResponse('getContentByUrl', 200, ofCollection.json());

    // Through the newest official client, as a tool would ask.
    const { data } = await (await client(team.admin)).urls.getContentByUrl({ url: `${base}/${pages.intro.path}` });
    expect(data).toMatchObject({ space: { id: space.id }, page: { id: pages.intro.id } });
  });

  it('resolves a change request’s address, by its number, with its page, for members with a role', async () => {
    const changeRequestId = await api.openChangeRequest(team.admin, space.id, 'Rewrite the guide');
    const number = (await api.getChangeRequest(team.admin, space.id, changeRequestId)).json().number as number;
    const address = `${PUBLIC_URL}/app/o/${team.organization.id}/s/${space.id}/change-requests/${number}/${pages.guide.path}`;
    const res = await contentAt(team.admin, address);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      space: { id: space.id },
      changeRequest: { id: changeRequestId, number, subject: 'Rewrite the guide' },
      page: { id: pages.guide.id },
    });
    expectNewestSpecResponse('getContentByUrl', 200, res.json());
    // A member of another organization sees nothing there, as for an unknown change request.
    expect((await contentAt(outsider.admin, address)).statusCode).toBe(404);
  });

  it('resolves a published site’s address to its space and page for a caller who may read the space', async () => {
    const { siteId } = await publishedSite();
    const res = await contentAt(team.member('read'), `${PUBLIC_URL}/s/${siteId}/${pages.guide.path}?utm=x`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ space: { id: space.id }, page: { id: pages.guide.id } });
    expectNewestSpecResponse('getContentByUrl', 200, res.json());
    // The site's home is the space's first page.
    const home = await contentAt(team.admin, `${PUBLIC_URL}/s/${siteId}`);
    expect(home.json()).toMatchObject({ page: { id: pages.intro.id } });
    // The space is private: a caller outside the organization may read the site, not the space through the API.
    expect((await contentAt(outsider.admin, `${PUBLIC_URL}/s/${siteId}/${pages.guide.path}`)).statusCode).toBe(404);
  });

  it('answers 404 for what the caller may not read, exactly as for nothing at all', async () => {
    const base = `${PUBLIC_URL}/app/o/${team.organization.id}/s/${space.id}`;
    const attempts = [
      base,
      `${base}/${pages.guide.path}`,
      `${base}/~/page/${pages.guide.id}`,
      // The attacker's own organization in the address changes nothing.
      `${PUBLIC_URL}/app/o/${outsider.organization.id}/s/${space.id}`,
    ];
    for (const url of attempts) {
      const res = await contentAt(outsider.admin, url);
      expect(res.statusCode, url).toBe(404);
    }
    // A space of ours named under another organization's address is not there either.
    const ownSpaceElsewhere = await contentAt(
      team.admin,
      `${PUBLIC_URL}/app/o/${outsider.organization.id}/s/${space.id}`,
    );
    expect(ownSpaceElsewhere.json()).toEqual(NOT_FOUND);
    for (const url of [
      `${base}/no-such-page`,
      `${PUBLIC_URL}/app/o/${team.organization.id}/s/AAAAAAAAAAAAAAAAAAAA`,
      `${PUBLIC_URL}/elsewhere/page`,
      'https://example.com/app/o/x/s/y',
      `${PUBLIC_URL}/s/no-such-site/page`,
    ]) {
      const res = await contentAt(team.admin, url);
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('refuses what is not an http(s) address, an address over 2048 characters, and a token without space:read', async () => {
    for (const url of ['not a url', 'ftp://docs.test/app', 'javascript:alert(1)']) {
      const res = await contentAt(team.admin, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.message).toMatch(/url must be/);
    }
    const long = await contentAt(team.admin, `${PUBLIC_URL}/${'a'.repeat(2048)}`);
    expect(long.statusCode).toBe(400);
    expect((await call(team.admin, 'GET', '/v1/urls/content')).statusCode).toBe(400);
    expect((await contentAt(undefined, `${PUBLIC_URL}/app`)).statusCode).toBe(401);
    const narrow = await t.factory.token(team.admin.user.id, { scopes: ['site:read'] });
    expect((await contentAt(narrow, `${PUBLIC_URL}/app/o/${team.organization.id}/s/${space.id}`)).statusCode).toBe(403);
  });
});

describe('resolvePublishedContentByUrl and getPublishedContentByUrl', () => {
  it('resolve a public site’s address to its site, site space, space and page path, as the spec answers', async () => {
    const { siteId, siteSpaceId } = await publishedSite();
    const url = `${PUBLIC_URL}/s/${siteId}/${pages.guide.path}`;
    const res = await published(outsider.admin, { url });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      site: siteId,
      siteSpace: siteSpaceId,
      space: space.id,
      revision: expect.any(String),
      pathname: pages.guide.path,
      basePath: `/s/${siteId}/`,
      siteBasePath: `/s/${siteId}/`,
      apiToken: '',
      organization: team.organization.id,
      complete: true,
      // The canonical address names the site space, which the address could leave out as the default.
      canonicalUrl: `${PUBLIC_URL}/s/${siteId}/handbook/${pages.guide.path}`,
      preview: false,
    });
    expectNewestSpecResponse('resolvePublishedContentByUrl', 200, res.json());

    const viaGet = await call(outsider.admin, 'GET', `/v1/urls/published?url=${encodeURIComponent(url)}`);
    expect(viaGet.json()).toEqual(res.json());
    expectNewestSpecResponse('getPublishedContentByUrl', 200, viaGet.json());

    const { data } = await (await client(outsider.admin)).urls.resolvePublishedContentByUrl({ url });
    expect(data).toMatchObject({ site: siteId, space: space.id, pathname: pages.guide.path });
  });

  it('answer a path no page answers with the site’s redirect, and 404 where there is none', async () => {
    const { siteId, org } = await publishedSite();
    const made = await call(team.admin, 'POST', `${org}/redirects`, {
      source: '/old-guide',
      destination: { kind: 'external', url: 'https://example.com/guide' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await published(team.admin, { url: `${PUBLIC_URL}/s/${siteId}/old-guide` });
    expect(res.json()).toEqual({ target: 'external', site: siteId, redirect: 'https://example.com/guide' });
    expectNewestSpecResponse('resolvePublishedContentByUrl', 200, res.json());

    const inside = await call(team.admin, 'POST', `${org}/redirects`, {
      source: '/start',
      destination: { kind: 'path', spaceId: space.id, path: pages.guide.path },
    });
    expect(inside.statusCode, inside.body).toBe(201);
    const toContent = await published(team.admin, { url: `${PUBLIC_URL}/s/${siteId}/start` });
    // The reader's own address of a page by its ids, which leads on to the page's path.
    expect(toContent.json()).toEqual({
      target: 'content',
      redirect: `${PUBLIC_URL}/s/${siteId}/~/go/${space.id}/${pages.guide.id}`,
    });
    expectNewestSpecResponse('resolvePublishedContentByUrl', 200, toContent.json());
    // That address leads on to the page's own, as the reader sends a visitor there.
    const onward = await published(team.admin, { url: toContent.json().redirect as string });
    expect(onward.json()).toEqual({
      target: 'content',
      redirect: `${PUBLIC_URL}/s/${siteId}/handbook/${pages.guide.path}`,
    });
    const goNowhere = await published(team.admin, { url: `${PUBLIC_URL}/s/${siteId}/~/go/${space.id}/nope` });
    expect(goNowhere.statusCode).toBe(404);

    const none = await published(team.admin, { url: `${PUBLIC_URL}/s/${siteId}/nowhere` });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ error: { code: 404, message: 'No published content found for the URL' } });
  });

  it('open a share-link site only with an active link’s key in the address', async () => {
    const { siteId, org } = await publishedSite('share-link');
    const url = `${PUBLIC_URL}/s/${siteId}/${pages.intro.path}`;
    expect((await published(team.admin, { url })).statusCode).toBe(404);
    expect((await published(team.admin, { url: `${url}?share=${'x'.repeat(24)}` })).statusCode).toBe(404);
    const link = await call(team.admin, 'POST', `${org}/share-links`, { name: 'Partners' });
    const key = new URL(link.json().urls.published as string).searchParams.get('share')!;
    const res = await published(outsider.admin, { url: `${url}?share=${key}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ site: siteId, shareKey: key, pathname: pages.intro.path });
    expectNewestSpecResponse('resolvePublishedContentByUrl', 200, res.json());
  });

  it('open a visitor-auth site only to a token signed with its key, and name its sign-in on request', async () => {
    const { siteId, org } = await publishedSite('visitor-auth');
    const auth = await call(team.admin, 'PATCH', `${org}/publishing/auth`, {
      backend: 'custom',
      fallbackURL: 'https://login.example.com/docs',
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const sign = (secret: string) =>
      new SignJWT({ plan: 'pro' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(secret));
    const url = `${PUBLIC_URL}/s/${siteId}/${pages.guide.path}`;

    expect((await published(team.admin, { url })).statusCode).toBe(404);
    const forged = await published(team.admin, { url, visitor: { jwtToken: await sign('not the key') } });
    expect(forged.statusCode).toBe(404);
    const toSignIn = await published(team.admin, { url, redirectOnError: true });
    expect(toSignIn.json()).toEqual({
      target: 'external',
      site: siteId,
      redirect: `https://login.example.com/docs?location=${encodeURIComponent(url)}`,
    });
    expectNewestSpecResponse('resolvePublishedContentByUrl', 200, toSignIn.json());

    const token = await sign(auth.json().privateKey as string);
    const admitted = await published(team.admin, { url, visitor: { jwtToken: token, unsignedClaims: { beta: true } } });
    expect(admitted.statusCode, admitted.body).toBe(200);
    expect(admitted.json()).toMatchObject({ site: siteId, space: space.id, pathname: pages.guide.path });
    expectNewestSpecResponse('resolvePublishedContentByUrl', 200, admitted.json());
    const query = `url=${encodeURIComponent(url)}&visitorAuthToken=${token}`;
    expect((await call(team.admin, 'GET', `/v1/urls/published?${query}`)).json()).toEqual(admitted.json());
    // In the address, as the reader takes it.
    expect((await published(team.admin, { url: `${url}?jwt_token=${token}` })).json()).toEqual(admitted.json());
  });

  it('resolve an address at a site’s proven hostname, and nothing at a claim still pending', async () => {
    const { siteId, siteSpaceId } = await publishedSite();
    const claim = (status: 'pending' | 'live') =>
      t.db
        .updateTable('sites')
        .set({
          hostname: 'docs.acme.test',
          hostname_token: 'quire-site-verification=x',
          hostname_status: status,
          hostname_verified_at: status === 'live' ? new Date() : null,
        })
        .where('id', '=', siteId)
        .execute();
    await claim('pending');
    await t.app.context.siteHostnames.refresh();
    const url = `https://docs.acme.test/${pages.guide.path}`;
    expect((await published(outsider.admin, { url })).statusCode).toBe(404);

    await claim('live');
    await t.app.context.siteHostnames.refresh();
    try {
      const res = await published(outsider.admin, { url });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        site: siteId,
        siteSpace: siteSpaceId,
        pathname: pages.guide.path,
        basePath: '/',
        siteBasePath: '/',
        // With PUBLIC_URL's scheme, as the site's addresses are made.
        canonicalUrl: `http://docs.acme.test/handbook/${pages.guide.path}`,
      });
      expectNewestSpecResponse('resolvePublishedContentByUrl', 200, res.json());
      // The service's own paths are not the site's there.
      expect((await published(outsider.admin, { url: 'https://docs.acme.test/v1/orgs' })).statusCode).toBe(404);
      const content = await contentAt(team.admin, url);
      expect(content.json()).toMatchObject({ space: { id: space.id }, page: { id: pages.guide.id } });
    } finally {
      await t.db
        .updateTable('sites')
        .set({ hostname: null, hostname_token: null, hostname_status: null, hostname_verified_at: null })
        .where('id', '=', siteId)
        .execute();
      await t.app.context.siteHostnames.refresh();
    }
  });

  it('lead from a basename a site gave up to where it is read now', async () => {
    const { siteId, org } = await publishedSite();
    const rename = (basename: string) => call(team.admin, 'PATCH', org, { basename });
    expect((await rename(`old-${siteId.toLowerCase()}`)).statusCode).toBe(200);
    expect((await rename(`new-${siteId.toLowerCase()}`)).statusCode).toBe(200);
    const res = await published(outsider.admin, { url: `${PUBLIC_URL}/s/old-${siteId.toLowerCase()}/guide` });
    expect(res.json()).toEqual({ target: 'content', redirect: `${PUBLIC_URL}/s/new-${siteId.toLowerCase()}/guide` });
    expectNewestSpecResponse('resolvePublishedContentByUrl', 200, res.json());
    const now = await published(outsider.admin, { url: `${PUBLIC_URL}/s/new-${siteId.toLowerCase()}/guide` });
    expect(now.json()).toMatchObject({ site: siteId, siteBasePath: `/s/new-${siteId.toLowerCase()}/` });
  });

  it('show nothing of an unpublished site, not even to its admins', async () => {
    const created = await call(team.admin, 'POST', `/v1/orgs/${team.organization.id}/sites`, { title: 'Draft' });
    const siteId = (created.json() as { id: string }).id;
    await call(team.admin, 'POST', `/v1/orgs/${team.organization.id}/sites/${siteId}/site-spaces`, {
      spaceId: space.id,
    });
    expect((await published(team.admin, { url: `${PUBLIC_URL}/s/${siteId}` })).statusCode).toBe(404);
  });

  it('refuse bad input with a 400 and a missing token with a 401', async () => {
    const cases: Array<[object, RegExp]> = [
      [{}, /body\/url is required/],
      [{ url: 'not a url' }, /body\/url must match format "uri"/],
      [{ url: `${PUBLIC_URL}/s/x`, extra: 1 }, /body\/extra is not an accepted field/],
      [{ url: `${PUBLIC_URL}/s/x`, visitor: { jwtToken: 'x'.repeat(8193) } }, /jwtToken/],
      [{ url: `${PUBLIC_URL}/s/x`, visitor: { type: 'robot' } }, /visitor\/type/],
    ];
    for (const [payload, message] of cases) {
      const res = await published(team.admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await published(undefined, { url: `${PUBLIC_URL}/s/x` })).statusCode).toBe(401);
  });
});
