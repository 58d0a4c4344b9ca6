import { GitBookAPIError } from '@gitbook/api';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/app.js';
import { newId } from '../src/core/ids.js';
import type { Scope } from '../src/access/scopes.js';
import { listen, useTestApp } from './support/app.js';
import { officialClient } from './support/client.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';

/**
 * Who may call each site route, checked on every route of the route table:
 * a route under /v1/orgs/:organizationId/sites that is not in EXPECTED fails
 * the first test, so a new route has to say who may call it.
 */

const t = useTestApp();

const SITE_ROUTES = '/v1/orgs/:organizationId/sites';

/**
 * `read`: members of any role; `admin-read`: admins only, for what carries
 * secrets (share-link keys, the visitor-token key); `write`: admins only;
 * `published`: members, and anyone else where the site is open to visitors.
 * Guests and non-members get 404 on all but `published`.
 */
type Access = 'read' | 'admin-read' | 'write' | 'published';

/** A site with something behind every path parameter of the site routes. */
interface Fixture {
  organizationId: string;
  siteId: string;
  /** In the group `siteSectionGroupId`, with two site spaces: `otherSiteSpace`, then `siteSpaceId`. */
  siteSectionId: string;
  /** At the root, before the group. */
  otherSection: string;
  siteSectionGroupId: string;
  siteSpaceId: string;
  otherSiteSpace: string;
  /** An active share link, and its key. */
  shareLinkId: string;
  shareKey: string;
  /** The key of a share link that was turned off. */
  inactiveShareKey: string;
  /** A space of the organization the site does not publish. */
  spareSpaceId: string;
  /** A live redirect from `/old`. */
  siteRedirectId: string;
  /** An external link at the root of the navigation. */
  siteExternalLinkId: string;
  /** The reader, given `read` on the site, and a team of the editor's given `read` too. */
  userId: string;
  teamId: string;
}

interface Expectation {
  access: Access;
  /** The token scope the route must declare. */
  scope: Scope;
  /** What the admin gets. */
  status: number;
  body?: (fixture: Fixture) => object;
  /** The query a route needs beside a share key. */
  query?: Record<string, string>;
  /** The admin's write runs on a new site built with these options (default: public, published). */
  fresh?: Partial<SiteOptions>;
}

const read = (): Expectation => ({ access: 'read', scope: 'site:read', status: 200 });
const adminRead = (scope: Scope = 'site:read'): Expectation => ({ access: 'admin-read', scope, status: 200 });
const write = (status: number, body?: (fixture: Fixture) => object, scope: Scope = 'site:write'): Expectation => ({
  access: 'write',
  scope,
  status,
  ...(body ? { body } : {}),
});

const claimsSchema = (claim: string) => ({
  type: 'object',
  properties: { [claim]: { type: 'boolean', description: `Whether the visitor is ${claim}` } },
  additionalProperties: false,
});

/** The customization defaults, as the admin reads them: a valid body for the PUT. */
let customizationDefaults: Record<string, unknown>;

/**
 * Every site operation, by operationId. Each write's body would change the
 * fixture if it went through (the admin's call shows it does), so a refused
 * one that changes nothing was refused, not a no-op.
 */
