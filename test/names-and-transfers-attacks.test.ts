import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testConfig, useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { insertSite } from './support/sites.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

/**
 * Names and ids kept apart, addresses that never change owner, transfers
 * that need the source organization's admin, and merging that needs its own
 * scope: each attack as an attacker would make it, with ordinary tokens and
 * an organization of their own, and the victim's side checked afterwards.
 */

const t = useTestApp();
const api = contentApi(() => t.app);
const PUBLIC_URL = testConfig('').publicUrl;

const v1 = (account: Account, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/v1${url}`, headers: account.headers, ...(payload ? { payload } : {}) });
const read = (url: string) => t.app.inject({ method: 'GET', url });

/** An ordinary user who makes an organization of their own through the API, as anyone may. */
async function attackerWithOrganization(account?: Account) {
  const attacker = account ?? (await t.factory.account());
  const created = await v1(attacker, 'POST', '/orgs', { title: 'Attacker Inc' });
  expect(created.statusCode, created.body).toBe(201);
  return { attacker, organizationId: created.json().id as string };
}

/** A published site of the organization with one page saying `words`. */
async function publishedSite(admin: Account, organizationId: string, words: string) {
  const created = await v1(admin, 'POST', `/orgs/${organizationId}/sites`, { title: 'Docs' });
  expect(created.statusCode, created.body).toBe(201);
  const site = created.json() as { id: string };
  const space = await api.createSpace(admin, organizationId, { title: 'Handbook' });
  await api.change(admin, space.id, [
    { operation: 'insert_page', title: 'Welcome', document: { markdown: `${words}\n` } },
  ]);
  const added = await v1(admin, 'POST', `/orgs/${organizationId}/sites/${site.id}/site-spaces`, { spaceId: space.id });
  expect(added.statusCode, added.body).toBe(201);
  const published = await v1(admin, 'POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
  expect(published.statusCode, published.body).toBe(200);
  return site;
}

const basenameOf = async (siteId: string) =>
  (await t.db.selectFrom('sites').select('basename').where('id', '=', siteId).executeTakeFirstOrThrow()).basename;

describe('a site’s address', () => {
  it('cannot be another site’s id: the victim’s /s/{id} keeps serving the victim', async () => {
    const victim = await t.factory.team();
    const victimSite = await publishedSite(victim.admin, victim.organization.id, 'The victim’s own words.');
    const { attacker, organizationId } = await attackerWithOrganization();
    const attackerSite = await publishedSite(attacker, organizationId, 'Pay here: evil.example');

    for (const basename of [victimSite.id, victimSite.id.toLowerCase(), victimSite.id.toUpperCase()]) {
      const res = await v1(attacker, 'PATCH', `/orgs/${organizationId}/sites/${attackerSite.id}`, { basename });
      expect(res.statusCode, basename).toBe(400);
      expect(res.json()).toEqual({
        error: {
          code: 400,
          message: `body/basename: "${basename}" looks like a site id (20 letters and digits); add a hyphen or change its length`,
        },
      });
    }
    expect(await basenameOf(attackerSite.id)).toBeNull();
    const page = await read(`/s/${victimSite.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('The victim’s own words.');
    expect(page.body).not.toContain('evil.example');
  });

  it('a name in the id format reads the site with that id only, even if a row still has it as a basename', async () => {
    const victim = await t.factory.team();
    const victimSite = await publishedSite(victim.admin, victim.organization.id, 'Victim content.');
    const { attacker, organizationId } = await attackerWithOrganization();
    const attackerSite = await publishedSite(attacker, organizationId, 'Attacker content.');
    // As a database from before the rule could hold it.
    await t.db
      .updateTable('sites')
      .set({ basename: victimSite.id.toLowerCase() })
      .where('id', '=', attackerSite.id)
      .execute();

    expect((await read(`/s/${victimSite.id}`)).body).toContain('Victim content.');
    expect((await read(`/s/${victimSite.id.toLowerCase()}`)).statusCode).toBe(404);
  });

  it('stays its organization’s when the site takes another: others get a 409, readers are sent on', async () => {
    const victim = await t.factory.team();
    const victimSite = await publishedSite(victim.admin, victim.organization.id, 'Trusted content.');
    const renamed = async (basename: string) => {
      const res = await v1(victim.admin, 'PATCH', `/orgs/${victim.organization.id}/sites/${victimSite.id}`, {
        basename,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    await renamed('acme-docs');
    const moved = await renamed('acme-handbook');
    expectSpecResponse('updateSiteById', 200, moved);
    expect(moved.urls.published).toBe(`${PUBLIC_URL}/s/acme-handbook`);

    const { attacker, organizationId } = await attackerWithOrganization();
    const attackerSite = await publishedSite(attacker, organizationId, 'Pay here: evil.example');
    for (const basename of ['acme-docs', 'ACME-Docs']) {
      const res = await v1(attacker, 'PATCH', `/orgs/${organizationId}/sites/${attackerSite.id}`, { basename });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        error: { code: 409, message: `body/basename: "${basename}" was another organization’s published address` },
      });
    }
    expect(await basenameOf(attackerSite.id)).toBeNull();

    // The old address leads to the site's current one, with the rest of the path and the query.
    const old = await read('/s/ACME-docs/welcome?lang=en');
    expect(old.statusCode).toBe(302);
    expect(old.headers.location).toBe(`${PUBLIC_URL}/s/acme-handbook/welcome?lang=en`);
    expect((await read('/s/acme-docs')).headers.location).toBe(`${PUBLIC_URL}/s/acme-handbook`);
    expect((await read('/s/acme-handbook')).body).toContain('Trusted content.');

    // Unpublished, the site is nobody's to find: the old address is a 404, not a pointer to it.
    expect(
      (await v1(victim.admin, 'POST', `/orgs/${victim.organization.id}/sites/${victimSite.id}/unpublish`)).statusCode,
    ).toBe(200);
    expect((await read('/s/acme-docs')).statusCode).toBe(404);
  });

  it('stays its organization’s when the site is deleted; the organization may take it again', async () => {
    const victim = await t.factory.team();
    const first = await publishedSite(victim.admin, victim.organization.id, 'First site.');
    const patch = (siteId: string, basename: string, as: Account = victim.admin, org = victim.organization.id) =>
      v1(as, 'PATCH', `/orgs/${org}/sites/${siteId}`, { basename });
    expect((await patch(first.id, 'victim-docs')).statusCode).toBe(200);
    expect((await v1(victim.admin, 'DELETE', `/orgs/${victim.organization.id}/sites/${first.id}`)).statusCode).toBe(
      205,
    );
    expect((await read('/s/victim-docs')).statusCode).toBe(404);

    const { attacker, organizationId } = await attackerWithOrganization();
    const attackerSite = await publishedSite(attacker, organizationId, 'Impostor.');
    const refused = await patch(attackerSite.id, 'victim-docs', attacker, organizationId);
    expect(refused.statusCode).toBe(409);
    expect((await read('/s/victim-docs')).statusCode).toBe(404);

    // The owner reuses it for a new site: live again, and no longer retired.
    const second = await publishedSite(victim.admin, victim.organization.id, 'Second site.');
    expect((await patch(second.id, 'Victim-Docs')).statusCode).toBe(200);
    expect((await read('/s/victim-docs')).body).toContain('Second site.');
    const retired = await t.db
      .selectFrom('retired_site_addresses')
      .selectAll()
      .where('basename', '=', 'victim-docs')
      .execute();
    expect(retired).toEqual([]);
  });

  it('an attacker who rushes to the name a site is giving up still gets a 409', async () => {
    const victim = await t.factory.team();
    const victimSite = await publishedSite(victim.admin, victim.organization.id, 'Victim.');
    const { attacker, organizationId } = await attackerWithOrganization();
    const attackerSite = await publishedSite(attacker, organizationId, 'Attacker.');
    const patch = (as: Account, org: string, siteId: string, basename: string) =>
      v1(as, 'PATCH', `/orgs/${org}/sites/${siteId}`, { basename });
    expect((await patch(victim.admin, victim.organization.id, victimSite.id, 'contested')).statusCode).toBe(200);

    const [renamed, grabbed] = await Promise.all([
      patch(victim.admin, victim.organization.id, victimSite.id, 'contested-2'),
      patch(attacker, organizationId, attackerSite.id, 'contested'),
    ]);
    expect(renamed.statusCode).toBe(200);
    expect(grabbed.statusCode).toBe(409);
    expect(await basenameOf(attackerSite.id)).toBeNull();
    expect((await read('/s/contested')).headers.location).toBe(`${PUBLIC_URL}/s/contested-2`);
  });

  it('the migration takes an id-like basename from its site and keeps it as the site’s retired address', async () => {
    const victim = await t.factory.team();
    const victimSite = await insertSite(t.db, victim.organization.id, { published: true });
    const { organizationId } = await attackerWithOrganization();
    const squatter = await insertSite(t.db, organizationId, { published: true });
    const idLike = await insertSite(t.db, organizationId, { published: true });
    await t.db.updateTable('sites').set({ basename: victimSite.id }).where('id', '=', squatter.id).execute();
    await t.db.updateTable('sites').set({ basename: 'AbCdEfGhIjKlMnOpQrSt' }).where('id', '=', idLike.id).execute();

    // The migration's own statements, as they ran on databases that held such names.
    const migration = readFileSync(
      new URL('../migrations/1767312000000_retired_site_addresses.sql', import.meta.url),
      'utf8',
    );
    const up = migration.slice(migration.indexOf('INSERT INTO retired_site_addresses'), migration.indexOf('-- Down'));
    for (const statement of up.split(';').filter((text) => text.trim() !== '')) await sql.raw(statement).execute(t.db);

    expect(await basenameOf(squatter.id)).toBeNull();
    expect(await basenameOf(idLike.id)).toBeNull();
    const retired = await t.db
      .selectFrom('retired_site_addresses')
      .select(['organization_id', 'basename', 'site_id'])
      .where('organization_id', '=', organizationId)
      .orderBy('basename')
      .execute();
    expect(retired).toEqual(
      [
        { organization_id: organizationId, basename: victimSite.id.toLowerCase(), site_id: squatter.id },
        { organization_id: organizationId, basename: 'abcdefghijklmnopqrst', site_id: idLike.id },
      ].sort((a, b) => a.basename.localeCompare(b.basename)),
    );
    // The victim's id names the victim's site; the other old name leads to its site.
    expect((await read(`/s/${victimSite.id}`)).statusCode).not.toBe(302);
    expect((await read('/s/AbCdEfGhIjKlMnOpQrSt')).headers.location).toBe(`${PUBLIC_URL}/s/${idLike.id}`);
  });
});

