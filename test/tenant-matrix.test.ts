import lzString from 'lz-string';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId, randomString } from '../src/core/ids.js';
import { SCOPES, scopesAllow, type Scope } from '../src/access/scopes.js';
import { PUBLIC_URL, useTestApp } from './support/app.js';
import type { Account } from './support/factory.js';
import { keptFingerprint, watchRowWrites } from './support/row-writes.js';
import { buildWorld, MEMBER_ROLES, type MemberRole, type World } from './support/world.js';

/**
 * Two organizations, A and B, each with one of everything. Every route of the
 * published OpenAPI document is called with A's ids by everyone outside A and
 * by A's admin through a token without the route's scope: nobody gets a byte
 * of A or changes anything, and an id of A is answered as an unknown id would
 * be. A route not named in EXCEPTIONS gets that default, so a new route is
 * covered the day it is registered.
 */

const t = useTestApp();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Route {
  method: Method;
  /** As the OpenAPI document writes it, `{name}` parameters. */
  path: string;
  operationId: string;
  scope: string;
  /** The document says the body is required. */
  needsBody: boolean;
}

interface Request {
  body?: object;
  query?: Record<string, string>;
}

/** A computed source's dependency on the target's spec. */
const computedSpec = (target: World) => ({ spec: { ref: { kind: 'openapi', spec: target.ids.specSlug } } });
/** The markdown of a comment or reply. */
const markdown = { body: { markdown: 'Intrusion' } };
const SPEC_TEXT = '{"openapi":"3.0.3","info":{"title":"Intrusion","version":"1"},"paths":{}}';
/** Refused before anything is fetched, and the address would not answer anyway. */
const IMPORT = { url: 'http://127.0.0.1:9/', source: 'website' };
const appAddress = (target: World) => `${PUBLIC_URL}/app/o/${target.ids.organizationId}/s/${target.ids.spaceId}`;
const siteAddress = (target: World, caller: World) =>
  `${PUBLIC_URL}/s/${target.ids.siteId}?share=${caller.extra.shareKey}`;
/** The customization of B's site, as its admin reads it: a valid body for the PUT. */
let customization: object;

/**
 * A valid request for each operation that needs one: without it Fastify's
 * validation answers 400 before any access check, and nothing is proved.
 * `target` is the world whose ids are in the path; `caller` the caller's, so
 * that a write tries what an intruder would (take A's space into B, grant B's
 * admin a role in A).
 */
