import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/app.js';
import { SCOPES, type Scope } from '../src/access/scopes.js';
import { useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';

const t = useTestApp();

/**
 * The scope a route needs follows from its path: the resource it acts on.
 * The first rule that matches the path names the scope's domain, the scope
 * without its last part (`organization:members` of
 * `organization:members:write`). GitBook's scopes have no `collection:*`:
 * collections hold spaces, and go with them.
 */
const DOMAIN_RULES: Array<{ path: RegExp; domain: string }> = [
  { path: /^\/v1\/users?(?:\/|$)/, domain: 'user' },
  // The API's root says which release answers: read with the caller's own token, as their profile is.
  { path: /^\/v1\/$/, domain: 'user' },
  { path: /^\/v1\/integrations\/[^/]+\/installations(?:\/|$)/, domain: 'integration:installations' },
  { path: /^\/v1\/integrations(?:\/|$)/, domain: 'integration' },
  { path: /^\/v1\/orgs\/[^/]+\/sites\/[^/]+\/publishing\/auth(?:\/|$)/, domain: 'site:auth' },
  { path: /^\/v1\/orgs\/[^/]+\/sites\/[^/]+\/insights(?:\/|$)/, domain: 'site:insights' },
  { path: /^\/v1\/orgs\/[^/]+\/sites\/[^/]+\/permissions(?:\/|$)/, domain: 'site:permissions' },
  { path: /^\/v1\/orgs\/[^/]+\/sites(?:\/|$)/, domain: 'site' },
  { path: /^\/v1\/custom-hostnames(?:\/|$)/, domain: 'site' },
  { path: /^\/v1\/orgs\/[^/]+\/openapi(?:\/|$)/, domain: 'openapi' },
  { path: /^\/v1\/(?:spaces|collections)\/[^/]+\/permissions(?:\/|$)/, domain: 'space:permissions' },
  { path: /^\/v1\/(?:spaces|collections)(?:\/|$)/, domain: 'space' },
  // A Git Sync installation is its space's link to a repository.
  { path: /^\/v1\/git\/installations(?:\/|$)/, domain: 'space' },
  { path: /^\/v1\/orgs\/[^/]+\/(?:spaces|collections)$/, domain: 'space' },
  // An import run writes into a space (GitBook's own scopes for them are space:read and space:write).
  { path: /^\/v1\/org\/[^/]+\/imports(?:\/|$)/, domain: 'space' },
  {
    path: /^\/v1\/orgs\/[^/]+\/(?:members|teams|invites|link-invites|email-invites)(?:\/|$)/,
    domain: 'organization:members',
  },
  { path: /^\/v1\/(?:orgs|email-domains)(?:\/|$)/, domain: 'organization' },
  // A subdomain is an organization's hostname.
  { path: /^\/v1\/subdomains(?:\/|$)/, domain: 'organization' },
  // An address resolves to a space's content, or an embed of it.
  { path: /^\/v1\/urls(?:\/|$)/, domain: 'space' },
];

/** Routes whose scope is not the one their path suggests, and why. */
const DOMAIN_EXCEPTIONS: Record<string, { scope: Scope; why: string }> = {
  'POST /v1/orgs/:organizationId/sites/:siteId/insights/events': {
    scope: 'site:write',
    why: 'tracking writes events into the site’s insights; the API names only a read scope for insights',
  },
  'GET /v1/orgs/:organizationId/link-invites/:inviteId': {
    scope: 'organization:read',
    why: 'read by whoever was given the invite, to see what it offers: they manage no members',
  },
  'POST /v1/orgs/:organizationId/invites/:inviteId': {
    scope: 'organization:read',
    why: 'the caller joins with the invite’s secret; they manage no members',
  },
  'GET /v1/orgs/:organizationId/email-invites/:invitationId': {
    scope: 'organization:read',
    why: 'read by the holder of the accept link, to see what it offers (a token is optional): they manage no members',
  },
  'POST /v1/orgs/:organizationId/email-invites/:invitationId/accept': {
    scope: 'organization:read',
    why: 'the caller joins with the invitation’s secret (a token is optional); they manage no members',
  },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/merge': {
    scope: 'change-request:merge',
    why: 'GitBook’s own scope for merging: writing a change request is not the power to merge it',
  },
  'POST /v1/orgs/:organizationId/storage/upload': {
    scope: 'space:write',
    why: 'the uploaded bytes become files of spaces in a later content write: uploading them is writing content',
  },
  'GET /v1/orgs/:organizationId/search': {
    scope: 'space:read',
    why: 'searches the content of the spaces the caller may read, as reading each of them would',
  },
  'GET /v1/orgs/:organizationId/change-requests': {
    scope: 'space:read',
    why: 'lists the change requests of the spaces the caller may read, as reading each space would',
  },
  'GET /v1/orgs/:organizationId/integrations': {
    scope: 'integration:read',
    why: 'the integrations installed in the organization: reading integrations, not managing the organization',
  },
  'GET /v1/orgs/:organizationId/integrations/:integrationName/installation_status': {
    scope: 'integration:read',
    why: 'an integration’s installation in the organization, as its integration reads show it',
  },
  'GET /v1/orgs/:organizationId/integrations/installations-status': {
    scope: 'integration:read',
    why: 'the organization’s installations of integrations, as the integration reads show them',
  },
  'GET /v1/orgs/:organizationId/installations': {
    scope: 'integration:read',
    why: 'the integrations installed on the organization, with their installations, as the integration reads show them',
  },
  'GET /v1/integrations/:integrationName/spaces': {
    scope: 'integration:installations:read',
    why: 'where an integration is installed: its installations, read by its publisher',
  },
  'GET /v1/integrations/:integrationName/sites': {
    scope: 'integration:installations:read',
    why: 'where an integration is installed: its installations, read by its publisher',
  },
  'POST /v1/integrations/:integrationName/installations/:installationId/tokens': {
    scope: 'integration:publish',
    why: 'only the integration’s publisher makes a token to act as one of its installations',
  },
  'GET /v1/urls/published': {
    scope: 'site:read',
    why: 'resolves a published site’s address as its reader does for a visitor: reading a site',
  },
  'POST /v1/urls/published': {
    scope: 'site:read',
    why: 'resolves a published site’s address as its reader does for a visitor: reading a site',
  },
};

