import { beforeAll, describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from './support/app.js';
import { newestClientOf } from './support/client.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse } from './support/spec.js';

const t = useTestApp();
const api = contentApi(() => t.app);
const PUBLIC_URL = testConfig('').publicUrl;

type Team = Awaited<ReturnType<typeof t.factory.team>>;
let team: Team;
let admin: Account;
let outsider: Team;

beforeAll(async () => {
  team = await t.factory.team(['edit', 'read']);
  admin = team.admin;
  outsider = await t.factory.team();
});

const client = newestClientOf(() => t.app);

const sitePath = (siteId: string, organizationId = team.organization.id) =>
  `/v1/orgs/${organizationId}/sites/${siteId}`;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (account: Account | undefined, method: Method, url: string, payload?: object, headers = {}) =>
  t.app.inject({ method, url, headers: { ...(account?.headers ?? {}), ...headers }, ...(payload ? { payload } : {}) });

const linkRows = (siteId: string) =>
  t.db
    .selectFrom('site_external_links')
    .select(['id', 'title', 'url', 'group_id', 'draft', 'position'])
    .where('site_id', '=', siteId)
    .orderBy('position')
    .execute();

/** A published site with two sections (`Guides`, `API`), each publishing a space of one page. */
async function sectionedSite(owner: Team = team) {
  const organizationId = owner.organization.id;
  const created = await call(owner.admin, 'POST', `/v1/orgs/${organizationId}/sites`, { title: 'Acme Docs' });
  expect(created.statusCode, created.body).toBe(201);
  const siteId = (created.json() as { id: string }).id;
  const sections: string[] = [];
  for (const title of ['Guides', 'API']) {
    const space = await api.createSpace(owner.admin, organizationId, { title });
    await api.change(owner.admin, space.id, [
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: `${title} intro.` } },
    ]);
    const section = await call(owner.admin, 'POST', `${sitePath(siteId, organizationId)}/sections`, {
      spaceId: space.id,
      title,
    });
    expect(section.statusCode, section.body).toBe(201);
    sections.push((section.json() as { id: string }).id);
  }
  const published = await call(owner.admin, 'POST', `${sitePath(siteId, organizationId)}/publish`);
  expect(published.statusCode, published.body).toBe(200);
  return { siteId, sections };
}

type Item = { object: string; id: string; children?: Item[] };
const structureOf = async (siteId: string, account: Account = admin) => {
  const res = await call(account, 'GET', `${sitePath(siteId)}/structure`);
  expect(res.statusCode, res.body).toBe(200);
  expectNewestSpecResponse('getSiteStructure', 200, res.json());
  return res.json() as { type: string; structure: Item[] };
};
const shape = (items: Item[]): unknown[] =>
  items.map((item) => (item.children ? { [item.id]: shape(item.children) } : `${item.object}:${item.id}`));