const REQUESTS: Record<string, (target: World, caller: World) => Request> = {
  createOrganization: () => ({ body: { title: 'Intruders' } }),
  updateOrganizationById: () => ({ body: { title: 'Hijacked', emailDomains: ['intruder.test'] } }),
  createCollection: () => ({ body: { title: 'Intrusion' } }),
  moveCollection: () => ({ body: { parent: null } }),
  transferCollection: (_, caller) => ({ body: { organization: caller.ids.organizationId } }),
  updateCollectionById: () => ({ body: { title: 'Hijacked', defaultLevel: 'admin' } }),
  createSpace: () => ({ body: { title: 'Intrusion' } }),
  updateUserById: () => ({ body: { displayName: 'Hijacked' } }),
  getComputedDocument: (target) => ({
    body: {
      source: { type: 'builtin:openapi', props: { doc: 'models' }, dependencies: computedSpec(target) },
      seed: 'intrusion',
    },
  }),
  getComputedRevision: (target) => ({
    body: {
      source: { type: 'builtin:openapi', props: { models: true }, dependencies: computedSpec(target) },
      seed: 'intrusion',
    },
  }),
  generateStorageUploadURL: () => ({
    body: { file: { name: 'intrusion.png', type: 'image/png', size: 10 }, kind: 'organization_file' },
  }),
  createCustomFont: () => ({
    body: { fontFamily: 'Intrusion', fontFaces: [{ weight: 400, storageKey: 'intrusion' }] },
  }),
  updateCustomFont: () => ({ body: { fontFamily: 'Hijacked' } }),
  applyTemplateToSpace: () => ({ body: { id: 'product-docs' } }),
  updateSpaceById: () => ({ body: { title: 'Hijacked', visibility: 'public' } }),
  moveSpace: () => ({ body: { parent: null } }),
  transferSpace: (_, caller) => ({ body: { organization: caller.ids.organizationId } }),
  inviteToSpace: (_, caller) => ({ body: { role: 'admin', users: [caller.admin.user.id] } }),
  updateUserPermissionInSpace: () => ({ body: { role: 'admin' } }),
  updateTeamPermissionInSpace: () => ({ body: { role: 'admin' } }),
  inviteToCollection: (_, caller) => ({ body: { role: 'admin', users: [caller.admin.user.id] } }),
  updateUserPermissionInCollection: () => ({ body: { role: 'admin' } }),
  updateTeamPermissionInCollection: () => ({ body: { role: 'admin' } }),
  inviteToSite: (_, caller) => ({ body: { role: 'admin', users: [caller.admin.user.id] } }),
  updateUserPermissionInSite: () => ({ body: { role: 'admin' } }),
  updateTeamPermissionInSite: () => ({ body: { role: 'admin' } }),
  updateMemberInOrganizationById: () => ({ body: { role: 'admin' } }),
  createOrganizationTeam: () => ({ body: { title: 'Intrusion', members: [] } }),
  updateTeamInOrganizationById: () => ({ body: { title: 'Hijacked' } }),
  updateMembersInOrganizationTeam: (_, caller) => ({ body: { add: [caller.admin.user.id] } }),
  addMemberToOrganizationTeamById: () => ({ body: { role: 'owner' } }),
  createOrganizationSAMLProvider: () => ({ body: { label: 'Intrusion' } }),
  updateOrganizationSAMLProvider: () => ({ body: { label: 'Hijacked' } }),
  inviteUsersToOrganization: (_, caller) => ({ body: { emails: [caller.admin.user.email] } }),
  createOrganizationInvite: () => ({ body: { role: 'admin' } }),
  updateOrganizationInviteById: () => ({ body: { role: 'admin' } }),
  createChangeRequest: () => ({ body: { subject: 'Intrusion' } }),
  updateChangeRequestById: () => ({ body: { subject: 'Hijacked', status: 'archived' } }),
  updateChangeRequestContent: () => ({
    body: { changes: [{ operation: 'insert_page', title: 'Injected', document: { markdown: 'Injected.\n' } }] },
  }),
  importContent: () => ({ body: IMPORT }),
  importContentInChangeRequest: () => ({ body: IMPORT }),
  importGitRepository: () => ({ body: { url: 'http://127.0.0.1:9/docs.git', ref: 'refs/heads/main' } }),
  startImportRun: (target) => ({
    body: { source: { type: 'website', url: 'http://127.0.0.1:9/' }, target: { space: target.ids.spaceId } },
  }),
  exportToGitRepository: () => ({
    body: { url: 'http://127.0.0.1:9/docs.git', ref: 'refs/heads/main', commitMessage: 'Exfiltrate' },
  }),
  requestReviewersForChangeRequest: (target) => ({ body: { users: [target.ids.userId] } }),
  submitChangeRequestReview: () => ({ body: { status: 'approved', comment: { markdown: 'Intrusion' } } }),
  postCommentInSpace: () => ({ body: markdown }),
  updateCommentInSpace: () => ({ body: { resolved: true, addedReactions: ['🙈'] } }),
  postCommentReplyInSpace: () => ({ body: markdown }),
  updateCommentReplyInSpace: () => ({ body: { addedReactions: ['🙈'] } }),
  postCommentInChangeRequest: () => ({ body: markdown }),
  updateCommentInChangeRequest: () => ({ body: { resolved: true, addedReactions: ['🙈'] } }),
  postCommentReplyInChangeRequest: () => ({ body: markdown }),
  updateCommentReplyInChangeRequest: () => ({ body: { addedReactions: ['🙈'] } }),
  createSite: () => ({ body: { title: 'Intrusion' } }),
  updateSiteById: () => ({ body: { title: 'Hijacked', visibility: 'public' } }),
  sortSiteStructure: (target) => ({
    body: {
      item: { type: 'site-space', id: target.ids.siteSpaceId },
      position: { before: { type: 'site-space', id: target.extra.sectionSiteSpaceId } },
    },
  }),
  addSectionToSite: (target) => ({ body: { spaceId: target.extra.spareSpaceId } }),
  updateSiteSectionById: () => ({ body: { title: 'Hijacked' } }),
  moveSiteSection: () => ({ body: {} }),
  addSectionGroupToSite: () => ({ body: { title: 'Intrusion' } }),
  updateSiteSectionGroupById: () => ({ body: { title: 'Hijacked' } }),
  addSectionToGroup: (target) => ({ body: { sectionId: target.ids.siteSectionId } }),
  moveSiteSectionGroup: () => ({ body: {} }),
  addSpaceToSite: (target) => ({ body: { spaceId: target.extra.spareSpaceId, sectionId: target.ids.siteSectionId } }),
  updateSiteSpaceById: () => ({ body: { path: 'hijacked' } }),
  overrideSiteSpaceCustomizationById: () => ({ body: { title: 'Hijacked' } }),
  moveSiteSpace: () => ({ body: {} }),
  updateSiteAdaptiveSchema: () => ({
    body: {
      jsonSchema: {
        type: 'object',
        properties: { isIntruder: { type: 'boolean', description: 'Whether the visitor is an intruder' } },
        additionalProperties: false,
      },
    },
  }),
  updateSiteCustomizationById: () => ({ body: { ...customization, title: 'Hijacked' } }),
  createSiteShareLink: () => ({ body: { name: 'Intrusion' } }),
  updateSiteShareLinkById: () => ({ body: { active: false } }),
  createSiteRedirect: () => ({
    body: { source: '/intrusion', destination: { kind: 'external', url: 'https://e.x/' } },
  }),
  bulkUpsertSiteRedirects: () => ({ body: { redirects: [{ source: '/moved', destination: null }] } }),
  updateSiteRedirectById: () => ({ body: { destination: { kind: 'external', url: 'https://e.x/hijacked' } } }),
  getSiteRedirectBySource: () => ({ query: { source: '/moved' } }),
  addExternalLinkToSite: () => ({ body: { title: 'Intrusion', url: 'https://e.x/' } }),
  updateSiteExternalLinkById: () => ({ body: { title: 'Hijacked', url: 'https://e.x/hijacked' } }),
  duplicateSiteSpace: () => ({ body: {} }),
  aggregateSiteEvents: () => ({ body: { range: 'last7Days' } }),
  trackEventsInSiteById: () => ({
    body: {
      events: [
        {
          type: 'page_view',
          session: { visitorId: 'v', sessionId: 's', cookies: {}, userAgent: 'x', language: null, referrer: null },
          location: {
            url: 'https://e.x/',
            siteSection: null,
            siteSpace: null,
            siteShareKey: null,
            space: null,
            revision: null,
            page: null,
          },
        },
      ],
    },
  }),
  updateSitePublishingAuthById: () => ({ body: { backend: 'custom', fallbackURL: 'https://example.com/sign-in' } }),
  searchSiteContent: () => ({ body: { query: 'guide', scope: { mode: 'all' } } }),
  // Addresses of A's content: the app's of its space, and its share-link site's with the caller's own key.
  getContentByUrl: (target) => ({ query: { url: appAddress(target) } }),
  getEmbedByUrl: (target) => ({ query: { url: appAddress(target) } }),
  getEmbedByUrlInSpace: () => ({ query: { url: 'http://127.0.0.1:9/' } }),
  getPublishedContentByUrl: (target, caller) => ({ query: { url: siteAddress(target, caller) } }),
  resolvePublishedContentByUrl: (target, caller) => ({ body: { url: siteAddress(target, caller) } }),
  // Every page of both worlds is a "Guide": B's search finds B's, and must not find A's.
  searchSpaceContent: () => ({ query: { query: 'guide' } }),
  searchOrganizationContent: () => ({ query: { query: 'guide' } }),
  createTranslation: () => ({ body: { title: 'Intrusion' } }),
  updateTranslation: () => ({ body: { title: 'Hijacked' } }),
  updateGlossaryEntries: (target) => ({
    body: {
      operations: [
        { type: 'update', id: target.ids.glossaryEntryId, translations: { en: 'Hijacked' } },
        { type: 'insert', translations: { en: 'Intrusion' } },
      ],
    },
  }),
  createOpenAPISpec: () => ({ body: { slug: 'intrusion', source: { text: SPEC_TEXT } } }),
  createOrUpdateOpenAPISpecBySlug: () => ({ body: { source: { text: SPEC_TEXT } } }),
  updateOpenAPISpecBySlug: () => ({ body: { visibility: 'public' } }),
  // Republishing A's integration under B's name.
  publishIntegration: (_, caller) => ({
    body: {
      title: 'Hijacked',
      description: 'Hijacked',
      script: 'export default {}',
      organization: caller.ids.organizationId,
      visibility: 'public',
    },
  }),
  installIntegration: (_, caller) => ({ body: { organization: caller.ids.organizationId } }),
  updateIntegrationInstallation: () => ({ body: { externalIds: ['hijacked'] } }),
  installIntegrationOnSpace: (target) => ({ body: { space: target.extra.spareSpaceId } }),
  updateIntegrationSpaceInstallation: () => ({ body: { externalIds: ['hijacked'] } }),
  installIntegrationOnSite: (target) => ({ body: { siteId: target.ids.siteId } }),
  queueIntegrationTask: () => ({ body: { task: { intrusion: true } } }),
  setIntegrationDevelopmentMode: () => ({ body: { tunnelUrl: 'https://93.184.215.14/intrusion', all: true } }),
  renderIntegrationUIWithPost: (target) => ({
    body: {
      componentId: 'intrusion',
      props: {},
      context: { type: 'document', spaceId: target.ids.spaceId, editable: true, theme: 'light' },
    },
  }),
  renderIntegrationUIWithGet: (target) => ({
    query: {
      request: lzString.compressToEncodedURIComponent(
        JSON.stringify({
          componentId: 'intrusion',
          props: {},
          context: { type: 'document', spaceId: target.ids.spaceId, editable: true, theme: 'light' },
        }),
      ),
    },
  }),
  createOrganizationWebhook: () => ({ body: { url: 'https://93.184.215.14/intrusion' } }),
  createAPITokenForAuthenticatedUser: () => ({ body: { label: 'Intrusion' } }),
  issueAPITokenToOrganizationMember: () => ({ body: { label: 'Intrusion', expiresInHours: 24 } }),
  // The secret the caller holds: their own world's, which opens none of A's invitations.
  getOrganizationEmailInvite: (_, caller) => ({ query: { secret: caller.extra.invitationSecret } }),
  acceptOrganizationEmailInvite: (_, caller) => ({ body: { secret: caller.extra.invitationSecret } }),
  updateIntegrationSiteInstallation: () => ({ body: { externalIds: ['hijacked'] } }),
  installGitSyncProviderOnTarget: (target) => ({
    body: { provider: 'github', target: { type: 'space', spaceId: target.extra.spareSpaceId } },
  }),
  updateGitSyncInstallationById: () => ({
    body: { provider: 'github', providerConfiguration: { accessToken: 'hijacked' }, pollingIntervalSeconds: 60 },
  }),
  getGitHubRepoFileForGitSyncInstallation: () => ({ query: { path: '.gitbook.yaml', ref: 'refs/heads/main' } }),
  getGitLabProjectFileForGitSyncInstallation: () => ({ query: { path: '.gitbook.yaml', ref: 'refs/heads/main' } }),
};

