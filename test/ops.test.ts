import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildOwnApp, listen, testConfig, useTestApp } from './support/app.js';
import { TcpProxy } from './support/tcp-proxy.js';

const t = useTestApp();

describe('probes and API description', () => {
  it('answers / with JSON for API clients and a page for browsers, both pointing at the reference', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const base = testConfig(t.database.url).publicUrl;
    for (const accept of [undefined, 'application/json', '*/*']) {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        name: 'quire',
        version,
        description: expect.stringContaining('GitBook'),
        links: {
          api: `${base}/v1`,
          reference: `${base}/docs`,
          openapi: `${base}/openapi.json`,
          health: `${base}/healthz`,
          readiness: `${base}/readyz`,
        },
      });
    }
    const browser = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(browser.statusCode).toBe(200);
    expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(browser.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(browser.body).toContain(`<a href="${base}/docs">API reference</a>`);
    expect(browser.body).toContain(`<a href="${base}/openapi.json">`);
    expect(browser.body).toContain(`version ${version}`);
  });

  it('compiles every route schema on demand, as a server does once it listens', async () => {
    // Compiled when first used; a schema Ajv or fast-json-stringify cannot compile fails here, not at a first request.
    expect(t.app.deferredCompilations.size).toBeGreaterThan(300);
    await t.app.deferredCompilations.compileAll();
    expect(t.app.deferredCompilations.size).toBe(0);
  });

  it('answers /healthz and /readyz without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });

  it('publishes an OpenAPI document of every route, generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      (methods) => Object.values(methods).map((operation) => operation.operationId),
    );
    expect(operations.sort()).toEqual(
      [
        'listAPITokensForAuthenticatedUser',
        'createAPITokenForAuthenticatedUser',
        'getAPITokenForAuthenticatedUser',
        'revokeAPITokenForAuthenticatedUser',
        'issueAPITokenToOrganizationMember',
        'addMemberToOrganizationTeamById',
        'inviteToSpace',
        'listUserPermissionsInSpace',
        'listTeamPermissionsInSpace',
        'listPermissionsAggregateInSpace',
        'updateUserPermissionInSpace',
        'removeUserFromSpace',
        'updateTeamPermissionInSpace',
        'removeTeamFromSpace',
        'inviteToCollection',
        'listUserPermissionsInCollection',
        'listTeamPermissionsInCollection',
        'listPermissionsAggregateInCollection',
        'updateUserPermissionInCollection',
        'removeUserFromCollection',
        'updateTeamPermissionInCollection',
        'removeTeamFromCollection',
        'addSectionGroupToSite',
        'addSectionToGroup',
        'addSectionToSite',
        'addSpaceToSite',
        'createSite',
        'createSiteShareLink',
        'deleteSiteById',
        'deleteSiteSectionById',
        'deleteSiteSectionGroupById',
        'deleteSiteShareLinkById',
        'deleteSiteSpaceById',
        'getPublishedContentSite',
        'searchSiteContent',
        'getSiteAdaptiveSchema',
        'getSiteById',
        'getSiteCustomizationById',
        'getSitePublishingAuthById',
        'getSiteStructure',
        'listSiteAdaptiveTemplateConditions',
        'listSiteSectionGroups',
        'listSiteSections',
        'listSiteShareLinks',
        'listSiteSpaces',
        'listSites',
        'moveSiteSection',
        'moveSiteSectionGroup',
        'moveSiteSpace',
        'publishSite',
        'regenerateSitePublishingAuthById',
        'removeSectionFromGroup',
        'sortSiteStructure',
        'unpublishSite',
        'updateSiteAdaptiveSchema',
        'updateSiteById',
        'updateSiteCustomizationById',
        'updateSitePublishingAuthById',
        'updateSiteSectionById',
        'updateSiteSectionGroupById',
        'updateSiteShareLinkById',
        'updateSiteSpaceById',
        'listSiteRedirects',
        'createSiteRedirect',
        'bulkUpsertSiteRedirects',
        'updateSiteRedirectById',
        'deleteSiteRedirectById',
        'getSiteRedirectBySource',
        'addExternalLinkToSite',
        'updateSiteExternalLinkById',
        'deleteSiteExternalLinkById',
        'getSitePublishingPreviewById',
        'prewarmSiteSearch',
        'duplicateSiteSpace',
        'getSubdomain',
        'trackEventsInSiteById',
        'aggregateSiteEvents',
        'listSiteVisitorSegments',
        'inviteToSite',
        'listPermissionsAggregateInSite',
        'listUserPermissionsInSite',
        'updateUserPermissionInSite',
        'removeUserFromSite',
        'listTeamPermissionsInSite',
        'updateTeamPermissionInSite',
        'removeTeamFromSite',
        'getSiteSpaceCustomizationById',
        'overrideSiteSpaceCustomizationById',
        'deleteSiteSpaceCustomizationById',
        'createCollection',
        'createChangeRequest',
        'listChangeRequestsForSpace',
        'getChangeRequestById',
        'updateChangeRequestById',
        'updateChangeRequestContent',
        'mergeChangeRequest',
        'updateChangeRequest',
        'importContent',
        'importContentInChangeRequest',
        'importGitRepository',
        'exportToGitRepository',
        'getSpaceGitInfo',
        'installGitSyncProviderOnTarget',
        'getGitSyncInstallationById',
        'updateGitSyncInstallationById',
        'uninstallGitSyncInstallation',
        'listSiteGitSyncInstallations',
        'listGitHubRepositoriesForGitSyncInstallation',
        'listGitHubRepoBranchesForGitSyncInstallation',
        'getGitHubRepoFileForGitSyncInstallation',
        'listGitLabProjectsForGitSyncInstallation',
        'listGitLabProjectBranchesForGitSyncInstallation',
        'getGitLabProjectFileForGitSyncInstallation',
        'startImportRun',
        'listImportRuns',
        'getImportRun',
        'cancelImportRun',
        'getSpacePDF',
        'getChangeRequestPDF',
        'getSpaceZip',
        'getChangeRequestZip',
        'listCommentsInSpace',
        'postCommentInSpace',
        'getCommentInSpace',
        'updateCommentInSpace',
        'deleteCommentInSpace',
        'listCommentRepliesInSpace',
        'postCommentReplyInSpace',
        'getCommentReplyInSpace',
        'updateCommentReplyInSpace',
        'deleteCommentReplyInSpace',
        'listCommentersInSpace',
        'listCommentsInChangeRequest',
        'postCommentInChangeRequest',
        'getCommentInChangeRequest',
        'updateCommentInChangeRequest',
        'deleteCommentInChangeRequest',
        'listCommentRepliesInChangeRequest',
        'postCommentReplyInChangeRequest',
        'getCommentReplyInChangeRequest',
        'updateCommentReplyInChangeRequest',
        'deleteCommentReplyInChangeRequest',
        'listCommentersInChangeRequest',
        'getRequestedReviewersByChangeRequestId',
        'requestReviewersForChangeRequest',
        'removeRequestedReviewerFromChangeRequest',
        'submitChangeRequestReview',
        'getReviewsByChangeRequestId',
        'getChangeRequestReviewById',
        'getContributorsByChangeRequestId',
        'listChangeRequestsForOrganization',
        'getCurrentRevision',
        'listPages',
        'listFiles',
        'getFileById',
        'generateStorageUploadURL',
        'listCustomFonts',
        'createCustomFont',
        'getCustomFont',
        'updateCustomFont',
        'deleteCustomFont',
        'applyTemplateToSpace',
        'applyTemplateToSite',
        'getPageById',
        'getRevisionOfChangeRequestById',
        'listPagesInChangeRequest',
        'listFilesInChangeRequestById',
        'getFileInChangeRequestById',
        'getPageInChangeRequestById',
        'getRevisionById',
        'listPagesInRevisionById',
        'listFilesInRevisionById',
        'getFileInRevisionById',
        'getPageInRevisionById',
        'listSpaceLinks',
        'listChangeRequestLinks',
        'listPageLinksInSpace',
        'listPageLinksInChangeRequest',
        'listSpaceFileBacklinks',
        'listChangeRequestFileBacklinks',
        'listSpacePageBacklinks',
        'listChangeRequestPageBacklinks',
        'searchSpaceContent',
        'searchOrganizationContent',
        'listTranslations',
        'createTranslation',
        'getTranslation',
        'updateTranslation',
        'deleteTranslation',
        'runTranslation',
        'listGlossaryEntries',
        'updateGlossaryEntries',
        'getGlossaryEntry',
        'getPageByPath',
        'getPageInChangeRequestByPath',
        'getPageInRevisionByPath',
        'getReusableContentById',
        'getReusableContentInChangeRequestById',
        'getReusableContentInRevisionById',
        'getReusableContentDocumentInRevisionById',
        'listOpenAPISpecs',
        'createOpenAPISpec',
        'getOpenAPISpecBySlug',
        'createOrUpdateOpenAPISpecBySlug',
        'updateOpenAPISpecBySlug',
        'deleteOpenAPISpecBySlug',
        'listOpenAPISpecVersions',
        'getLatestOpenAPISpecVersion',
        'getLatestOpenAPISpecVersionContent',
        'getOpenAPISpecVersionById',
        'getOpenAPISpecVersionContentById',
        'getOpenAPISpecVersionRawById',
        'listIntegrations',
        'getIntegrationByName',
        'publishIntegration',
        'unpublishIntegration',
        'listIntegrationInstallations',
        'installIntegration',
        'getIntegrationInstallationById',
        'updateIntegrationInstallation',
        'uninstallIntegration',
        'listIntegrationInstallationSpaces',
        'installIntegrationOnSpace',
        'getIntegrationSpaceInstallation',
        'updateIntegrationSpaceInstallation',
        'uninstallIntegrationFromSpace',
        'listIntegrationInstallationSites',
        'installIntegrationOnSite',
        'getIntegrationSiteInstallation',
        'updateIntegrationSiteInstallation',
        'uninstallIntegrationFromSite',
        'listIntegrationEvents',
        'getIntegrationEvent',
        'redeliverIntegrationEvent',
        'rotateIntegrationSigningSecret',
        'queueIntegrationTask',
        'listOrganizationWebhooks',
        'createOrganizationWebhook',
        'getOrganizationWebhook',
        'deleteOrganizationWebhook',
        'listOrganizationWebhookDeliveries',
        'createOrganization',
        'createOrganizationInvite',
        'createOrganizationSAMLProvider',
        'createOrganizationTeam',
        'createSpace',
        'deleteCollectionById',
        'deleteMemberFromOrganizationTeamById',
        'deleteOrganizationInviteById',
        'deleteOrganizationSAMLProvider',
        'deleteSpaceById',
        'duplicateSpace',
        'getAuthenticatedUser',
        'getCollectionById',
        'getMemberInOrganizationById',
        'getSpaceById',
        'getTeamInOrganizationById',
        'listCollectionsInOrganizationById',
        'listMembersInOrganizationById',
        'listSpacesInCollectionById',
        'listSpacesForOrganizationMember',
        'listSpacesInOrganizationById',
        'listTeamMembersInOrganizationById',
        'listTeamsForOrganizationMember',
        'listTeamsInOrganizationById',
        'moveCollection',
        'moveSpace',
        'removeMemberFromOrganizationById',
        'removeTeamFromOrganizationById',
        'restoreSpace',
        'setUserAsSSOMemberForOrganization',
        'transferCollection',
        'transferSpace',
        'updateCollectionById',
        'updateMemberInOrganizationById',
        'updateOrganizationMemberLastSeenAt',
        'updateMembersInOrganizationTeam',
        'updateSpaceById',
        'updateTeamInOrganizationById',
        'getOrganizationById',
        'getOrganizationInviteLink',
        'getOrganizationSAMLProviderById',
        'getOrganizationsForEmailDomain',
        'getUserById',
        'updateUserById',
        'createUserNotificationsToken',
        'getApiInformation',
        'getDocumentById',
        'getPageDocumentInRevisionById',
        'getComputedDocument',
        'getComputedRevision',
        'listSpacePageMetaLinks',
        'listRevisionPageMetaLinks',
        'listChangeRequestPageMetaLinks',
        'getLatestOpenAPISpecVersionContentRaw',
        'inviteUsersToOrganization',
        'joinOrganizationWithInvite',
        'listOrganizationEmailInvites',
        'revokeOrganizationEmailInvite',
        'getOrganizationEmailInvite',
        'acceptOrganizationEmailInvite',
        'joinOrganization',
        'getCustomHostname',
        'dnsRevalidateCustomHostname',
        'removeCustomHostname',
        'getContentByUrl',
        'getPublishedContentByUrl',
        'resolvePublishedContentByUrl',
        'getEmbedByUrl',
        'getEmbedByUrlInSpace',
        'listOrganizationInviteLinks',
        'listOrganizationsForAuthenticatedUser',
        'listSAMLProvidersInOrganizationById',
        'listSSOProviderLoginsInOrganization',
        'updateOrganizationById',
        'updateOrganizationInviteById',
        'updateOrganizationSAMLProvider',
        'listOrganizationAuditEvents',
        'getOrganizationAuditEvent',
        'listOrganizationAuditEventActions',
        'createIntegrationInstallationToken',
        'setIntegrationDevelopmentMode',
        'disableIntegrationDevelopmentMode',
        'listIntegrationSpaceInstallations',
        'listIntegrationSiteInstallations',
        'listOrganizationIntegrations',
        'getOrganizationIntegrationStatus',
        'listOrganizationIntegrationsStatus',
        'listOrganizationInstallations',
        'listSpaceIntegrations',
        'listSpaceIntegrationsBlocks',
        'listSiteIntegrations',
        'listSiteIntegrationScripts',
        'renderIntegrationUIWithGet',
        'renderIntegrationUIWithPost',
        'getChangeRequestChanges',
        'getChangeRequestPageDiff',
        'getRevisionSemanticChanges',
        'getRevisionPageDiff',
      ].sort(),
    );
    expect(doc.components.schemas).toHaveProperty('ErrorResponse');
    expect(doc.components.schemas).toHaveProperty('Organization');
    expect(
      doc.paths['/v1/orgs/{organizationId}'].patch.requestBody.content['application/json'].schema.properties.title,
    ).toMatchObject({
      minLength: 2,
      maxLength: 255,
    });
  });

  it('serves an API reference page at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('while shutting down', () => {
  it('finishes a request in flight, then ends its connection instead of reading the next request', async () => {
    const app = await buildOwnApp(testConfig(t.database.url));
    const base = new URL(await listen(app));
    const me = await t.factory.account();
    const org = await t.factory.organization(me.user.id, { title: 'Before shutdown' });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // Hold the organization's row so that the PATCH is still running when close() starts.
    const holder = t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('organizations').select('id').where('id', '=', org.id).forUpdate().execute();
      locked();
      await released;
    });
    try {
      await isLocked;
      // Two pipelined requests on one keep-alive connection: the second would be read after the first is answered.
      const socket = connect(Number(base.port), base.hostname);
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      const ended = once(socket, 'close');
      const body = JSON.stringify({ title: 'During shutdown' });
      socket.write(
        `PATCH /v1/orgs/${org.id} HTTP/1.1\r\nHost: x\r\nAuthorization: ${me.headers.authorization}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
          `GET /v1/orgs/${org.id} HTTP/1.1\r\nHost: x\r\nAuthorization: ${me.headers.authorization}\r\n\r\n`,
      );
      await waitForRowLockWaiter();
      const closed = app.close();
      // The listener closes after the preClose hooks have run: from then on answers end their connection.
      while (app.server.listening) await new Promise((resolve) => setTimeout(resolve, 10));
      release();
      await holder;
      await ended;
      await closed;

      // The pipelined GET is left unread: HTTP clients retry it on a new connection.
      const responses = received.split(/(?=HTTP\/1\.1 )/);
      expect(responses).toHaveLength(1);
      expect(responses[0]).toMatch(/^HTTP\/1\.1 200 /);
      expect(responses[0]).toMatch(/\r\nconnection: close\r\n/i);
      expect(responses[0]).toContain('"title":"During shutdown"');
      const stored = await t.db
        .selectFrom('organizations')
        .select('title')
        .where('id', '=', org.id)
        .executeTakeFirstOrThrow();
      expect(stored.title).toBe('During shutdown');
    } finally {
      release();
      await holder.catch(() => {});
      await app.close();
    }
  });
});

/** Waits until some session is blocked on a row lock: the PATCH has reached its UPDATE. */
async function waitForRowLockWaiter(): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.db);
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the PATCH never waited for the row lock');
}

describe('when the database goes away', () => {
  it('answers 503 while it is gone and recovers by itself when it returns', async () => {
    const target = new URL(t.database.url);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    const viaProxy = new URL(t.database.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const app = await buildOwnApp(testConfig(viaProxy.toString()));
    try {
      const me = await t.factory.account();
      expect((await app.inject({ method: 'GET', url: '/v1/orgs', headers: me.headers })).statusCode).toBe(200);

      await proxy.cut();
      const during = await app.inject({ method: 'GET', url: '/v1/orgs', headers: me.headers });
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBe('1');
      expect(during.json()).toEqual({
        error: { code: 503, message: 'The database is unavailable; try again shortly' },
      });
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

      await proxy.start();
      expect((await app.inject({ method: 'GET', url: '/v1/orgs', headers: me.headers })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await proxy.cut();
    }
  });
});