describe('an integration’s name', () => {
  const integration = (organization: string, title: string) => ({
    title,
    description: 'Syncs things',
    script: 'export default {}',
    organization,
    visibility: 'public',
  });
  const publish = (account: Account, organization: string, title: string) =>
    v1(account, 'POST', '/integrations/acme-sync', integration(organization, title));

  it('stays its organization’s once unpublished: another organization cannot publish under it', async () => {
    const victim = await t.factory.team();
    expect((await publish(victim.admin, victim.organization.id, 'Acme Sync')).statusCode).toBe(200);
    expect((await v1(victim.admin, 'DELETE', '/integrations/acme-sync')).statusCode).toBe(204);

    const { attacker, organizationId } = await attackerWithOrganization();
    const squatted = await publish(attacker, organizationId, 'Acme Sync');
    expect(squatted.statusCode).toBe(409);
    expect(squatted.json()).toEqual({
      error: { code: 409, message: 'The integration name "acme-sync" was another organization’s' },
    });
    expect(await t.db.selectFrom('integrations').select('id').where('name', '=', 'acme-sync').execute()).toEqual([]);
    expect((await v1(attacker, 'GET', '/integrations/acme-sync')).statusCode).toBe(404);

    // The owner publishes under it again.
    const again = await publish(victim.admin, victim.organization.id, 'Acme Sync 2');
    expect(again.statusCode, again.body).toBe(200);
    expectSpecResponse('publishIntegration', 200, again.json());
    expect(await t.db.selectFrom('retired_integration_names').selectAll().execute()).toEqual([]);
  });
});