interface Caller {
  name: string;
  kind: 'outsider' | 'narrow-token' | 'anonymous';
  /** What an outsider is in B. */
  standing?: 'admin' | MemberRole | 'guest' | 'no organization';
  /** The account calling `route`; null for no token. */
  account: (route: Route) => Account | null;
  /** The outsider's own world, for the payloads; a user of no organization borrows B's. */
  world: () => World;
}

interface Exception {
  reason: string;
  /** What an outsider gets instead of 404; a request without a token still gets 401, a narrow token 403. */
  status: number | ((caller: Caller) => number);
  /** What a request without a token gets instead of 401, on a route anyone may call. */
  anonymous?: number;
  /** Strings of A the answer may hold: the caller sent them. */
  shows?: (a: World) => string[];
  /** Undoes what the call was entitled to do, so that the fingerprint still proves it did nothing else. */
  undo?: (response: { json: () => unknown }, account: Account, a: World) => Promise<void>;
}

/**
 * The routes that do not answer an outsider with 404, by operationId. Each
 * says why, and what it answers instead; every other route gets the default.
 */
const EXCEPTIONS: Record<string, Exception> = {
  getAuthenticatedUser: { reason: 'the caller’s own profile: it names no resource of A', status: 200 },
  getApiInformation: { reason: 'the release of the service: it names no resource of A', status: 200 },
  createUserNotificationsToken: {
    reason: 'a token for the caller’s own notifications: it names no resource of A',
    status: 200,
  },
  listOrganizationsForAuthenticatedUser: {
    reason: 'the caller’s own organizations, none of them A (the user of no organization gets an empty list)',
    status: 200,
  },
  createOrganization: {
    reason: 'anyone may start an organization; it names nothing of A',
    status: 201,
    undo: async (response) => {
      await t.db
        .deleteFrom('organizations')
        .where('id', '=', (response.json() as { id: string }).id)
        .execute();
    },
  },
  getOrganizationsForEmailDomain: {
    reason: 'a domain is not A’s: a caller whose e-mail is elsewhere sees only organizations they are in, here none',
    status: 200,
  },
  publishIntegration: {
    reason:
      'integration names are one namespace for every organization, as in GitBook: B’s admin is told the name is taken (409); B’s other members may not publish for B (403); the user of no organization does not see B (404)',
    status: (caller) => {
      if (caller.standing === 'admin') return 409;
      return caller.standing === 'no organization' ? 404 : 403;
    },
    shows: (a) => [a.ids.integrationName],
  },
  removeCustomHostname: {
    reason:
      'removes the caller’s own claim of the hostname; a caller with none is told so (204), whoever else claims it, and A’s claim stays',
    status: 204,
  },
  listIntegrations: { reason: 'the integrations the caller may see; A’s is private, so not among them', status: 200 },
  listAPITokensForAuthenticatedUser: { reason: 'the caller’s own tokens, none of them A’s', status: 200 },
  createAPITokenForAuthenticatedUser: {
    reason: 'anyone may make a token for themselves; it names nothing of A (undone after each call)',
    status: 201,
    undo: async (response) => {
      const { id } = response.json() as { id: string };
      await t.db.deleteFrom('api_tokens').where('id', '=', id).execute();
      // Its record in the audit log of the caller's organizations goes with it.
      await t.db.deleteFrom('audit_events').where('target_id', '=', id).execute();
    },
  },
  getOrganizationInviteLink: {
    reason: 'an invite link’s id is the secret that lets one join: whoever holds it is invited',
    status: 200,
    shows: (a) => [a.ids.inviteId],
  },
  getOrganizationEmailInvite: {
    reason: 'an accept link opens without a token: its secret is the key, and the caller’s opens none of A’s',
    status: 404,
    anonymous: 404,
  },
  acceptOrganizationEmailInvite: {
    reason:
      'an invitation is accepted without a token by a newcomer: its secret is the key, and the caller’s opens none of A’s',
    status: 404,
    anonymous: 404,
  },
  joinOrganization: {
    reason:
      'joining needs a verified address, checked before the organization is looked up: no outsider here has one (400, as for an organization that exists nowhere)',
    status: 400,
  },
  joinOrganizationWithInvite: {
    reason: 'an invite link’s id is the secret that lets one join: whoever holds it joins (undone after each call)',
    status: 200,
    shows: (a) => [a.ids.organizationId, a.ids.inviteId],
    undo: async (_response, account, a) => {
      await t.db
        .deleteFrom('organization_members')
        .where('organization_id', '=', a.ids.organizationId)
        .where('user_id', '=', account.user.id)
        .execute();
      await t.db
        .deleteFrom('audit_events')
        .where('organization_id', '=', a.ids.organizationId)
        .where('actor_id', '=', account.user.id)
        .execute();
    },
  },
};

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Every operation of the published OpenAPI document, with the scope the route table gives it. */
function routes(): Route[] {
  const document = t.app.swagger() as {
    paths: Record<string, Record<string, { operationId?: string; requestBody?: { required?: boolean } }>>;
  };
  const scopes = new Map(t.app.routeTable.map((route) => [route.operationId, route.scope]));
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => METHODS.has(method.toUpperCase()))
      .map(([method, operation]) => {
        const operationId = operation.operationId ?? `${method.toUpperCase()} ${path}`;
        return {
          method: method.toUpperCase() as Method,
          path,
          operationId,
          scope: scopes.get(operationId) ?? 'undeclared',
          needsBody: operation.requestBody?.required === true,
        };
      }),
  );
}

