/**
 * One organization with one of everything the API has, for tests that need a
 * real resource behind every path parameter of every route.
 *
 *   const world = await buildWorld(t, 'A');
 *   world.fill('/v1/spaces/{spaceId}/comments/{commentId}')  // its ids in the path (`{name}` or `:name`)
 *   world.ids.siteId                                         // the id behind each path parameter
 *   world.secrets                                            // every id and marker string of the world
 *   world.admin, world.members.edit, world.guest             // accounts, with headers for app.inject
 *
 * Everything is made through the API with the admin's token, except the
 * accounts and the organization itself (`t.factory`) and the spec's processed
 * version (stored as the spec worker stores it). Every space is private,
 * the site is shared by link only and the integration is private: nothing of
 * the world is open to anyone outside it. Names and titles carry
 * `world.marker`, so that a response can be searched for any of it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { newId, randomString } from '../../src/core/ids.js';
import type { TestContext } from './app.js';
import { contentApi } from './content.js';
import { fanOutEvents } from '../../src/integrations/events/fan-out.js';
import type { Account } from './factory.js';
import { startFakeGitHub, startFakeGitLab } from './provider-apis.js';

/** The roles a member of the world has, one member each; the admin is `world.admin`. */
export const MEMBER_ROLES = ['create', 'edit', 'review', 'comment', 'read'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** The id behind each path parameter the routes name; `*` is a page's path. */
export interface WorldIds {
  organizationId: string;
  /** A member with the review role: in the team, granted on the space and collection, a requested reviewer. */
  userId: string;
  teamId: string;
  collectionId: string;
  /** The space of the collection that holds the content, comments and change requests. */
  spaceId: string;
  /** The open change request (its own draft page, comments and a requested reviewer). */
  changeRequestId: string;
  /** The space's current revision. */
  revisionId: string;
  pageId: string;
  /** The document of `pageId` in the current revision. */
  documentId: string;
  fileId: string;
  reusableContentId: string;
  /** A page's path: the path routes' wildcard, `{pagePath}` in the document. */
  pagePath: string;
  /** A comment on the space, with a reply; `fill` names the change request's where the path is one. */
  commentId: string;
  commentReplyId: string;
  /** A review of the change request, with a comment. */
  reviewId: string;
  samlProviderId: string;
  inviteId: string;
  /** A pending invitation by e-mail; its secret is `extra.invitationSecret`. */
  invitationId: string;
  emailDomain: string;
  siteId: string;
  /** In the group `siteSectionGroupId`. */
  siteSectionId: string;
  siteSectionGroupId: string;
  siteSpaceId: string;
  shareLinkId: string;
  /** A live redirect from `/moved` to an address naming the world. */
  siteRedirectId: string;
  /** An external link at the root of the site's navigation. */
  siteExternalLinkId: string;
  /** The organization's hostname: its subdomain, `{subdomain}` in the document. */
  subdomain: string;
  /** A custom font of the organization, one WOFF2 face. */
  fontId: string;
  /** A custom hostname the site claims (pending: no DNS record proves it). */
  hostname: string;
  translationSettingsId: string;
  /** An entry of the organization's translation glossary, its term naming the world. */
  glossaryEntryId: string;
  specSlug: string;
  /** The spec's one processed version. */
  versionId: string;
  integrationName: string;
  /** The integration's installation in the organization, on the space and on the site. */
  installationId: string;
  /** A delivery of an event of the integration (its installation on the space), never sent. */
  eventId: string;
  /** A webhook of the organization on the space. */
  webhookId: string;
  /** A spare token of the admin, made over HTTP: revoking it leaves the admin's own token working. */
  tokenId: string;
  /** The newest event of the organization's audit log (the spare token made). */
  auditEventId: string;
  /** A pending import run into the space (no worker runs in tests unless one is asked to). */
  importRunId: string;
  /** The repository of the GitHub Git Sync installation (`fill` names it for `/git/installations/` paths). */
  accountName: string;
  repositoryName: string;
  /** The project of the GitLab Git Sync installation. */
  projectId: string;
}

export interface World {
  label: string;
  /** Random, in every title and name the world gives. */
  marker: string;
  admin: Account;
  members: Record<MemberRole, Account>;
  /** A member without a role. */
  guest: Account;
  ids: WorldIds;
  /** Ids that are not path parameters. */
  extra: {
    /** A second private space, the site space beside the section's own. */
    otherSpaceId: string;
    /** A third private space, on no site and with no integration. */
    spareSpaceId: string;
    /** The site space the section was made with, before `siteSpaceId`. */
    sectionSiteSpaceId: string;
    mergedChangeRequestId: string;
    changeRequestCommentId: string;
    changeRequestReplyId: string;
    shareKey: string;
    /** The secret of the accept link of `invitationId`. */
    invitationSecret: string;
    /** Git Sync installations: on GitHub (the space's), on GitLab (the other space's), each with its fake API. */
    gitHubInstallationId: string;
    gitLabInstallationId: string;
    /** The webhook's signing secret, shown once when it was made. */
    webhookSecret: string;
  };
  /** Every id, e-mail, key and marker string of the world: none may reach a caller outside it. */
  secrets: string[];
  /** `path` (OpenAPI `{name}` or Fastify `:name` parameters) with the world's ids; throws on a name it has no id for. */
  fill(path: string, overrides?: Partial<Record<string, string>>): string;
}

const CERTIFICATE = readFileSync(new URL('../fixtures/idp-valid.pem', import.meta.url), 'utf8');

/** The spec's text: its title carries the marker, so a leak of its content shows. */
const specText = (marker: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: `Spec ${marker}`, version: '1' },
    paths: { [`/${marker}`]: { get: { operationId: `get${marker}`, responses: { 200: { description: marker } } } } },
  });