const EXPECTED: Record<string, Expectation> = {
  listSites: read(),
  createSite: write(201, () => ({ title: 'Another site' })),
  getSiteById: read(),
  updateSiteById: write(200, () => ({ title: 'Renamed site', visibility: 'public' })),
  deleteSiteById: write(205),
  publishSite: { ...write(200, undefined, 'site:publish'), fresh: { published: false } },
  unpublishSite: write(200, undefined, 'site:publish'),
  applyTemplateToSite: write(200),
  getPublishedContentSite: { access: 'published', scope: 'site:read', status: 200 },
  // Search of what the site publishes: for its audience, as the published site is.
  searchSiteContent: {
    access: 'published',
    scope: 'site:read',
    status: 200,
    body: () => ({ query: 'anything', scope: { mode: 'all' } }),
  },
  getSiteStructure: read(),
  sortSiteStructure: write(200, (f) => ({
    item: { type: 'site-section', id: f.otherSection },
    position: { after: { type: 'site-section-group', id: f.siteSectionGroupId } },
  })),

  listSiteSections: read(),
  addSectionToSite: write(201, (f) => ({ spaceId: f.spareSpaceId })),
  updateSiteSectionById: write(200, () => ({ title: 'Renamed section' })),
  deleteSiteSectionById: write(205),
  moveSiteSection: write(200, (f) => ({
    position: { after: { type: 'site-section', siteSection: f.otherSection } },
  })),

  listSiteSectionGroups: read(),
  addSectionGroupToSite: write(201, () => ({ title: 'Another group' })),
  updateSiteSectionGroupById: write(200, () => ({ title: 'Renamed group' })),
  deleteSiteSectionGroupById: write(205),
  addSectionToGroup: write(201, (f) => ({ sectionId: f.otherSection })),
  removeSectionFromGroup: write(205),
  moveSiteSectionGroup: write(200, (f) => ({
    position: { before: { type: 'site-section', id: f.otherSection } },
  })),

  listSiteSpaces: read(),
  addSpaceToSite: write(201, (f) => ({ spaceId: f.spareSpaceId, sectionId: f.otherSection })),
  updateSiteSpaceById: write(200, () => ({ path: 'renamed' })),

  inviteToSite: write(204, (f) => ({ role: 'admin', users: [f.userId] }), 'site:permissions:write'),
  listPermissionsAggregateInSite: { ...read(), scope: 'site:permissions:read' },
  listUserPermissionsInSite: { ...read(), scope: 'site:permissions:read' },
  listTeamPermissionsInSite: { ...read(), scope: 'site:permissions:read' },
  updateUserPermissionInSite: write(204, () => ({ role: 'admin' }), 'site:permissions:write'),
  removeUserFromSite: write(205, undefined, 'site:permissions:write'),
  updateTeamPermissionInSite: write(204, () => ({ role: 'admin' }), 'site:permissions:write'),
  removeTeamFromSite: write(205, undefined, 'site:permissions:write'),
  deleteSiteSpaceById: write(205),
  moveSiteSpace: write(200, (f) => ({
    position: { before: { type: 'site-space', siteSpace: f.otherSiteSpace } },
  })),
  getSiteSpaceCustomizationById: read(),
  overrideSiteSpaceCustomizationById: write(200, () => ({ title: 'Overridden', styling: { corners: 'straight' } })),
  deleteSiteSpaceCustomizationById: write(204),

  getSiteAdaptiveSchema: read(),
  updateSiteAdaptiveSchema: write(200, () => ({ jsonSchema: claimsSchema('isPartner') })),
  listSiteAdaptiveTemplateConditions: read(),

  getSiteCustomizationById: read(),
  updateSiteCustomizationById: write(200, () => ({ ...customizationDefaults, title: 'Customized' })),

  listSiteShareLinks: adminRead(),
  createSiteShareLink: write(201, () => ({ name: 'Another link' })),
  updateSiteShareLinkById: write(200, () => ({ active: false })),
  deleteSiteShareLinkById: write(205),

  getSitePublishingAuthById: adminRead('site:auth:read'),
  updateSitePublishingAuthById: write(
    200,
    () => ({ backend: 'custom', fallbackURL: 'https://example.com/sign-in' }),
    'site:auth:write',
  ),
  regenerateSitePublishingAuthById: write(200, undefined, 'site:auth:write'),

  // The Git Sync installations of the site's spaces name repositories and who set them up: admins only.
  listSiteGitSyncInstallations: adminRead(),

  // The integrations installed on the site and the scripts they inject: what its members see in the app.
  listSiteIntegrations: read(),
  listSiteIntegrationScripts: read(),

  // Redirects: members read them, admins write them, as the site's other settings.
  listSiteRedirects: read(),
  getSiteRedirectBySource: { ...read(), query: { source: '/old' } },
  createSiteRedirect: write(201, () => ({ source: '/new', destination: { kind: 'external', url: 'https://e.x/' } })),
  bulkUpsertSiteRedirects: write(200, () => ({
    redirects: [{ source: '/bulk', destination: { kind: 'external', url: 'https://e.x/' } }],
  })),
  updateSiteRedirectById: write(200, () => ({ permanent: true })),
  deleteSiteRedirectById: write(205),

  // External links are part of the structure: admins write them, members read them there.
  addExternalLinkToSite: write(201, () => ({ title: 'Another link', url: 'https://e.x/' })),
  updateSiteExternalLinkById: write(200, () => ({ title: 'Renamed link' })),
  deleteSiteExternalLinkById: write(205),
  // A preview shows what the site would publish: its members see that already.
  getSitePublishingPreviewById: read(),
  // Warming the search is for whoever may search the site.
  prewarmSiteSearch: { access: 'published', scope: 'site:search', status: 204 },
  duplicateSiteSpace: write(201, () => ({})),

  // Insights: members read them (with the insights scope); admins report events through the API.
  aggregateSiteEvents: {
    access: 'read',
    scope: 'site:insights:read',
    status: 200,
    body: () => ({ range: 'last7Days' }),
  },
  listSiteVisitorSegments: { access: 'read', scope: 'site:insights:read', status: 200 },
  trackEventsInSiteById: write(204, () => ({
    events: [
      {
        type: 'page_view',
        session: { visitorId: 'v', sessionId: 's', cookies: {}, userAgent: 'test', language: null, referrer: null },
        location: {
          url: 'https://docs.example/page',
          siteSection: null,
          siteSpace: null,
          siteShareKey: null,
          space: null,
          revision: null,
          page: null,
        },
      },
    ],
  })),
};