/**
 * The scope a narrowed token gets for a route: the nearest one that does not
 * cover it (a write's read scope, its family's other scopes), else any.
 */
function narrowScopeFor(required: string): Scope {
  const family = required.slice(0, required.lastIndexOf(':'));
  const nearest = [required.replace(/:write$/, ':read'), `${family}:write`, `${family}:read`, ...SCOPES];
  return nearest.find(
    (scope): scope is Scope =>
      (SCOPES as readonly string[]).includes(scope) && !scopesAllow([scope], required as Scope),
  )!;
}

/**
 * Tables and columns left out of the fingerprint, because they may move on a
 * request that changes nothing of anyone's. None of the service's do: tokens
 * keep no last-used time, failed authentications and rate limits are counted
 * in memory (or Redis), and a member's last-seen time moves only on the ping
 * of their own organization. Only the migration runner's log, the clocks
 * the cached routes read and the stored diffs of revision pairs are left
 * out, as no data of the service.
 */
const BOOKKEEPING: Record<string, string[] | 'all'> = {
  pgmigrations: 'all',
  // Clocks the cached routes' versions read (src/cache-versions.ts): they tick with a change that an undo here
  // then reverses (a join, a new organization deleted), and hold no data.
  comment_thread_ticks: 'all',
  organization_roster_ticks: 'all',
  user_profile_clock: 'all',
  integration_catalog_clock: 'all',
  change_request_ticks: 'all',
  organization_ticks: 'all',
  // What two revisions differ by, computed by the first read of the pair and kept: derived from revisions the
  // caller may read, the same for every reader, and no one's data but theirs.
  revision_diffs: 'all',
  revision_page_diffs: 'all',
};

let fingerprintQuery: ReturnType<typeof sql<{ name: string; hash: string }>> | undefined;

/** One md5 per table of every row of the database, in one round trip. */
async function hashEveryTable(): Promise<Record<string, string>> {
  if (!fingerprintQuery) {
    const columns = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' order by table_name, ordinal_position`.execute(t.db);
    const tables = new Map<string, string[]>();
    for (const { table_name: table, column_name: column } of columns.rows) {
      const skipped = BOOKKEEPING[table];
      if (skipped === 'all' || skipped?.includes(column)) continue;
      tables.set(table, [...(tables.get(table) ?? []), column]);
    }
    const parts = [...tables].map(
      ([table, names]) =>
        sql`select ${table}::text as name, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as hash
            from (select ${sql.join(names.map((name) => sql.ref(name)))} from ${sql.table(table)}) r`,
    );
    fingerprintQuery = sql<{ name: string; hash: string }>`${sql.join(parts, sql` union all `)}`;
  }
  const { rows } = await fingerprintQuery.execute(t.db);
  return Object.fromEntries(rows.map((row) => [row.name, row.hash]));
}

/** The fingerprint, hashed again only once a row of a table it reads was written (support/row-writes.ts). */
let fingerprint: () => Promise<Record<string, string>>;
beforeAll(async () => {
  const skipped = Object.keys(BOOKKEEPING).filter((table) => BOOKKEEPING[table] === 'all');
  fingerprint = keptFingerprint(await watchRowWrites(t.db, skipped), hashEveryTable);
});

const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);

/** The ids of a world that a path or body may name: A's, or a ghost's that exist nowhere. */
type Refs = Record<keyof World['ids'] | keyof World['extra'] | 'adminUserId' | 'adminEmail' | 'marker', string>;

const refsOf = (world: World): Refs => ({
  ...world.ids,
  ...world.extra,
  adminUserId: world.admin.user.id,
  adminEmail: world.admin.user.email,
  marker: world.marker,
});

/** Ids of the same kinds as A's that name nothing. */
function ghostRefs(): Refs {
  const refs = refsOf(a);
  const slug = () => `ghost-${randomString(10).toLowerCase()}`;
  const ghost = Object.fromEntries(Object.keys(refs).map((key) => [key, newId()])) as Refs;
  return {
    ...ghost,
    specSlug: slug(),
    integrationName: slug(),
    subdomain: slug(),
    emailDomain: `${slug()}.test`,
    pagePath: slug(),
    // GitLab's project ids are numbers: a ghost's is one no project has.
    projectId: String(900_000_000_000 + Math.floor(Math.random() * 99_000_000_000)),
    adminEmail: `${slug()}@ghost.test`,
    marker: `G${randomString(10)}`,
  };
}

/** `body` with every id of `refs` replaced by its name, to compare an answer about A with one about a ghost. */
const normalized = (body: string, refs: Refs) =>
  Object.entries(refs)
    .sort(([, x], [, y]) => y.length - x.length)
    .reduce((text, [key, value]) => text.split(value).join(`<${key}>`), body);

let a: World;
let b: World;
/** A user in no organization. */
let loner: Account;
/** A's admin, through a token of one scope each. */
const narrowTokens = new Map<string, Account>();
let callers: Caller[];