/** Routes that are not GET and still need only a `:read` scope, and why. */
const READS_BY_OTHER_METHODS: Record<string, { scope: Scope; why: string }> = {
  'POST /v1/spaces/:spaceId/content/computed/document': {
    scope: 'space:read',
    why: 'computes content from a source without writing it, sent as POST to carry the source in a body',
  },
  'POST /v1/spaces/:spaceId/content/computed/revision': {
    scope: 'space:read',
    why: 'computes content from a source without writing it, sent as POST to carry the source in a body',
  },
  'POST /v1/orgs/:organizationId/ping': {
    scope: 'organization:read',
    why: 'records when the caller last used the organization: their own activity, nothing of the organization',
  },
  'POST /v1/orgs/:organizationId/invites/:inviteId': {
    scope: 'organization:read',
    why: 'joining with an invite, see DOMAIN_EXCEPTIONS',
  },
  'POST /v1/orgs/:organizationId/email-invites/:invitationId/accept': {
    scope: 'organization:read',
    why: 'accepting an invitation, see DOMAIN_EXCEPTIONS',
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/insights/events/aggregate': {
    scope: 'site:insights:read',
    why: 'a query of the site’s insights, sent as POST to carry it in a body',
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/search': {
    scope: 'site:read',
    why: 'a search, sent as POST to carry its query in a body',
  },
  'POST /v1/integrations/:integrationName/render': {
    scope: 'integration:read',
    why: 'renders an integration’s UI for the caller, sent as POST to carry the render request in a body',
  },
  'POST /v1/urls/published': {
    scope: 'site:read',
    why: 'resolves an address, sent as POST to carry the visitor’s token and claims in a body',
  },
};

/** Scopes no route needs: the features they name are not served, or are served under a broader scope. */
const UNUSED_SCOPES: Record<string, string> = {
  'organization:ask': 'no AI answers',
  'organization:search': 'organization search needs space:read, as reading the spaces would',
  'site:ask': 'no AI answers',
};

const key = (route: RouteEntry) => `${route.method} ${route.url}`;
const domainOf = (scope: string) => scope.slice(0, scope.lastIndexOf(':'));
/** The scope that admits what `scope` does and more: a `:read` scope's `:write`. */
const wider = (scope: Scope): string | undefined =>
  scope.endsWith(':read') ? `${scope.slice(0, -':read'.length)}:write` : undefined;