describe('site external links', () => {
  it('are added at the root of a sectioned site and shown after its sections, as the spec answers', async () => {
    const { siteId, sections } = await sectionedSite();
    const added = await call(admin, 'POST', `${sitePath(siteId)}/external-links`, {
      title: 'Status',
      url: 'https://status.example.com/',
      description: 'Service status',
      localizedTitle: { fr: 'État' },
      icon: 'signal',
    });
    expect(added.statusCode, added.body).toBe(201);
    expectNewestSpecResponse('addExternalLinkToSite', 201, added.json());
    const link = added.json();
    expect(link).toEqual({
      object: 'site-external-link',
      id: expect.any(String),
      title: 'Status',
      localizedTitle: { fr: 'État' },
      description: 'Service status',
      icon: 'signal',
      url: 'https://status.example.com/',
      draft: false,
    });
    expect(added.headers.location).toBe(`${PUBLIC_URL}${sitePath(siteId)}/external-links/${link.id}`);

    const structure = await structureOf(siteId, team.member('read'));
    expect(structure.type).toBe('sections');
    expect(shape(structure.structure)).toEqual([
      `site-section:${sections[0]}`,
      `site-section:${sections[1]}`,
      `site-external-link:${link.id}`,
    ]);
    expect(structure.structure[2]).toEqual(link);

    const published = await call(admin, 'GET', `${sitePath(siteId)}/published`);
    expect(published.statusCode).toBe(200);
    expectNewestSpecResponse('getPublishedContentSite', 200, published.json());
    expect(published.json().structure.structure[2]).toEqual(link);
  });

  it('go into a section group, move between groups and the root, and leave a deleted group for the root', async () => {
    const { siteId, sections } = await sectionedSite();
    const group = await call(admin, 'POST', `${sitePath(siteId)}/section-groups`, {
      title: 'More',
      sections: [sections[1]],
    });
    expect(group.statusCode, group.body).toBe(201);
    const groupId = group.json().id as string;
    const added = await call(admin, 'POST', `${sitePath(siteId)}/external-links`, {
      title: 'Blog',
      url: 'https://blog.example',
      parent: groupId,
    });
    expect(added.statusCode, added.body).toBe(201);
    const linkId = added.json().id as string;
    expect(added.json().sectionGroup).toBe(groupId);
    expect(shape((await structureOf(siteId)).structure)).toEqual([
      `site-section:${sections[0]}`,
      { [groupId]: [`site-section:${sections[1]}`, `site-external-link:${linkId}`] },
    ]);

    const toRoot = await call(admin, 'PATCH', `${sitePath(siteId)}/external-links/${linkId}`, { parent: null });
    expect(toRoot.statusCode, toRoot.body).toBe(200);
    expectNewestSpecResponse('updateSiteExternalLinkById', 200, toRoot.json());
    expect(toRoot.json()).not.toHaveProperty('sectionGroup');
    expect(shape((await structureOf(siteId)).structure)).toEqual([
      `site-section:${sections[0]}`,
      { [groupId]: [`site-section:${sections[1]}`] },
      `site-external-link:${linkId}`,
    ]);

    const back = await call(admin, 'PATCH', `${sitePath(siteId)}/external-links/${linkId}`, { parent: groupId });
    expect(back.json().sectionGroup).toBe(groupId);
    const dissolved = await call(admin, 'DELETE', `${sitePath(siteId)}/section-groups/${groupId}`);
    expect(dissolved.statusCode, dissolved.body).toBeLessThan(300);
    expect(shape((await structureOf(siteId)).structure)).toEqual([
      `site-section:${sections[0]}`,
      `site-section:${sections[1]}`,
      `site-external-link:${linkId}`,
    ]);
    expect((await linkRows(siteId)).map((row) => row.group_id)).toEqual([null]);
  });

  it('are ordered among sections and groups by sortSiteStructure', async () => {
    const { siteId, sections } = await sectionedSite();
    const added = await call(admin, 'POST', `${sitePath(siteId)}/external-links`, {
      title: 'Status',
      url: 'https://status.example.com',
    });
    const linkId = added.json().id as string;
    const sorted = await call(admin, 'PATCH', `${sitePath(siteId)}/structure/sort`, {
      item: { type: 'site-external-link', id: linkId },
      position: { before: { type: 'site-section', id: sections[1] } },
    });
    expect(sorted.statusCode, sorted.body).toBe(200);
    expectNewestSpecResponse('sortSiteStructure', 200, sorted.json());
    expect(sorted.json()).toEqual(added.json());
    expect(shape((await structureOf(siteId)).structure)).toEqual([
      `site-section:${sections[0]}`,
      `site-external-link:${linkId}`,
      `site-section:${sections[1]}`,
    ]);
    // A section moves beside a link as beside any sibling.
    const section = await call(admin, 'PATCH', `${sitePath(siteId)}/structure/sort`, {
      item: { type: 'site-section', id: sections[0] },
      position: { after: { type: 'site-external-link', id: linkId } },
    });
    expect(section.statusCode, section.body).toBe(200);
    expect(shape((await structureOf(siteId)).structure)).toEqual([
      `site-external-link:${linkId}`,
      `site-section:${sections[0]}`,
      `site-section:${sections[1]}`,
    ]);
    // A link never goes among site spaces, and an unknown one is named.
    const siteSpaceId = (await call(admin, 'GET', `${sitePath(siteId)}/site-spaces`)).json().items[0].id;
    const among = await call(admin, 'PATCH', `${sitePath(siteId)}/structure/sort`, {
      item: { type: 'site-external-link', id: linkId },
      position: { after: { type: 'site-space', id: siteSpaceId } },
    });
    expect(among.statusCode).toBe(400);
    expect(among.json().error.message).toContain('not a site-space');
    const unknown = await call(admin, 'PATCH', `${sitePath(siteId)}/structure/sort`, {
      item: { type: 'site-external-link', id: 'nolink' },
      position: {},
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe('body/item: the site has no site-external-link "nolink"');
  });

  it('are changed and deleted by admins: 200, 204 with Prefer: return=minimal, then 205 and 204', async () => {
    const { siteId } = await sectionedSite();
    const linkId = (
      await call(admin, 'POST', `${sitePath(siteId)}/external-links`, {
        title: 'Status',
        url: 'https://status.example.com',
        description: 'Up or down',
      })
    ).json().id as string;
    const changed = await call(admin, 'PATCH', `${sitePath(siteId)}/external-links/${linkId}`, {
      title: 'Service status',
      description: null,
      url: 'http://status.example.org/now',
      draft: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({
      object: 'site-external-link',
      id: linkId,
      title: 'Service status',
      url: 'http://status.example.org/now',
      draft: true,
    });
    const minimal = await call(
      admin,
      'PATCH',
      `${sitePath(siteId)}/external-links/${linkId}`,
      { icon: 'signal' },
      { prefer: 'return=minimal' },
    );
    expect(minimal.statusCode).toBe(204);
    expect(minimal.headers['preference-applied']).toBe('return=minimal');
    expect(minimal.body).toBe('');
    expect(await linkRows(siteId)).toEqual([
      {
        id: linkId,
        title: 'Service status',
        url: 'http://status.example.org/now',
        group_id: null,
        draft: true,
        position: 2,
      },
    ]);

    expect((await call(admin, 'DELETE', `${sitePath(siteId)}/external-links/${linkId}`)).statusCode).toBe(205);
    expect((await call(admin, 'DELETE', `${sitePath(siteId)}/external-links/${linkId}`)).statusCode).toBe(204);
    expect(await linkRows(siteId)).toEqual([]);
    const gone = await call(admin, 'PATCH', `${sitePath(siteId)}/external-links/${linkId}`, { title: 'Again' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: { code: 404, message: 'No external link with this id in the site' } });
  });

  it('refuse bad input with a 400 naming it, and store nothing', async () => {
    const { siteId } = await sectionedSite();
    const cases: Array<[object, string]> = [
      [{ title: 'Status', url: 'javascript:alert(1)' }, 'body/url must be an absolute http or https address'],
      [{ title: 'Status', url: 'ftp://files.example.com' }, 'body/url must be an absolute http or https address'],
      [{ title: 'Status', url: '/relative' }, 'body/url'],
      [{ title: 'S', url: 'https://example.com' }, 'body/title'],
      [{ url: 'https://example.com' }, 'body/title is required'],
      [
        { title: 'Status', url: 'https://example.com', parent: 'nogroup' },
        'body/parent: the site has no section group',
      ],
      [{ title: 'Status', url: 'https://example.com', localizedTitle: { xx: 'Nope' } }, 'body/localizedTitle'],
      [{ title: 'Status', url: 'https://example.com', condition: 'visitor.claims.unknown' }, 'body/condition'],
      [{ title: 'Status', url: 'https://example.com', target: '_blank' }, 'body/target is not an accepted field'],
      [{ title: 'Status', url: `https://example.com/${'a'.repeat(2048)}` }, 'body/url'],
    ];
    for (const [body, message] of cases) {
      const res = await call(admin, 'POST', `${sitePath(siteId)}/external-links`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message, JSON.stringify(body)).toContain(message);
    }
    expect(await linkRows(siteId)).toEqual([]);

    // A site without sections has nothing for a link to sit beside.
    const plain = await call(admin, 'POST', `/v1/orgs/${team.organization.id}/sites`, { title: 'Plain' });
    const plainId = plain.json().id as string;
    const refused = await call(admin, 'POST', `${sitePath(plainId)}/external-links`, {
      title: 'Status',
      url: 'https://status.example.com',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('without sections');
    expect(await linkRows(plainId)).toEqual([]);
  });

  it('are written by admins only, and are another organization’s 404', async () => {
    const { siteId } = await sectionedSite();
    const body = { title: 'Status', url: 'https://status.example.com' };
    const editor = await call(team.member('edit'), 'POST', `${sitePath(siteId)}/external-links`, body);
    expect(editor.statusCode).toBe(403);
    expect(await linkRows(siteId)).toEqual([]);
    const linkId = (await call(admin, 'POST', `${sitePath(siteId)}/external-links`, body)).json().id as string;

    // An admin of another organization: through the site's organization, and through their own.
    const theirs = await sectionedSite(outsider);
    for (const url of [
      `${sitePath(siteId)}/external-links/${linkId}`,
      `${sitePath(theirs.siteId, outsider.organization.id)}/external-links/${linkId}`,
    ]) {
      const changed = await call(outsider.admin, 'PATCH', url, { title: 'Hijacked' });
      expect(changed.statusCode, url).toBe(404);
      const deleted = await call(outsider.admin, 'DELETE', url);
      // Their own site answers as for a link it does not have; the other organization's site is not there.
      expect(deleted.statusCode, url).toBe(url.includes(theirs.siteId) ? 204 : 404);
    }
    expect(await call(outsider.admin, 'POST', `${sitePath(siteId)}/external-links`, body)).toMatchObject({
      statusCode: 404,
    });
    expect((await linkRows(siteId)).map((row) => row.title)).toEqual(['Status']);
    expect((await call(undefined, 'DELETE', `${sitePath(siteId)}/external-links/${linkId}`)).statusCode).toBe(401);
  });

  it('leave drafts out of what visitors are shown, and show the others in the reader as outside links', async () => {
    const { siteId } = await sectionedSite();
    const shown = await call(admin, 'POST', `${sitePath(siteId)}/external-links`, {
      title: 'Status page',
      url: 'https://status.example.com/?a=1&b=2',
    });
    const draft = await call(admin, 'POST', `${sitePath(siteId)}/external-links`, {
      title: 'Secret roadmap',
      url: 'https://roadmap.example.com',
      draft: true,
    });
    expect(draft.json().draft).toBe(true);
    const ids = (items: Item[]) => items.map((item) => item.id);
    expect(ids((await structureOf(siteId)).structure)).toContain(draft.json().id);
    const published = (await call(admin, 'GET', `${sitePath(siteId)}/published`)).json();
    expect(ids(published.structure.structure)).toContain(shown.json().id);
    expect(ids(published.structure.structure)).not.toContain(draft.json().id);

    const page = await t.app.inject({ method: 'GET', url: `/s/${siteId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      '<a href="https://status.example.com/?a=1&#x26;b=2" rel="external nofollow noopener noreferrer" target="_blank">Status page</a>',
    );
    expect(page.body).not.toContain('Secret roadmap');
    expect(page.body).not.toContain('roadmap.example.com');
  });
});

describe('the newest official client', () => {
  it('adds, changes, sorts and deletes an external link', async () => {
    const { siteId, sections } = await sectionedSite();
    const gitbook = await client(admin);
    const organizationId = team.organization.id;
    const added = await gitbook.orgs.addExternalLinkToSite(organizationId, siteId, {
      title: 'Status',
      url: 'https://status.example.com',
    });
    expect(added.status).toBe(201);
    const changed = await gitbook.orgs.updateSiteExternalLinkById(organizationId, siteId, added.data.id, {
      title: 'Service status',
    });
    expect(changed.data.title).toBe('Service status');
    const sorted = await gitbook.orgs.sortSiteStructure(organizationId, siteId, {
      item: { type: 'site-external-link', id: added.data.id },
      position: { after: { type: 'site-section', id: sections[0]! } },
    });
    expect(sorted.data).toMatchObject({ object: 'site-external-link', id: added.data.id });
    const deleted = await gitbook.orgs.deleteSiteExternalLinkById(organizationId, siteId, added.data.id);
    expect(deleted.status).toBe(205);
  });
});