describe('an organization’s hostname', () => {
  it('may not take the form of an id, which names organizations where either is asked for', async () => {
    // An id may happen to be in lower case and digits (one in a few tens of thousands): such a name would be one.
    const idLike = 'acmecorp0000000000ab';
    const { attacker, organizationId } = await attackerWithOrganization();

    const created = await v1(attacker, 'POST', '/orgs', { title: 'Impostor', hostname: idLike });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.message).toMatch(/^body\/hostname must match pattern/);
    const patched = await v1(attacker, 'PATCH', `/orgs/${organizationId}`, { hostname: idLike });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().error.message).toMatch(/^body\/hostname must match pattern/);
    const rows = await t.db.selectFrom('organizations').select('id').where('hostname', '=', idLike).execute();
    expect(rows).toEqual([]);
    // A hostname of other lengths is as it was.
    expect((await v1(attacker, 'PATCH', `/orgs/${organizationId}`, { hostname: 'attacker-docs' })).statusCode).toBe(
      200,
    );
  });
});

describe('transferring content out of an organization', () => {
  /** Organization A, a space in it with a page, and a guest and an editor of A each made admin of it. */
  async function grantedSpace() {
    const a = await t.factory.team([null, 'edit']);
    const space = await api.createSpace(a.admin, a.organization.id, { title: 'Crown jewels' });
    await api.change(a.admin, space.id, [{ operation: 'insert_page', title: 'Secrets', document: { markdown: 'x' } }]);
    for (const member of [a.member(null), a.member('edit')]) {
      const granted = await v1(a.admin, 'POST', `/spaces/${space.id}/permissions`, {
        role: 'admin',
        users: [member.user.id],
      });
      expect(granted.statusCode, granted.body).toBe(204);
    }
    return { a, space };
  }

  const organizationOf = async (table: 'spaces' | 'collections', id: string) =>
    (await t.db.selectFrom(table).select('organization_id').where('id', '=', id).executeTakeFirstOrThrow())
      .organization_id;

  it('needs more than a grant of admin on the space: a guest or editor cannot take it to their organization', async () => {
    const { a, space } = await grantedSpace();
    for (const member of [a.member(null), a.member('edit')]) {
      const { attacker, organizationId } = await attackerWithOrganization(member);
      const res = await v1(attacker, 'POST', `/spaces/${space.id}/transfer`, { organization: organizationId });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: { code: 403, message: 'Transferring out of an organization needs the admin role in it' },
      });
      const pages = await api.read(a.admin, `/v1/spaces/${space.id}/content/pages`);
      expect(pages.statusCode).toBe(200);
      expect(pages.json().pages.map((page: { title: string }) => page.title)).toEqual(['Secrets']);
    }
    expect(await organizationOf('spaces', space.id)).toBe(a.organization.id);
  });

  it('needs more than a grant of admin on the collection, whether to a user or to their team', async () => {
    const a = await t.factory.team([null]);
    const collection = await api.createCollection(a.admin, a.organization.id, { title: 'Vault' });
    const inside = await api.createSpace(a.admin, a.organization.id, { title: 'Inside', parent: collection.id });
    const guest = a.member(null);
    const granted = await v1(a.admin, 'POST', `/collections/${collection.id}/permissions`, {
      role: 'admin',
      users: [guest.user.id],
    });
    expect(granted.statusCode, granted.body).toBe(204);
    const { attacker, organizationId } = await attackerWithOrganization(guest);

    const res = await v1(attacker, 'POST', `/collections/${collection.id}/transfer`, { organization: organizationId });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: { code: 403, message: 'Transferring out of an organization needs the admin role in it' },
    });
    expect(await organizationOf('collections', collection.id)).toBe(a.organization.id);
    expect(await organizationOf('spaces', inside.id)).toBe(a.organization.id);
    const ofSpace = await v1(attacker, 'POST', `/spaces/${inside.id}/transfer`, { organization: organizationId });
    expect(ofSpace.statusCode).toBe(403);
    expect(await organizationOf('spaces', inside.id)).toBe(a.organization.id);
  });

  it('is still the source organization’s admin’s to do', async () => {
    const { a, space } = await grantedSpace();
    const { organizationId } = await attackerWithOrganization(a.admin);
    const res = await v1(a.admin, 'POST', `/spaces/${space.id}/transfer`, { organization: organizationId });
    expect(res.statusCode, res.body).toBe(200);
    expectSpecResponse('transferSpace', 200, res.json());
    expect(await organizationOf('spaces', space.id)).toBe(organizationId);
  });
});