/** Builds the world of one organization; `label` (a letter or two) starts its marker. */
export async function buildWorld(t: TestContext, label: string): Promise<World> {
  const marker = `${label}${randomString(10)}`;
  const lower = marker.toLowerCase();
  const emailDomain = `${lower}.test`;
  const account = (name: string) =>
    t.factory.account({ name: `${name} ${marker}`, email: `${name}-${lower}@${emailDomain}` });

  const admin = await account('admin');
  const organization = await t.factory.organization(admin.user.id, {
    title: `Org ${marker}`,
    emailDomains: [emailDomain],
    hostname: `org-${lower}`,
  });
  const organizationId = organization.id;
  const members = {} as Record<MemberRole, Account>;
  for (const role of MEMBER_ROLES) {
    members[role] = await account(role);
    await t.factory.member(organizationId, members[role].user.id, role);
  }
  const guest = await account('guest');
  await t.factory.member(organizationId, guest.user.id, null);
  const reviewer = members.review;

  const call = async <T = { id: string }>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: object,
  ): Promise<T> => {
    const res = await t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return (res.body === '' ? undefined : res.json()) as T;
  };
  const org = `/v1/orgs/${organizationId}`;

  // People and places.
  const team = await call('PUT', `${org}/teams`, { title: `Team ${marker}`, members: [reviewer.user.id] });
  const collection = await call('POST', `${org}/collections`, { title: `Collection ${marker}` });
  const space = await call<{ id: string }>('POST', `${org}/spaces`, {
    title: `Space ${marker}`,
    parent: collection.id,
    visibility: 'private',
  });
  const otherSpace = await call('POST', `${org}/spaces`, { title: `Other ${marker}`, visibility: 'private' });
  const spareSpace = await call('POST', `${org}/spaces`, { title: `Spare ${marker}`, visibility: 'private' });
  const grant = { role: 'edit', users: [reviewer.user.id], teams: [team.id] };
  await call('POST', `/v1/spaces/${space.id}/permissions`, grant);
  await call('POST', `/v1/collections/${collection.id}/permissions`, grant);

  // Content: a file and a reusable content, then a page that shows the file.
  const api = contentApi(() => t.app);
  const first = await api.change(admin, space.id, [
    {
      operation: 'insert_files',
      files: [
        {
          ref: 'notes',
          name: `notes-${lower}.txt`,
          contentType: 'text/plain',
          base64: Buffer.from(`Notes ${marker}`).toString('base64'),
        },
      ],
    },
    {
      operation: 'insert_reusable_content',
      title: `Snippet ${marker}`,
      document: { markdown: `Snippet ${marker}.\n` },
    },
  ]);
  const fileId = (first.written.insertedFiles as Array<{ id: string }>)[0]!.id;
  const reusableContentId = (first.written.insertedReusableContents as Array<{ id: string }>)[0]!.id;
  const pagePath = `guide-${lower}`;
  const merged = await api.change(admin, space.id, [
    {
      operation: 'insert_page',
      title: `Guide ${marker}`,
      slug: pagePath,
      document: { markdown: `Guide ${marker}.\n\n![notes](/files/${fileId})\n` },
    },
  ]);
  const pageId = (merged.written.changes as Array<{ page: { id: string } }>)[0]!.page.id;
  const { document_id: documentId } = await t.db
    .selectFrom('page_versions')
    .select('document_id')
    .where('page_id', '=', pageId)
    .executeTakeFirstOrThrow();
  const revisionId = (await call<{ revision: string }>('GET', `/v1/spaces/${space.id}`)).revision;

  // An open change request with a draft page of its own and a requested reviewer.
  const changeRequest = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Draft ${marker}` });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    changes: [{ operation: 'insert_page', title: `Draft ${marker}`, document: { markdown: `Draft ${marker}.\n` } }],
  });
  await call('PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { status: 'open' });
  await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/requested-reviewers`, {
    users: [reviewer.user.id],
  });

  // Discussions on the space and on the change request.
  const markdown = (text: string) => ({ body: { markdown: `${text} ${marker}` } });
  const spaceComments = `/v1/spaces/${space.id}/comments`;
  const changeRequestComments = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/comments`;
  const comment = await call('POST', spaceComments, { page: pageId, ...markdown('Comment') });
  const reply = await call('POST', `${spaceComments}/${comment.id}/replies`, markdown('Reply'));
  await call('PUT', `${spaceComments}/${comment.id}`, { addedReactions: ['👍'] });
  const changeRequestComment = await call('POST', changeRequestComments, markdown('Review comment'));
  const changeRequestReply = await call(
    'POST',
    `${changeRequestComments}/${changeRequestComment.id}/replies`,
    markdown('Review reply'),
  );
  const review = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/reviews`, {
    status: 'changes-requested',
    comment: { markdown: `Review ${marker}` },
  });

  // The organization's settings: SSO, an invite link, translation settings.
  const samlProvider = await call('POST', `${org}/saml`, {
    label: `SAML ${marker}`.slice(0, 30),
    entityID: `urn:${lower}`,
    ssoURL: `https://idp.${emailDomain}/sso`,
    certificate: CERTIFICATE,
  });
  const invite = await call('POST', `${org}/link-invites`, { role: 'read' });
  const invited = await call<{ acceptLinks: Array<{ invitation: string; url: string }> }>('POST', `${org}/invites`, {
    emails: [`invitee-${lower}@${emailDomain}`],
  });
  const [acceptLink] = invited.acceptLinks;
  const translation = await call('POST', `${org}/translations`, { title: `Translation ${marker}`, languages: ['fr'] });
  await call('PUT', `${org}/translations-glossary`, {
    operations: [{ type: 'insert', translations: { en: `Term ${marker}` } }],
  });
  const [glossaryEntry] = (await call<{ items: Array<{ id: string }> }>('GET', `${org}/translations-glossary`)).items;

  // A site shared by link only: a section in a group with two site spaces, a share link.
  const site = await call<{ id: string }>('POST', `${org}/sites`, {
    title: `Site ${marker}`,
    visibility: 'share-link',
    spaces: [],
  });
  const sites = `${org}/sites/${site.id}`;
  const hostname = `docs-${lower}.example.com`;
  await call('PATCH', sites, { hostname });
  const section = await call<{ id: string; siteSpaces: Array<{ id: string }> }>('POST', `${sites}/sections`, {
    spaceId: space.id,
    title: `Section ${marker}`,
  });
  const siteSpace = await call('POST', `${sites}/site-spaces`, { spaceId: otherSpace.id, sectionId: section.id });
  const group = await call('POST', `${sites}/section-groups`, { title: `Group ${marker}`, sections: [section.id] });
  const shareLink = await call<{ id: string; urls: { published: string } }>('POST', `${sites}/share-links`, {
    name: `Link ${marker}`.slice(0, 50),
  });
  const redirect = await call('POST', `${sites}/redirects`, {
    source: '/moved',
    destination: { kind: 'external', url: `https://example.com/${lower}` },
  });
  const externalLink = await call('POST', `${sites}/external-links`, {
    title: `Link ${marker}`,
    url: `https://example.com/${lower}`,
  });
  await call('POST', `${sites}/publish`);
  const font = await worldFont(t, admin, organizationId);
  const shareKey = new URL(shareLink.urls.published).searchParams.get('share') ?? '';

  // An OpenAPI spec given as text, with the version its processing stores.
  const specSlug = `spec-${lower}`;
  const text = specText(marker);
  const spec = await call('POST', `${org}/openapi`, { slug: specSlug, source: { text } });
  const versionId = await storeVersion(t, organizationId, spec.id, text);

  // A private integration, installed in the organization, on the space and on the site.
  const integrationName = `world-${lower}`;
  await call('POST', `/v1/integrations/${integrationName}`, {
    title: `Int ${marker}`.slice(0, 30),
    description: `Integration ${marker}`,
    script: 'export default {}',
    organization: organizationId,
    visibility: 'private',
    // A local port nothing listens on: events are fanned out, never sent, and a UI render is refused at once.
    endpoint: 'http://127.0.0.1:9/events',
  });
  const installation = await call('POST', `/v1/integrations/${integrationName}/installations`, {
    organization: organizationId,
  });
  const installations = `/v1/integrations/${integrationName}/installations/${installation.id}`;
  await call('POST', `${installations}/spaces`, { space: space.id });
  await call('POST', `${installations}/sites`, { siteId: site.id });
  const webhook = await call<{ id: string; secret: string }>('POST', `${org}/webhooks`, {
    url: 'https://93.184.215.14/hook',
    space: space.id,
  });
  // Another world fanning out at the same moment holds the fan-out's lock: try again until this one's is done.
  let event: { id: string } | undefined;
  while (!event) {
    await fanOutEvents(t.db);
    event = await t.db
      .selectFrom('event_deliveries')
      .select('id')
      .where('installation_id', '=', installation.id)
      .orderBy('seq', 'desc')
      .executeTakeFirst();
  }

  const spareToken = await call('POST', '/v1/user/tokens', { label: `Spare ${marker}` });
  const auditEvent = await t.db
    .selectFrom('audit_events')
    .select('id')
    .where('organization_id', '=', organizationId)
    .orderBy('occurred_at', 'desc')
    .executeTakeFirstOrThrow();
  const importRun = await call('POST', `/v1/org/${organizationId}/imports`, {
    source: { type: 'website', url: 'http://127.0.0.1:9/' },
    target: { space: space.id },
  });

  // Git Sync: the space on GitHub and the other space on GitLab, each through a fake of the provider's API
  // that serves one repository, its branch and its .gitbook.yaml.
  const accountName = `owner-${lower}`;
  const repositoryName = `docs-${lower}`;
  const projectId = String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
  const gitToken = `token-${lower}`;
  const repository = {
    owner: accountName,
    name: repositoryName,
    defaultBranch: 'main',
    cloneUrl: `http://127.0.0.1:9/${accountName}/${repositoryName}.git`,
    branches: ['main'],
    files: { 'refs/heads/main:.gitbook.yaml': { sha: 'a'.repeat(40), size: 10 } },
  };
  const github = await startFakeGitHub({ token: gitToken, repositories: [{ ...repository, id: 1 }] });
  const gitlab = await startFakeGitLab({ token: gitToken, repositories: [{ ...repository, id: Number(projectId) }] });
  const gitInstallation = async (provider: 'github' | 'gitlab', spaceId: string, url: string, repository: object) => {
    const installed = await call('POST', '/v1/git/installations', { provider, target: { type: 'space', spaceId } });
    await call('PATCH', `/v1/git/installations/${installed.id}`, {
      provider,
      providerConfiguration: { ...repository, accessToken: gitToken, customInstanceURL: url },
    });
    return installed.id;
  };
  const gitHubInstallationId = await gitInstallation('github', space.id, github.url, { repositoryId: 1 });
  const gitLabInstallationId = await gitInstallation('gitlab', otherSpace.id, gitlab.url, {
    projectId: Number(projectId),
  });

  const ids: WorldIds = {
    organizationId,
    userId: reviewer.user.id,
    teamId: team.id,
    collectionId: collection.id,
    spaceId: space.id,
    changeRequestId: changeRequest.id,
    revisionId,
    pageId,
    documentId: documentId!,
    fileId,
    reusableContentId,
    pagePath,
    commentId: comment.id,
    commentReplyId: reply.id,
    reviewId: review.id,
    samlProviderId: samlProvider.id,
    inviteId: invite.id,
    invitationId: acceptLink!.invitation,
    emailDomain,
    siteId: site.id,
    siteSectionId: section.id,
    siteSectionGroupId: group.id,
    siteSpaceId: siteSpace.id,
    shareLinkId: shareLink.id,
    siteRedirectId: redirect.id,
    siteExternalLinkId: externalLink.id,
    subdomain: `org-${lower}`,
    fontId: font.id,
    hostname,
    translationSettingsId: translation.id,
    glossaryEntryId: glossaryEntry!.id,
    specSlug,
    versionId,
    integrationName,
    installationId: installation.id,
    eventId: event.id,
    webhookId: webhook.id,
    tokenId: spareToken.id,
    auditEventId: auditEvent.id,
    importRunId: importRun.id,
    accountName,
    repositoryName,
    projectId,
  };
  const extra = {
    otherSpaceId: otherSpace.id,
    spareSpaceId: spareSpace.id,
    sectionSiteSpaceId: section.siteSpaces[0]!.id,
    mergedChangeRequestId: merged.id,
    changeRequestCommentId: changeRequestComment.id,
    changeRequestReplyId: changeRequestReply.id,
    shareKey,
    invitationSecret: new URL(acceptLink!.url).searchParams.get('secret')!,
    gitHubInstallationId,
    gitLabInstallationId,
    webhookSecret: webhook.secret,
  };
  const accounts = [admin, ...Object.values(members), guest];
  const secrets = [
    marker,
    ...Object.values(ids),
    ...Object.values(extra),
    ...accounts.flatMap((member) => [member.user.id, member.user.email, member.tokenId]),
  ];

  const fill = (path: string, overrides: Partial<Record<string, string>> = {}) => {
    // A comment route under a change request names the change request's own thread.
    const inChangeRequest = /change-requests\/[{:]changeRequestId/.test(path);
    const values: Partial<Record<string, string>> = {
      ...ids,
      ...(inChangeRequest
        ? { commentId: extra.changeRequestCommentId, commentReplyId: extra.changeRequestReplyId }
        : {}),
      // A Git Sync installation's routes name it, not the integration's installation.
      ...(/\/git\/installations\/[{:]installationId/.test(path)
        ? { installationId: path.includes('/gitlab/') ? gitLabInstallationId : gitHubInstallationId }
        : {}),
      ...overrides,
    };
    return path.replace(/\{(\w+)\}|:(\w+)|\*$/g, (match, braced?: string, colon?: string) => {
      const name = braced ?? colon ?? 'pagePath';
      const value = values[name];
      if (value === undefined) throw new Error(`The world has no id for ${match} in ${path}`);
      return encodeURIComponent(value);
    });
  };

  return { label, marker, admin, members, guest, ids, extra, secrets, fill };
}

/**
 * Stores the spec's version as the worker would once it has parsed the text,
 * without starting the parser's threads: they would take seconds of a
 * world's build on a busy machine.
 */
async function storeVersion(t: TestContext, organizationId: string, specId: string, text: string): Promise<string> {
  const id = newId();
  const specification = JSON.parse(text) as { info: { title: string; version: string } };
  await t.db
    .insertInto('openapi_spec_versions')
    .values({
      id,
      organization_id: organizationId,
      spec_id: specId,
      source_url: null,
      content_hash: createHash('sha256').update(text).digest('hex'),
      entry_text: text,
      entry_format: 'json',
      filesystem: JSON.stringify({
        entrypoint: 'openapi.json',
        files: [{ path: 'openapi.json', isEntrypoint: true, specification }],
      }),
      outline: JSON.stringify({ info: specification.info, tags: [], operations: [], operationCount: 0 }),
    })
    .execute();
  await t.db
    .updateTable('openapi_specs')
    .set({ last_version_id: id, processing_state: 'complete' })
    .where('id', '=', specId)
    .execute();
  await t.db.deleteFrom('openapi_spec_jobs').where('spec_id', '=', specId).execute();
  return id;
}

/** A font of one real WOFF2 face (KaTeX's), uploaded to the organization's storage first. */
async function worldFont(t: TestContext, admin: Account, organizationId: string): Promise<{ id: string }> {
  const bytes = readFileSync('node_modules/katex/dist/fonts/KaTeX_Main-Regular.woff2');
  const announced = await t.app.inject({
    method: 'POST',
    url: `/v1/orgs/${organizationId}/storage/upload`,
    headers: admin.headers,
    payload: { file: { name: 'font.woff2', type: 'font/woff2', size: bytes.length }, kind: 'customization_font' },
  });
  const { url, key } = announced.json() as { url: string; key: string };
  const put = await t.app.inject({
    method: 'PUT',
    url: new URL(url).pathname + new URL(url).search,
    headers: { 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  expect(put.statusCode, put.body).toBe(200);
  const font = await t.app.inject({
    method: 'PUT',
    url: `/v1/orgs/${organizationId}/fonts`,
    headers: admin.headers,
    payload: { fontFamily: 'World Sans', fontFaces: [{ weight: 400, storageKey: key }] },
  });
  expect(font.statusCode, font.body).toBe(201);
  return font.json() as { id: string };
}