beforeAll(async () => {
  [a, b] = await Promise.all([buildWorld(t, 'A'), buildWorld(t, 'B')]);
  loner = await t.factory.account();
  for (const route of routes()) {
    if (route.scope === 'none') continue;
    const scope = narrowScopeFor(route.scope);
    if (!narrowTokens.has(scope)) narrowTokens.set(scope, await t.factory.token(a.admin.user.id, { scopes: [scope] }));
  }
  const res = await t.app.inject({
    method: 'GET',
    url: b.fill('/v1/orgs/{organizationId}/sites/{siteId}/customization'),
    headers: b.admin.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  customization = res.json();

  const outsider = (name: string, standing: Caller['standing'], account: () => Account): Caller => ({
    name,
    kind: 'outsider',
    standing,
    account,
    world: () => b,
  });
  callers = [
    outsider('B’s admin', 'admin', () => b.admin),
    ...MEMBER_ROLES.map((role) => outsider(`B’s ${role} member`, role, () => b.members[role])),
    outsider('B’s guest', 'guest', () => b.guest),
    outsider('a user of no organization', 'no organization', () => loner),
    {
      name: 'A’s admin through a token without the route’s scope',
      kind: 'narrow-token',
      account: (route) => narrowTokens.get(narrowScopeFor(route.scope))!,
      world: () => a,
    },
    { name: 'no token', kind: 'anonymous', account: () => null, world: () => b },
  ];
}, 120_000);

function send(route: Route, target: World, caller: World, account: Account | null, pathIds?: Partial<Refs>) {
  const request = REQUESTS[route.operationId]?.(target, caller) ?? {};
  return t.app.inject({
    method: route.method,
    url: target.fill(route.path, pathIds),
    ...(account ? { headers: account.headers } : {}),
    ...(request.query ? { query: request.query } : {}),
    ...(request.body ? { payload: request.body } : {}),
  });
}

function expectedStatus(route: Route, caller: Caller): number {
  if (caller.kind === 'anonymous') return EXCEPTIONS[route.operationId]?.anonymous ?? 401;
  if (caller.kind === 'narrow-token') return 403;
  const status = EXCEPTIONS[route.operationId]?.status ?? 404;
  return typeof status === 'number' ? status : status(caller);
}

/** The secrets of `world` that `body` holds once the `allowed` strings (which the caller sent) are taken out. */
function leaked(body: string, world: World, allowed: string[] = []): string[] {
  // Longest first: an e-mail sent holds the domain, which must not be taken out of it before.
  const text = [...allowed]
    .sort((x, y) => y.length - x.length)
    .reduce((rest, shown) => rest.split(shown.toLowerCase()).join(''), body.toLowerCase());
  return world.secrets.filter((secret) => text.includes(secret.toLowerCase()));
}

/** What is wrong with one answer to a caller, if anything. */
function problemsOf(
  route: Route,
  caller: Caller,
  res: { statusCode: number; body: string; json: () => unknown },
): string[] {
  const name = `${route.operationId} as ${caller.name}`;
  const wanted = expectedStatus(route, caller);
  const problems: string[] = [];
  let error: { code?: unknown; message?: unknown } | undefined;
  if (res.statusCode >= 400) {
    let body: { error?: { code?: unknown; message?: unknown } } = {};
    try {
      body = res.json() as typeof body;
    } catch {
      // Not JSON: reported as not the error shape below.
    }
    error = body.error;
    const shape = Object.keys(body).join() === 'error' && Object.keys(error ?? {}).join() === 'code,message';
    if (!shape || error?.code !== res.statusCode || typeof error.message !== 'string')
      problems.push(`${name}: not the error shape: ${res.body.slice(0, 300)}`);
  }
  if (res.statusCode !== wanted) {
    const reason = EXCEPTIONS[route.operationId]?.reason;
    const message =
      (typeof error?.message === 'string' ? error.message : res.body.slice(0, 200)) +
      (reason ? ` (EXCEPTIONS says: ${reason})` : '');
    if (res.statusCode === 400 && /^(body|querystring|params)\b/.test(message)) {
      problems.push(
        `${name}: Fastify's validation answered 400 (${message}) before any access check: add a valid request for ${route.operationId} to REQUESTS`,
      );
    } else {
      problems.push(`${name}: ${res.statusCode}, not ${wanted}: ${message}`);
    }
  }
  const allowed = caller.kind === 'outsider' ? (EXCEPTIONS[route.operationId]?.shows?.(a) ?? []) : [];
  const found = leaked(res.body, a, allowed);
  if (found.length > 0) problems.push(`${name}: the answer holds A's ${found.join(', ')}: ${res.body.slice(0, 300)}`);
  return problems;
}

describe('the tables of the matrix', () => {
  it('name only registered operations, and every route that needs a body has a request', () => {
    const all = routes();
    const ids = new Set(all.map((route) => route.operationId));
    expect(all.length).toBeGreaterThan(200);
    expect(
      Object.keys(REQUESTS).filter((id) => !ids.has(id)),
      'REQUESTS names unknown operations',
    ).toEqual([]);
    expect(
      Object.keys(EXCEPTIONS).filter((id) => !ids.has(id)),
      'EXCEPTIONS names unknown operations',
    ).toEqual([]);
    expect(
      all.filter((route) => route.needsBody && !REQUESTS[route.operationId]?.(a, b).body).map((r) => r.operationId),
      'routes whose body is required: add a valid one to REQUESTS, or the matrix only proves Fastify’s validation',
    ).toEqual([]);
    // Every route declares a scope, so the narrowed token has one to lack.
    expect(all.filter((route) => route.scope === 'undeclared').map((r) => r.operationId)).toEqual([]);
  });
});

describe('every route, with A’s ids', () => {
  it('gives no caller outside A a byte of A, answers 404 (401 without a token, 403 to a token without its scope), and changes nothing', async () => {
    const problems: string[] = [];
    let checked = 0;
    const all = routes();
    // Reads first, fingerprinted once around all of them; then each write on its own.
    const reads = all.filter((route) => route.method === 'GET');
    const writes = all.filter((route) => route.method !== 'GET');
    const ghost = ghostRefs();
    const real = refsOf(a);
    const check = async (route: Route, caller: Caller) => {
      const account = caller.account(route);
      const res = await send(route, a, caller.world(), account);
      const found = problemsOf(route, caller, res);
      if (caller.standing === 'admin' && res.statusCode === 404) {
        // Not even the wording may tell A's ids from ids that exist nowhere.
        const unknown = await send(route, a, caller.world(), account, ghost);
        if (normalized(res.body, real) !== normalized(unknown.body, ghost))
          found.push(`${route.operationId}: 404 says ${res.body}, for ids that exist nowhere ${unknown.body}`);
      }
      const undo = EXCEPTIONS[route.operationId]?.undo;
      if (undo && account && res.statusCode < 300) await undo(res, account, a);
      return found;
    };
    // The callers of one route at once: the fingerprint is taken around each route, not each call.
    const run = async (route: Route) => {
      const applicable = callers.filter((caller) => caller.kind !== 'narrow-token' || route.scope !== 'none');
      const results = await Promise.all(applicable.map((caller) => check(route, caller)));
      checked += applicable.length;
      problems.push(...results.flat());
    };

    const beforeReads = await fingerprint();
    for (const route of reads) await run(route);
    let before = await fingerprint();
    const changedByReads = changedTables(beforeReads, before);
    if (changedByReads.length > 0) problems.push(`the reads changed ${changedByReads.join(', ')}`);

    for (const route of writes) {
      await run(route);
      const after = await fingerprint();
      const changed = changedTables(before, after);
      if (changed.length > 0) problems.push(`${route.operationId} changed ${changed.join(', ')}`);
      before = after;
    }

    expect(problems).toEqual([]);
    const narrowable = all.filter((route) => route.scope !== 'none').length;
    expect(checked).toBe(all.length * (callers.length - 1) + narrowable);
  }, 180_000);
});

/** The names of a path's parameters, in order. */
const parametersOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

/**
 * A spec's slug names it within the organization of the path: under B's, A's
 * slug is only a name B may use too (a PUT makes B a spec of that name).
 */
const NAMES_OF_THE_PATHS_ORGANIZATION = new Set(['specSlug']);

describe('every route with two ids or more, with B’s ids but one of A’s, as B’s admin', () => {
  it('answers as for an id that exists nowhere, holds nothing of A, and changes nothing', async () => {
    const ghost = ghostRefs();
    const real = refsOf(a);
    const problems: string[] = [];
    let before = await fingerprint();
    for (const route of routes()) {
      const names = parametersOf(route.path);
      if (names.length < 2) continue;
      // The variants of one route at once: the fingerprint is taken around each route.
      const variants = names.filter((candidate) => !NAMES_OF_THE_PATHS_ORGANIZATION.has(candidate));
      const results = await Promise.all(
        variants.map(async (name) => {
          const key = name as keyof Refs;
          const [withA, withGhost] = await Promise.all([
            send(route, b, b, b.admin, { [key]: real[key] }),
            send(route, b, b, b.admin, { [key]: ghost[key] }),
          ]);
          const label = `${route.operationId} with A's ${name}`;
          const found: string[] = [];
          if (
            withA.statusCode !== withGhost.statusCode ||
            normalized(withA.body, real) !== normalized(withGhost.body, ghost)
          )
            found.push(
              `${label}: ${withA.statusCode} ${withA.body.slice(0, 300)}, where an unknown id gets ${withGhost.statusCode} ${withGhost.body.slice(0, 300)}`,
            );
          const shown = leaked(withA.body, a, [real[key]]);
          if (shown.length > 0) found.push(`${label}: the answer holds A's ${shown.join(', ')}`);
          return found;
        }),
      );
      problems.push(...results.flat());
      if (route.method !== 'GET') {
        const after = await fingerprint();
        const changed = changedTables(before, after);
        if (changed.length > 0) problems.push(`${route.operationId} with one id of A changed ${changed.join(', ')}`);
        before = after;
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

/** Reads that answer B's admin other than 200 on B's own world, and why. */
const READ_STATUSES: Record<string, { status: number; why: string }> = {
  renderIntegrationUIWithGet: {
    status: 502,
    why: 'it renders through the integration’s endpoint, which the world names and nothing serves',
  },
};

describe('every read, with B’s ids, as B’s admin', () => {
  it('answers 200 and holds nothing of A: no list of B includes A', async () => {
    const reads = routes().filter((candidate) => candidate.method === 'GET');
    const answers = await Promise.all(reads.map((route) => send(route, b, b, b.admin)));
    const problems = reads.flatMap((route, index) => {
      const res = answers[index]!;
      const found = leaked(res.body, a);
      const expected = READ_STATUSES[route.operationId]?.status ?? 200;
      return [
        ...(res.statusCode === expected ? [] : [`${route.operationId}: ${res.statusCode} ${res.body.slice(0, 200)}`]),
        ...(found.length > 0 ? [`${route.operationId} holds A's ${found.join(', ')}`] : []),
      ];
    });
    expect(problems).toEqual([]);
  }, 60_000);
});

describe('the fingerprint', () => {
  it('sees a change of one row, and only in its table', async () => {
    const before = await fingerprint();
    const row = () => t.db.updateTable('teams').where('id', '=', b.ids.teamId);
    await row().set({ title: 'Changed' }).execute();
    const changed = changedTables(before, await fingerprint());
    await row()
      .set({ title: `Team ${b.marker}` })
      .execute();
    expect(changed).toEqual(['teams']);
    expect(await fingerprint()).toEqual(before);
  });
});

interface ForeignReference {
  operationId: string;
  request: (own: World, foreign: Refs) => Request;
  /**
   * The reference is only a string the write keeps (a link, a spec's slug),
   * so the write may go through; `readBack` is then read as B's admin and
   * must hold nothing of A but the ids B wrote.
   */
  readBack?: string;
}

const computedPage = (spec: string) => ({
  operation: 'insert_page',
  type: 'computed',
  title: 'API',
  computed: {
    type: 'builtin:openapi',
    props: { models: true },
    dependencies: { spec: { ref: { kind: 'openapi', spec } } },
  },
});

/**
 * Requests on B's own resources whose body or query names something of A:
 * each must answer exactly as it does for an id (or a name) that exists
 * nowhere; a write must be refused and change nothing.
 */
const FOREIGN_REFERENCES: Record<string, ForeignReference> = {
  'B’s sites filtered by a space of A': {
    operationId: 'listSites',
    request: (_, f) => ({ query: { space: f.spaceId } }),
  },
  'B’s sites by the name of A': { operationId: 'listSites', request: (_, f) => ({ query: { title: f.marker } }) },
  'B’s members by the name of A': {
    operationId: 'listMembersInOrganizationById',
    request: (_, f) => ({ query: { search: f.marker } }),
  },
  'B’s members by the e-mail of A’s admin': {
    operationId: 'listMembersInOrganizationById',
    request: (_, f) => ({ query: { search: f.adminEmail } }),
  },
  'B’s teams by the name of A': {
    operationId: 'listTeamsInOrganizationById',
    request: (_, f) => ({ query: { title: f.marker } }),
  },
  'B’s teams a user of A manages': {
    operationId: 'listTeamsInOrganizationById',
    request: (_, f) => ({ query: { owner: f.adminUserId } }),
  },
  'B’s change requests by a user of A': {
    operationId: 'listChangeRequestsForSpace',
    request: (_, f) => ({ query: { creator: f.adminUserId } }),
  },
  'B’s comments on a page of A': {
    operationId: 'listCommentsInSpace',
    request: (_, f) => ({ query: { targetPage: f.pageId } }),
  },
  'B’s comments by a user of A': {
    operationId: 'listCommentsInSpace',
    request: (_, f) => ({ query: { authors: f.adminUserId } }),
  },
  'integrations owned by A': {
    operationId: 'listIntegrations',
    request: (_, f) => ({ query: { owner: f.organizationId } }),
  },
  'integrations by the name of A': {
    operationId: 'listIntegrations',
    request: (_, f) => ({ query: { search: f.marker } }),
  },
  'a search of B’s organization for the name of A': {
    operationId: 'searchOrganizationContent',
    request: (_, f) => ({ query: { query: f.marker } }),
  },
  'a search of B’s space for the name of A': {
    operationId: 'searchSpaceContent',
    request: (_, f) => ({ query: { query: f.marker } }),
  },
  'a space in a collection of A': {
    operationId: 'createSpace',
    request: (_, f) => ({ body: { parent: f.collectionId } }),
  },
  'a collection in a collection of A': {
    operationId: 'createCollection',
    request: (_, f) => ({ body: { parent: f.collectionId } }),
  },
  'a space moved into a collection of A': {
    operationId: 'moveSpace',
    request: (_, f) => ({ body: { parent: f.collectionId } }),
  },
  'a space moved beside a space of A': {
    operationId: 'moveSpace',
    request: (_, f) => ({ body: { position: { before: { type: 'space', space: f.spaceId } } } }),
  },
  'a collection moved into a collection of A': {
    operationId: 'moveCollection',
    request: (_, f) => ({ body: { parent: f.collectionId } }),
  },
  'a space transferred to A': {
    operationId: 'transferSpace',
    request: (_, f) => ({ body: { organization: f.organizationId } }),
  },
  'a collection transferred to A': {
    operationId: 'transferCollection',
    request: (_, f) => ({ body: { organization: f.organizationId } }),
  },
  'a role on a space for a user of A': {
    operationId: 'inviteToSpace',
    request: (_, f) => ({ body: { role: 'read', users: [f.adminUserId] } }),
  },
  'a role on a space for a team of A': {
    operationId: 'inviteToSpace',
    request: (_, f) => ({ body: { role: 'read', teams: [f.teamId] } }),
  },
  'a role on a collection for a team of A': {
    operationId: 'inviteToCollection',
    request: (_, f) => ({ body: { role: 'read', teams: [f.teamId] } }),
  },
  'a review asked of a user of A': {
    operationId: 'requestReviewersForChangeRequest',
    request: (_, f) => ({ body: { users: [f.userId] } }),
  },
  'a review asked of a team of A': {
    operationId: 'requestReviewersForChangeRequest',
    request: (_, f) => ({ body: { users: [], teams: [f.teamId] } }),
  },
  'a team with a user of A': {
    operationId: 'createOrganizationTeam',
    request: (_, f) => ({ body: { title: 'Mixed', members: [f.adminUserId] } }),
  },
  'a user of A added to a team': {
    operationId: 'updateMembersInOrganizationTeam',
    request: (_, f) => ({ body: { add: [f.adminUserId] } }),
  },
  'a user of A added to a team by e-mail': {
    operationId: 'updateMembersInOrganizationTeam',
    request: (_, f) => ({ body: { add: [f.adminEmail] } }),
  },
  'a team of A as a SAML provider’s default': {
    operationId: 'updateOrganizationSAMLProvider',
    request: (_, f) => ({ body: { defaultTeam: f.teamId } }),
  },
  'an invite link to a space of A': {
    operationId: 'createOrganizationInvite',
    request: (_, f) => ({ body: { role: 'read', space: f.spaceId, level: 'read' } }),
  },
  'an invite link to a collection of A': {
    operationId: 'createOrganizationInvite',
    request: (_, f) => ({ body: { role: 'read', collection: f.collectionId, level: 'read' } }),
  },
  'a site of A as the default content': {
    operationId: 'updateOrganizationById',
    request: (_, f) => ({ body: { defaultContent: { type: 'site', site: f.siteId } } }),
  },
  'a comment on a page of A': {
    operationId: 'postCommentInSpace',
    request: (_, f) => ({ body: { page: f.pageId, ...markdown } }),
  },
  'a change request comment on a page of A': {
    operationId: 'postCommentInChangeRequest',
    request: (_, f) => ({ body: { page: f.pageId, ...markdown } }),
  },
  'a page updated by A’s page id': {
    operationId: 'updateChangeRequestContent',
    request: (_, f) => ({ body: { changes: [{ operation: 'update_page', page: f.pageId, title: 'Mine' }] } }),
  },
  'a page reverted to a revision of A': {
    operationId: 'updateChangeRequestContent',
    request: (own, f) => ({
      body: { changes: [{ operation: 'revert_page', page: own.ids.pageId, revision: f.revisionId }] },
    }),
  },
  'a reusable content of A updated': {
    operationId: 'updateChangeRequestContent',
    request: (_, f) => ({
      body: {
        changes: [{ operation: 'update_reusable_content', reusableContent: f.reusableContentId, title: 'Mine' }],
      },
    }),
  },
  'a page inserted under a page of A': {
    operationId: 'updateChangeRequestContent',
    request: (_, f) => ({
      body: { changes: [{ operation: 'insert_page', title: 'Child', into: f.pageId, document: { markdown: 'x' } }] },
    }),
  },
  'a computed page of a spec of A': {
    operationId: 'updateChangeRequestContent',
    request: (_, f) => ({ body: { changes: [computedPage(f.specSlug)] } }),
    // Accepted before its spec exists, as for any slug: the page must not show A's spec.
    readBack: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages',
  },
  'a document of B’s space computed from a spec of A': {
    operationId: 'getComputedDocument',
    request: (_, f) => ({
      body: {
        source: {
          type: 'builtin:openapi',
          props: { doc: 'models' },
          dependencies: { spec: { ref: { kind: 'openapi', spec: f.specSlug } } },
        },
        seed: 'intrusion',
      },
    }),
  },
  'the pages of B’s space computed from a spec of A': {
    operationId: 'getComputedRevision',
    request: (_, f) => ({
      body: {
        source: {
          type: 'builtin:openapi',
          props: { models: true },
          dependencies: { spec: { ref: { kind: 'openapi', spec: f.specSlug } } },
        },
        seed: 'intrusion',
      },
    }),
  },
  'a link page to a page of A': {
    operationId: 'updateChangeRequestContent',
    request: (_, f) => ({
      body: {
        changes: [
          {
            operation: 'insert_page',
            type: 'link',
            title: 'Elsewhere',
            target: { kind: 'page', page: f.pageId, space: f.spaceId },
          },
        ],
      },
    }),
    readBack: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages',
  },
  'a site with a space of A': {
    operationId: 'createSite',
    request: (_, f) => ({ body: { title: 'Mixed', spaces: [f.spaceId] } }),
  },
  'a section of a space of A': {
    operationId: 'addSectionToSite',
    request: (_, f) => ({ body: { spaceId: f.spaceId } }),
  },
  'a site space of a space of A': {
    operationId: 'addSpaceToSite',
    request: (own, f) => ({ body: { spaceId: f.spaceId, sectionId: own.ids.siteSectionId } }),
  },
  'a site space in a section of A': {
    operationId: 'addSpaceToSite',
    request: (own, f) => ({ body: { spaceId: own.extra.spareSpaceId, sectionId: f.siteSectionId } }),
  },
  'a site space switched to a space of A': {
    operationId: 'updateSiteSpaceById',
    request: (_, f) => ({ body: { spaceId: f.spaceId } }),
  },
  'a site space of A as a section’s default': {
    operationId: 'updateSiteSectionById',
    request: (_, f) => ({ body: { defaultSiteSpace: f.siteSpaceId } }),
  },
  'a section of A put in a group': {
    operationId: 'addSectionToGroup',
    request: (_, f) => ({ body: { sectionId: f.siteSectionId } }),
  },
  'a group of a section of A': {
    operationId: 'addSectionGroupToSite',
    request: (_, f) => ({ body: { title: 'Mixed', sections: [f.siteSectionId] } }),
  },
  'a group in a group of A': {
    operationId: 'addSectionGroupToSite',
    request: (_, f) => ({ body: { title: 'Mixed', parent: f.siteSectionGroupId } }),
  },
  'a site space sorted beside one of A': {
    operationId: 'sortSiteStructure',
    request: (own, f) => ({
      body: {
        item: { type: 'site-space', id: own.ids.siteSpaceId },
        position: { before: { type: 'site-space', id: f.siteSpaceId } },
      },
    }),
  },
  'a site space of A sorted': {
    operationId: 'sortSiteStructure',
    request: (own, f) => ({
      body: {
        item: { type: 'site-space', id: f.siteSpaceId },
        position: { before: { type: 'site-space', id: own.extra.sectionSiteSpaceId } },
      },
    }),
  },
  'a site space moved beside one of A': {
    operationId: 'moveSiteSpace',
    request: (_, f) => ({ body: { position: { before: { type: 'site-space', siteSpace: f.siteSpaceId } } } }),
  },
  'a section moved beside one of A': {
    operationId: 'moveSiteSection',
    request: (_, f) => ({ body: { position: { before: { type: 'site-section', siteSection: f.siteSectionId } } } }),
  },
  'a group moved beside one of A': {
    operationId: 'moveSiteSectionGroup',
    request: (_, f) => ({ body: { position: { before: { type: 'site-section-group', id: f.siteSectionGroupId } } } }),
  },
  'a search of a site space of A': {
    operationId: 'searchSiteContent',
    request: (_, f) => ({ body: { query: 'guide', scope: { mode: 'specific', siteSpaceIds: [f.siteSpaceId] } } }),
  },
  'an installation on a space of A': {
    operationId: 'installIntegrationOnSpace',
    request: (_, f) => ({ body: { space: f.spaceId } }),
  },
  'an installation on a site of A': {
    operationId: 'installIntegrationOnSite',
    request: (_, f) => ({ body: { siteId: f.siteId } }),
  },
  'an installation in A': {
    operationId: 'installIntegration',
    request: (_, f) => ({ body: { organization: f.organizationId } }),
  },
  'an integration published for A': {
    operationId: 'publishIntegration',
    request: (_, f) => ({
      body: { title: 'Mine', description: 'Mine', script: 'export default {}', organization: f.organizationId },
    }),
  },
};

describe('a request of B’s admin on B that names something of A in its body or query', () => {
  it('answers as for an id that exists nowhere, holds nothing of A, and changes nothing', async () => {
    const byId = new Map(routes().map((route) => [route.operationId, route]));
    const ghost = ghostRefs();
    const real = refsOf(a);
    /** What of A B's admin has written into B so far: B's content may show it back. */
    const written = new Set<string>();
    const problems: string[] = [];
    for (const [name, reference] of Object.entries(FOREIGN_REFERENCES)) {
      const route = byId.get(reference.operationId);
      if (!route) {
        problems.push(`${name}: no operation ${reference.operationId}`);
        continue;
      }
      const inject = (refs: Refs) => {
        const request = reference.request(b, refs);
        return t.app.inject({
          method: route.method,
          url: b.fill(route.path),
          headers: b.admin.headers,
          ...(request.query ? { query: request.query } : {}),
          ...(request.body ? { payload: request.body } : {}),
        });
      };
      const before = await fingerprint();
      const withA = await inject(real);
      const changed = changedTables(before, await fingerprint());
      const withGhost = await inject(ghost);
      if (
        withA.statusCode !== withGhost.statusCode ||
        // Two writes that went through differ in their new revisions and times; refusals must match to the byte.
        (!reference.readBack && normalized(withA.body, real) !== normalized(withGhost.body, ghost))
      )
        problems.push(
          `${name}: ${withA.statusCode} ${withA.body.slice(0, 300)}, where an unknown id gets ${withGhost.statusCode} ${withGhost.body.slice(0, 300)}`,
        );
      const request = JSON.stringify(reference.request(b, real));
      const sent = Object.values(real).filter((value) => request.includes(value));
      const found = leaked(withA.body, a, [...sent, ...written]);
      if (found.length > 0) problems.push(`${name}: the answer holds A's ${found.join(', ')}`);
      if (reference.readBack) {
        for (const value of sent) written.add(value);
        const readBack = await t.app.inject({
          method: 'GET',
          url: b.fill(reference.readBack),
          headers: b.admin.headers,
        });
        const shown = leaked(readBack.body, a, [...written]);
        if (shown.length > 0) problems.push(`${name}: ${reference.readBack} then holds A's ${shown.join(', ')}`);
      } else {
        const read = route.method === 'GET' || route.operationId === 'searchSiteContent';
        if (withA.statusCode < 400 && !read) problems.push(`${name}: ${withA.statusCode}, not refused`);
        if (changed.length > 0) problems.push(`${name}: changed ${changed.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