describe('merging a change request', () => {
  async function openChange() {
    const a = await t.factory.team();
    const space = await api.createSpace(a.admin, a.organization.id, { title: 'Guarded' });
    const id = await api.openChangeRequest(a.admin, space.id);
    const written = await api.writeContent(
      a.admin,
      space.id,
      id,
      [{ operation: 'insert_page', title: 'Proposal', document: { markdown: 'Unreviewed.' } }],
      { compat: 'false' },
    );
    expect(written.statusCode, written.body).toBe(200);
    return { a, space, id };
  }

  const revisionOf = async (spaceId: string) =>
    (await t.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow())
      .revision_id;

  it('needs change-request:merge: a token limited to space:write cannot merge, and nothing is merged', async () => {
    const { a, space, id } = await openChange();
    const before = await revisionOf(space.id);
    const writer = await t.factory.token(a.admin.user.id, { scopes: ['space:read', 'space:write'] });

    const res = await api.merge(writer, space.id, id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: { code: 403, message: 'This token lacks the "change-request:merge" scope this operation needs' },
    });
    expect(await revisionOf(space.id)).toBe(before);
    expect((await api.getChangeRequest(a.admin, space.id, id)).json().status).toBe('draft');
    expect((await api.read(a.admin, `/v1/spaces/${space.id}/content/pages`)).json().pages).toEqual([]);
  });

  it('merges with a token that has change-request:merge, as with one that has no scopes', async () => {
    const { a, space, id } = await openChange();
    const merger = await t.factory.token(a.admin.user.id, { scopes: ['change-request:merge'] });
    const res = await api.merge(merger, space.id, id);
    expect(res.statusCode, res.body).toBe(200);
    expectNewestSpecResponse('mergeChangeRequest', 200, res.json());
    expect(await revisionOf(space.id)).toBe(res.json().revision);
    expect((await api.getChangeRequest(a.admin, space.id, id)).json().status).toBe('merged');

    const second = await openChange();
    expect((await api.merge(second.a.admin, second.space.id, second.id)).json().result).toBe('merge');
  });
});