/** The site operations GitBook added after the reference spec (0.143.2): their answers follow the newest one. */
const NEWER_OPERATIONS = new Set([
  'aggregateSiteEvents',
  'listSiteVisitorSegments',
  'trackEventsInSiteById',
  'listSiteGitSyncInstallations',
  'listSiteIntegrations',
  'listSiteIntegrationScripts',
  'listSiteRedirects',
  'getSiteRedirectBySource',
  'createSiteRedirect',
  'bulkUpsertSiteRedirects',
  'updateSiteRedirectById',
  'deleteSiteRedirectById',
  'addExternalLinkToSite',
  'updateSiteExternalLinkById',
  'deleteSiteExternalLinkById',
  'getSitePublishingPreviewById',
  'prewarmSiteSearch',
  'duplicateSiteSpace',
  'inviteToSite',
  'listPermissionsAggregateInSite',
  'listUserPermissionsInSite',
  'listTeamPermissionsInSite',
  'updateUserPermissionInSite',
  'removeUserFromSite',
  'updateTeamPermissionInSite',
  'removeTeamFromSite',
]);

/** The fixture's site has an external link, in its structure: only the newest spec describes one. */
const WITH_EXTERNAL_LINKS = new Set(['getSiteStructure', 'getPublishedContentSite']);