let routes: Array<RouteEntry & { scope: Scope }>;

beforeAll(() => {
  const v1 = t.app.routeTable.filter((route) => route.url.startsWith('/v1/'));
  for (const route of v1) expect(route.scope, key(route)).not.toBeUndefined();
  routes = v1 as typeof routes;
});

describe('the scopes routes declare', () => {
  it('cover every /v1 route, each with a scope of the GitBook API', () => {
    expect(routes.length).toBeGreaterThan(150);
    // A route may declare `none` (any valid token); none does today, and adding one should be a decision.
    for (const route of routes) expect(SCOPES, key(route)).toContain(route.scope);
  });

  it('ask a read scope only of GET routes, but for the listed exceptions', () => {
    const readsByOtherMethods = routes
      .filter((route) => route.scope.endsWith(':read') && route.method !== 'GET')
      .map((route) => [key(route), route.scope]);
    expect(Object.fromEntries(readsByOtherMethods)).toEqual(
      Object.fromEntries(Object.entries(READS_BY_OTHER_METHODS).map(([route, { scope }]) => [route, scope])),
    );
  });

  it('name the resource the route acts on, but for the listed exceptions', () => {
    const mismatches: Record<string, string> = {};
    for (const route of routes) {
      const rule = DOMAIN_RULES.find(({ path }) => path.test(route.url));
      expect(rule, `${key(route)} matches a domain rule`).toBeDefined();
      if (domainOf(route.scope) !== rule!.domain) mismatches[key(route)] = route.scope;
    }
    expect(mismatches).toEqual(
      Object.fromEntries(Object.entries(DOMAIN_EXCEPTIONS).map(([route, { scope }]) => [route, scope])),
    );
  });

  it('use every scope of the API but the listed ones', () => {
    const used = new Set(routes.map((route) => route.scope));
    expect(SCOPES.filter((scope) => !used.has(scope)).sort()).toEqual(Object.keys(UNUSED_SCOPES).sort());
  });
});

describe('a token limited to scopes', () => {
  const tokens = new Map<string, Account>();
  const tokenWith = async (scopes: string[]) => {
    const id = [...scopes].sort().join(' ');
    if (!tokens.has(id)) tokens.set(id, await t.factory.token(user, { scopes }));
    return tokens.get(id)!;
  };
  let user: string;

  beforeAll(async () => {
    user = (await t.factory.user()).id;
  });

  /** A request to the route with made-up ids: the scope is checked first, before the ids are looked at. */
  const call = (route: RouteEntry, account: Account) =>
    t.app.inject({
      method: route.method as 'GET',
      url: route.url.replace(/:[A-Za-z]+/g, 'x0000000000000000000').replace('*', 'a'),
      headers: account.headers,
    });

  const lacksScope = (scope: string) => ({
    error: { code: 403, message: `This token lacks the "${scope}" scope this operation needs` },
  });

  it('is let through by every route that needs exactly its scope, or the narrower read of it', async () => {
    const refused: string[] = [];
    for (const route of routes) {
      const admitting = [route.scope, wider(route.scope)].filter((scope) => scope !== undefined);
      for (const scope of admitting) {
        const res = await call(route, await tokenWith([scope]));
        if (res.statusCode === 401 || res.statusCode === 403) refused.push(`${key(route)} with ${scope}: ${res.body}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('is refused by every route that needs a scope it lacks, whatever else it has', async () => {
    const admitted: string[] = [];
    for (const route of routes) {
      const admitting = new Set([route.scope, wider(route.scope)]);
      const res = await call(route, await tokenWith(SCOPES.filter((scope) => !admitting.has(scope))));
      if (res.statusCode !== 403 || JSON.stringify(res.json()) !== JSON.stringify(lacksScope(route.scope))) {
        admitted.push(`${key(route)}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(admitted).toEqual([]);
  });

  it('has its user’s full rights when it names no scope', async () => {
    const everything = await t.factory.token(user);
    for (const route of routes) {
      const res = await call(route, everything);
      expect(res.statusCode === 403 && res.body.includes('lacks the'), key(route)).toBe(false);
    }
  });
});