function expectSiteResponse(operationId: string, status: number, body: unknown): void {
  const newest = NEWER_OPERATIONS.has(operationId) || WITH_EXTERNAL_LINKS.has(operationId);
  (newest ? expectNewestSpecResponse : expectSpecResponse)(operationId, status, body);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface SiteRoute {
  method: Method;
  url: string;
  operationId: string;
  scope: string | undefined;
}

const keyOf = (route: RouteEntry) => route.operationId ?? `${route.method} ${route.url}`;

/** Every route of the app under the sites of an organization, in the order they were registered. */
function allSiteRoutes(): SiteRoute[] {
  return t.app.routeTable
    .filter((route) => route.url === SITE_ROUTES || route.url.startsWith(`${SITE_ROUTES}/`))
    .map((route) => ({
      method: route.method as Method,
      url: route.url,
      operationId: keyOf(route),
      scope: route.scope,
    }));
}

/** The site routes EXPECTED knows; the first test fails on any other. */
const siteRoutes = () => allSiteRoutes().filter((route) => route.operationId in EXPECTED);
const expectationOf = (route: SiteRoute) => EXPECTED[route.operationId]!;
/** POSTs that only read: a search takes its query in a body. */
const READS_BY_POST = new Set(['searchSiteContent', 'aggregateSiteEvents', 'prewarmSiteSearch']);
const isWrite = (route: SiteRoute) => route.method !== 'GET' && !READS_BY_POST.has(route.operationId);

let shareKeyRoutes: Set<string> | undefined;
/** Whether the route's own query schema takes a `shareKey`: only those are sent one (others refuse unknown fields). */
function acceptsShareKey(route: SiteRoute): boolean {
  if (!shareKeyRoutes) {
    const document = t.app.swagger() as {
      paths: Record<string, Record<string, { operationId?: string; parameters?: Array<{ in: string; name: string }> }>>;
    };
    shareKeyRoutes = new Set(
      Object.values(document.paths).flatMap((operations) =>
        Object.values(operations)
          .filter((operation) => operation.parameters?.some((p) => p.in === 'query' && p.name === 'shareKey'))
          .map((operation) => operation.operationId ?? ''),
      ),
    );
  }
  return shareKeyRoutes.has(route.operationId);
}

function urlOf(route: SiteRoute, values: Record<string, string>): string {
  return route.url.replace(/:(\w+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No fixture id for :${name} in ${route.method} ${route.url}`);
    return value;
  });
}

function send(
  account: Account | null,
  route: SiteRoute,
  fixture: Fixture,
  options: { shareKey?: string; values?: Record<string, string> } = {},
) {
  const body = expectationOf(route).body?.(fixture);
  const query: Record<string, string> = {
    ...expectationOf(route).query,
    ...(options.shareKey !== undefined && acceptsShareKey(route) ? { shareKey: options.shareKey } : {}),
  };
  return t.app.inject({
    method: route.method,
    url: urlOf(route, { ...fixture, ...options.values }),
    query,
    ...(account ? { headers: account.headers } : {}),
    ...(body ? { payload: body } : {}),
  });
}

// ---- The fixture, built through the API ----

let admin: Account;
let reader: Account;
let editor: Account;
let guest: Account;
let stranger: Account;
/** The admin's token, limited to a scope that covers no site route. */
let narrowToken: Account;
let organizationId: string;
let spaces: { first: string; second: string; third: string; spare: string };
let memberEmails: string[];
/** A team of the editor's, given `read` on every site built. */
let siteTeamId: string;

/** A published public site. */
let open: Fixture;
/** A published share-link site. */
let shared: Fixture;
/** A public site that is not published. */
let unpublished: Fixture;

interface SiteOptions {
  visibility: 'public' | 'unlisted' | 'share-link';
  published: boolean;
}

async function call<T>(
  method: Method,
  url: string,
  payload?: object,
  status = method === 'POST' ? 201 : 200,
): Promise<T> {
  const res = await t.app.inject({
    method,
    url: `/v1/orgs/${organizationId}${url}`,
    headers: admin.headers,
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json();
}

const keyIn = (link: { urls: { published: string } }) => new URL(link.urls.published).searchParams.get('share')!;

/**
 * A site with two sections, one of them in a group with two site spaces, the
 * other at the root with one; an adaptive schema; an active share link and
 * one turned off.
 */
async function buildSite({ visibility = 'public', published = true }: Partial<SiteOptions> = {}): Promise<Fixture> {
  const site = await call<{ id: string }>('POST', '/sites', { title: `A ${visibility} site`, visibility, spaces: [] });
  const sites = `/sites/${site.id}`;
  type Section = { id: string; siteSpaces: Array<{ id: string }> };
  const grouped = await call<Section>('POST', `${sites}/sections`, { spaceId: spaces.first });
  const other = await call<Section>('POST', `${sites}/sections`, { spaceId: spaces.second });
  const siteSpace = await call<{ id: string }>('POST', `${sites}/site-spaces`, {
    spaceId: spaces.third,
    sectionId: grouped.id,
  });
  const group = await call<{ id: string }>('POST', `${sites}/section-groups`, {
    title: 'Guides',
    sections: [grouped.id],
  });
  await call('PUT', `${sites}/adaptive-schema`, { jsonSchema: claimsSchema('isBetaUser') });
  const link = await call<{ id: string; urls: { published: string } }>('POST', `${sites}/share-links`, {
    name: 'Readers',
  });
  const revoked = await call<{ id: string; urls: { published: string } }>('POST', `${sites}/share-links`, {
    name: 'Revoked',
  });
  await call('PATCH', `${sites}/share-links/${revoked.id}`, { active: false });
  const redirect = await call<{ id: string }>('POST', `${sites}/redirects`, {
    source: '/old',
    destination: { kind: 'external', url: 'https://example.com/' },
  });
  const externalLink = await call<{ id: string }>('POST', `${sites}/external-links`, {
    title: 'Status',
    url: 'https://status.example.com/',
  });
  const granted = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}${sites}/permissions`,
    headers: admin.headers,
    payload: { role: 'read', users: [reader.user.id], teams: [siteTeamId] },
  });
  expect(granted.statusCode, granted.body).toBe(204);
  if (published) await call('POST', `${sites}/publish`, undefined, 200);
  return {
    organizationId,
    siteId: site.id,
    siteSectionId: grouped.id,
    otherSection: other.id,
    siteSectionGroupId: group.id,
    siteSpaceId: siteSpace.id,
    otherSiteSpace: grouped.siteSpaces[0]!.id,
    shareLinkId: link.id,
    shareKey: keyIn(link),
    inactiveShareKey: keyIn(revoked),
    spareSpaceId: spaces.spare,
    siteRedirectId: redirect.id,
    siteExternalLinkId: externalLink.id,
    userId: reader.user.id,
    teamId: siteTeamId,
  };
}

/**
 * Every row of the site tables in the organization, what a refused write must leave as it was: a digest
 * of each table's rows as text, in id order. One statement, where reading the rows took one per table
 * and a third of the file's time over its 1,300 snapshots.
 */
async function siteTables(): Promise<Tables> {
  const org = organizationId;
  const { rows } = await sql<Tables>`select
    (select md5(string_agg(r::text, ',' order by r.id)) from sites r where r.organization_id = ${org}) as sites,
    (select md5(string_agg(r::text, ',' order by r.id)) from site_insight_events r where r.organization_id = ${org}) as site_insight_events,
    (select md5(string_agg(r::text, ',' order by r.id)) from site_sections r where r.organization_id = ${org}) as site_sections,
    (select md5(string_agg(r::text, ',' order by r.id)) from site_section_groups r where r.organization_id = ${org}) as site_section_groups,
    (select md5(string_agg(r::text, ',' order by r.id)) from site_spaces r where r.organization_id = ${org}) as site_spaces,
    (select md5(string_agg(r::text, ',' order by r.id)) from site_share_links r where r.organization_id = ${org}) as site_share_links,
    (select md5(string_agg(r::text, ',' order by r.id)) from site_redirects r where r.organization_id = ${org}) as site_redirects,
    (select md5(string_agg(r::text, ',' order by r.id)) from site_external_links r where r.organization_id = ${org}) as site_external_links,
    (select md5(string_agg(r::text, ',' order by r.id)) from content_grants r
      where r.organization_id = ${org} and r.site_id is not null) as site_grants`.execute(t.db);
  return rows[0]!;
}

type Tables = Record<
  | 'sites'
  | 'site_insight_events'
  | 'site_sections'
  | 'site_section_groups'
  | 'site_spaces'
  | 'site_share_links'
  | 'site_redirects'
  | 'site_external_links'
  | 'site_grants',
  string | null
>;
const changedTables = (before: Tables, after: Tables) =>
  (Object.keys(before) as Array<keyof Tables>).filter((table) => before[table] !== after[table]);

beforeAll(async () => {
  const team = await t.factory.team(['read', 'edit', null]);
  ({ admin } = team);
  organizationId = team.organization.id;
  reader = team.member('read');
  editor = team.member('edit');
  guest = team.member(null);
  stranger = await t.factory.account();
  // The stranger is an admin elsewhere: that must open nothing here.
  await t.factory.organization(stranger.user.id);
  narrowToken = await t.factory.token(admin.user.id, { scopes: ['organization:read'] });
  memberEmails = [admin, reader, editor, guest].map((account) => account.user.email.toLowerCase());

  const space = async (title: string) => (await call<{ id: string }>('POST', '/spaces', { title })).id;
  spaces = {
    first: await space('Guides'),
    second: await space('Reference'),
    third: await space('Changelog'),
    spare: await space('Extra'),
  };
  siteTeamId = (await call<{ id: string }>('PUT', '/teams', { title: 'Site readers', members: [editor.user.id] }, 201))
    .id;
  open = await buildSite({ visibility: 'public' });
  shared = await buildSite({ visibility: 'share-link' });
  unpublished = await buildSite({ visibility: 'public', published: false });
  customizationDefaults = await call('GET', `/sites/${open.siteId}/customization`);
});

// ---- Checking a caller's answers ----

interface Check {
  /** Sent to the routes whose query takes one. */
  shareKey?: string;
  /** A 404 must be exactly what an organization and site that do not exist answer: it tells nothing. */
  sameAsUnknown?: boolean;
  /** No member's e-mail in a 200 body. */
  noMemberEmails?: boolean;
  /** What each 403 must say. */
  forbidden?: (route: SiteRoute) => string | RegExp;
}

/**
 * Sends every site route as `account` on `fixture` and compares the statuses
 * with `expected`, all at once so that one run shows every difference; 2xx
 * bodies must match the spec, and a write answered with an error must leave
 * the site tables as they were.
 */
async function expectAnswers(
  account: Account | null,
  fixture: Fixture,
  expected: (route: SiteRoute) => number,
  check: Check = {},
) {
  const answers: Record<string, number> = {};
  const wanted: Record<string, number> = {};
  const problems: string[] = [];
  for (const route of siteRoutes()) {
    const before = isWrite(route) ? await siteTables() : undefined;
    const res = await send(account, route, fixture, check);
    const name = route.operationId;
    answers[name] = res.statusCode;
    wanted[name] = expected(route);
    if (res.statusCode >= 400) {
      if (before) {
        const changed = changedTables(before, await siteTables());
        if (changed.length > 0) problems.push(`${name} answered ${res.statusCode} but changed ${changed.join(', ')}`);
      }
      const error = res.json<{ error?: { code: number; message: string } }>().error ?? { code: 0, message: '' };
      if (error.code !== res.statusCode) problems.push(`${name}: error body ${res.body}`);
      if (res.statusCode === 404 && check.sameAsUnknown) {
        const unknown = await send(account, route, fixture, {
          ...check,
          values: { organizationId: newId(), siteId: newId() },
        });
        if (unknown.body !== res.body)
          problems.push(`${name}: 404 says ${res.body}, for an unknown site ${unknown.body}`);
      }
      const forbidden = check.forbidden?.(route);
      if (res.statusCode === 403 && forbidden !== undefined && !error.message.match(forbidden)) {
        problems.push(`${name}: 403 says "${error.message}", not ${String(forbidden)}`);
      }
    } else if (res.statusCode < 300 && res.body !== '') {
      try {
        expectSiteResponse(name, res.statusCode, res.json());
      } catch (failure) {
        problems.push((failure as Error).message);
      }
      if (check.noMemberEmails) {
        for (const email of memberEmails)
          if (res.body.toLowerCase().includes(email)) problems.push(`${name} shows ${email}`);
      }
    }
  }
  expect({ answers, problems }).toEqual({ answers: wanted, problems: [] });
}

const memberAnswer = (route: SiteRoute) => {
  const { access } = expectationOf(route);
  return access === 'read' || access === 'published' ? expectationOf(route).status : 403;
};
/** Guests and non-members: the published side of a site open to them, nothing else. */
const visitorAnswer = (opened: boolean) => (route: SiteRoute) =>
  expectationOf(route).access === 'published' && opened ? expectationOf(route).status : 404;

/**
 * The routes of the organization's sites as a whole (listSites, createSite)
 * name no site, and a guest knows the organization: they get a 403 there, as
 * on the rosters of members and teams; every route that names a site is a 404.
 */
const GUEST_ON_ORGANIZATION_ROUTES = 403;
const guestAnswer = (opened: boolean) => (route: SiteRoute) =>
  route.url === SITE_ROUTES ? GUEST_ON_ORGANIZATION_ROUTES : visitorAnswer(opened)(route);

// ---- The tests ----

describe('the site routes', () => {
  it('are all in the table of who may call them, and the table names no route that is gone', () => {
    const names = allSiteRoutes().map((route) => route.operationId);
    expect(names.length).toBeGreaterThan(30);
    expect(
      names.filter((name) => !(name in EXPECTED)),
      'site routes missing from EXPECTED: decide who may call them',
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((name) => !names.includes(name)),
      'EXPECTED names operations that are not registered',
    ).toEqual([]);
    // The share-key cases below send the key where a route takes one: at least the published side must.
    expect(
      siteRoutes()
        .filter(acceptsShareKey)
        .map((route) => route.operationId),
    ).toContain('getPublishedContentSite');
  });

  it('each declare the scope the table gives them, reads a read scope and writes a write scope', () => {
    const declared = Object.fromEntries(siteRoutes().map((route) => [route.operationId, route.scope]));
    const wanted = Object.fromEntries(siteRoutes().map((route) => [route.operationId, expectationOf(route).scope]));
    expect(declared).toEqual(wanted);
    for (const route of siteRoutes()) {
      const { access, scope } = expectationOf(route);
      expect(access === 'write', `${route.operationId} is a ${route.method}`).toBe(isWrite(route));
      // Searching is reading, under a scope of its own.
      expect(scope.endsWith(':read') || scope === 'site:search', route.operationId).toBe(!isWrite(route));
    }
  });
});

describe('an admin of the organization', () => {
  it('reads every site route', async () => {
    const reads = siteRoutes().filter((route) => !isWrite(route));
    const answers: Record<string, number> = {};
    for (const route of reads) {
      const res = await send(admin, route, open);
      answers[route.operationId] = res.statusCode;
      if (res.statusCode === 200) expectSiteResponse(route.operationId, 200, res.json());
    }
    expect(answers).toEqual(Object.fromEntries(reads.map((route) => [route.operationId, expectationOf(route).status])));
  });

  it('makes every write, each on a site of its own, and each changes the site tables', async () => {
    const answers: Record<string, number> = {};
    const wanted: Record<string, number> = {};
    const unchanged: string[] = [];
    for (const route of siteRoutes().filter(isWrite)) {
      const expectation = expectationOf(route);
      // A throwaway site, so that a DELETE or a move leaves the shared fixture as it is.
      const fixture = route.url === SITE_ROUTES ? open : await buildSite(expectation.fresh);
      const before = await siteTables();
      const res = await send(admin, route, fixture);
      answers[route.operationId] = res.statusCode;
      wanted[route.operationId] = expectation.status;
      // applyTemplateToSite answers 200 with no body, as the spec has it.
      if ((res.statusCode === 200 || res.statusCode === 201) && res.body !== '')
        expectSiteResponse(route.operationId, res.statusCode, res.json());
      if (res.statusCode === 205) expect(res.body, route.operationId).toBe('');
      if (changedTables(before, await siteTables()).length === 0) unchanged.push(route.operationId);
    }
    expect({ answers, unchanged }).toEqual({ answers: wanted, unchanged: [] });
  });
});

describe.each([
  ['read', () => reader],
  ['edit', () => editor],
] as const)('a member with the %s role', (_role, member) => {
  it('reads the site routes but share links and visitor authentication (403), and every write is a 403 that changes nothing', async () => {
    await expectAnswers(member(), open, memberAnswer, {
      forbidden: () => /needs the admin role (in the organization|on it)$/,
    });
  });
});

describe('the admin’s token limited to organization:read', () => {
  it('gets 403 on every site route, naming the scope the route needs, and changes nothing', async () => {
    await expectAnswers(narrowToken, open, () => 403, {
      forbidden: (route) => `This token lacks the "${route.scope}" scope this operation needs`,
    });
  });
});

describe('a guest of the organization', () => {
  it('reads the published side of a published public site and gets 404 on everything else, changing nothing', async () => {
    await expectAnswers(guest, open, guestAnswer(true), { sameAsUnknown: true });
  });
});

describe('a non-member', () => {
  it('reads the published side of a published public site, sees no member’s e-mail, and gets 404 on everything else', async () => {
    await expectAnswers(stranger, open, visitorAnswer(true), { sameAsUnknown: true, noMemberEmails: true });
  });
});

describe('a share-link site', () => {
  it('opens its published side, and only that, to a non-member with an active link’s key', async () => {
    await expectAnswers(stranger, shared, visitorAnswer(true), {
      shareKey: shared.shareKey,
      sameAsUnknown: true,
      noMemberEmails: true,
    });
  });

  it('opens the same to a guest with the key', async () => {
    await expectAnswers(guest, shared, guestAnswer(true), { shareKey: shared.shareKey, sameAsUnknown: true });
  });

  it.each([
    ['a wrong key', () => 'not-a-share-key'],
    ['the key of a link turned off', () => shared.inactiveShareKey],
    ['the key of another site’s link', () => open.shareKey],
    ['no key', () => undefined],
  ])('is a 404 everywhere to a non-member with %s', async (_case, key) => {
    const shareKey = key();
    await expectAnswers(stranger, shared, visitorAnswer(false), {
      ...(shareKey === undefined ? {} : { shareKey }),
      sameAsUnknown: true,
    });
  });

  it('reads the same through the official client: with the key, and a 404 without', async () => {
    const client = officialClient(await listen(t.app), stranger.token);
    const { data } = await client.orgs.getPublishedContentSite(organizationId, shared.siteId, {
      shareKey: shared.shareKey,
    });
    expect(data.site.id).toBe(shared.siteId);
    const refused = await client.orgs
      .getPublishedContentSite(organizationId, shared.siteId)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GitBookAPIError);
    expect((refused as GitBookAPIError).code).toBe(404);
  });
});

describe('an unpublished site', () => {
  it('is a 404 everywhere to a non-member, its published side included', async () => {
    await expectAnswers(stranger, unpublished, visitorAnswer(false), { sameAsUnknown: true });
  });

  it('is a 404 everywhere to a guest, its published side included', async () => {
    await expectAnswers(guest, unpublished, guestAnswer(false), { sameAsUnknown: true });
  });

  it('shows members its published side ahead of publishing', async () => {
    const route = siteRoutes().find((candidate) => candidate.operationId === 'getPublishedContentSite')!;
    const res = await send(reader, route, unpublished);
    expect(res.statusCode, res.body).toBe(200);
    expectSiteResponse('getPublishedContentSite', 200, res.json());
  });
});

describe('a request without a token', () => {
  it('gets 401 on every site route and changes nothing', async () => {
    await expectAnswers(null, open, () => 401);
  });
});
