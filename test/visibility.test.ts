import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { contentApi } from './support/content.js';
import type { Account } from './support/factory.js';
import { expectNewestSpecResponse, expectSpecResponse } from './support/spec.js';
import { rowsInSpace, type SpaceTable } from './support/rows.js';

const t = useTestApp();
const api = contentApi(() => t.app);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Visibility = 'public' | 'unlisted' | 'share-link';

/** One space with something behind every route, and the ids a route's path may name. */
interface Fixture {
  space: string;
  shareKey: string;
  /** The space's first revision, older than the current one. */
  initialRevision: string;
  /** The current revision: the merge of `mergedChangeRequest`. */
  currentRevision: string;
  page: string;
  /** The document of `page` in the current revision. */
  document: string;
  file: string;
  reusableContent: string;
  mergedChangeRequest: string;
  /** Open, with its own draft page, comments and a requested reviewer. */
  changeRequest: string;
  changeRequestRevision: string;
  spaceComment: string;
  spaceReply: string;
  changeRequestComment: string;
  changeRequestReply: string;
  reviewer: string;
  /** A review of `changeRequest`, with a comment. */
  review: string;
}

interface Expectation {
  /** What an authenticated non-member gets where the visibility opens the space to them. */
  visitor: 200 | 404;
  payload?: (fixture: Fixture) => object;
  /** Query parameters the route requires. */
  query?: Record<string, string>;
}

/** The published side: the space object and its current content, and nothing else. */
const published: Expectation = { visitor: 200 };
/** Needs a role on the space as a member; to everyone else the space does not exist. */
const membersOnly: Expectation = { visitor: 404 };
/** Every write is a member's: a non-member's is a 404, and changes nothing. */
const write = (payload?: (fixture: Fixture) => object): Expectation => ({
  visitor: 404,
  ...(payload ? { payload } : {}),
});

const markdown = (text: string) => ({ body: { markdown: text } });
/** A computed source's dependency on a spec the organization does not have. */
const SPEC = { spec: { ref: { kind: 'openapi', spec: 'no-such-spec' } } };

/**
 * Every operation on a space, by operationId. A route that is missing here
 * fails the test: a new route must decide what visibility opens, if anything.
 */
const EXPECTED: Record<string, Expectation> = {
  getSpaceById: published,
  getCurrentRevision: published,
  listPages: published,
  listFiles: published,
  getFileById: published,
  getPageById: published,
  getPageByPath: published,
  // With the current revision's id; older ones are covered below.
  getRevisionById: published,
  listPagesInRevisionById: published,
  listFilesInRevisionById: published,
  getFileInRevisionById: published,
  getPageInRevisionById: published,
  getPageInRevisionByPath: published,
  getReusableContentById: published,
  getReusableContentInRevisionById: published,
  getReusableContentDocumentInRevisionById: published,
  getDocumentById: published,
  getPageDocumentInRevisionById: published,
  listSpacePageMetaLinks: published,
  listRevisionPageMetaLinks: published,
  listChangeRequestPageMetaLinks: membersOnly,
  // Computing from the organization's specs is a member's: a visitor reads the computed pages it publishes.
  getComputedDocument: {
    visitor: 404,
    payload: () => ({ source: { type: 'builtin:openapi', props: { doc: 'models' }, dependencies: SPEC }, seed: 's' }),
  },
  getComputedRevision: {
    visitor: 404,
    payload: () => ({ source: { type: 'builtin:openapi', props: { models: true }, dependencies: SPEC }, seed: 's' }),
  },
  // Search reads the current content, the published side.
  searchSpaceContent: { visitor: 200, query: { query: 'content' } },
  // Exports of the current content: whoever may read it may take it away whole.
  getSpacePDF: published,
  getSpaceZip: published,

  listChangeRequestsForSpace: membersOnly,
  getChangeRequestById: membersOnly,
  getRevisionOfChangeRequestById: membersOnly,
  listPagesInChangeRequest: membersOnly,
  listFilesInChangeRequestById: membersOnly,
  getFileInChangeRequestById: membersOnly,
  getPageInChangeRequestById: membersOnly,
  getPageInChangeRequestByPath: membersOnly,
  getReusableContentInChangeRequestById: membersOnly,
  getRequestedReviewersByChangeRequestId: membersOnly,
  // Reviews and who wrote in a change request: unpublished work, a member's.
  getReviewsByChangeRequestId: membersOnly,
  getChangeRequestReviewById: membersOnly,
  getContributorsByChangeRequestId: membersOnly,
  getChangeRequestPDF: membersOnly,
  getChangeRequestZip: membersOnly,
  // Which integrations a space has, and their blocks: a member's.
  listSpaceIntegrations: membersOnly,
  // Resolving an embed makes the service fetch: a space's visitors may not make it.
  getEmbedByUrlInSpace: { visitor: 404, query: { url: 'http://127.0.0.1:9/' } },
  listSpaceIntegrationsBlocks: membersOnly,
  // A diff shows unpublished work and what older revisions held: a member's, as they are.
  getChangeRequestChanges: membersOnly,
  getChangeRequestPageDiff: membersOnly,
  getRevisionSemanticChanges: membersOnly,
  getRevisionPageDiff: membersOnly,
  listCommentsInSpace: membersOnly,
  getCommentInSpace: membersOnly,
  listCommentRepliesInSpace: membersOnly,
  getCommentReplyInSpace: membersOnly,
  listCommentersInSpace: membersOnly,
  listCommentsInChangeRequest: membersOnly,
  getCommentInChangeRequest: membersOnly,
  listCommentRepliesInChangeRequest: membersOnly,
  getCommentReplyInChangeRequest: membersOnly,
  listCommentersInChangeRequest: membersOnly,
  // Link reports and backlinks are editorial tools, not published content.
  listSpaceLinks: membersOnly,
  listPageLinksInSpace: membersOnly,
  listSpaceFileBacklinks: membersOnly,
  listSpacePageBacklinks: membersOnly,
  listChangeRequestLinks: membersOnly,
  listPageLinksInChangeRequest: membersOnly,
  listChangeRequestFileBacklinks: membersOnly,
  listChangeRequestPageBacklinks: membersOnly,
  // Who can reach the space is a roster: the workshop's, never opened by visibility.
  listUserPermissionsInSpace: membersOnly,
  listTeamPermissionsInSpace: membersOnly,
  listPermissionsAggregateInSpace: membersOnly,
  // Which repository a space syncs with, and how its syncs went, is the workshop's.
  getSpaceGitInfo: membersOnly,

  updateSpaceById: write(() => ({ title: 'Hijacked' })),
  deleteSpaceById: write(),
  restoreSpace: write(),
  duplicateSpace: write(),
  moveSpace: write(() => ({ parent: null })),
  transferSpace: write(() => ({ organization: strangersOrganization })),
  createChangeRequest: write(() => ({ subject: 'Intrusion' })),
  updateChangeRequestById: write(() => ({ subject: 'Hijacked', status: 'archived' })),
  updateChangeRequestContent: write(() => ({
    changes: [{ operation: 'insert_page', title: 'Injected', document: { markdown: 'Injected.\n' } }],
  })),
  mergeChangeRequest: write(),
  updateChangeRequest: write(),
  // Refused before anything is fetched: the address would not answer anyway.
  importContent: write(() => ({ url: 'http://127.0.0.1:9/', source: 'website' })),
  applyTemplateToSpace: write(() => ({ id: 'product-docs' })),
  importContentInChangeRequest: write(() => ({ url: 'http://127.0.0.1:9/', source: 'website' })),
  importGitRepository: write(() => ({ url: 'http://127.0.0.1:9/docs.git', ref: 'refs/heads/main' })),
  exportToGitRepository: write(() => ({
    url: 'http://127.0.0.1:9/docs.git',
    ref: 'refs/heads/main',
    commitMessage: 'x',
  })),
  requestReviewersForChangeRequest: write((fixture) => ({ users: [fixture.reviewer] })),
  removeRequestedReviewerFromChangeRequest: write(),
  submitChangeRequestReview: write(() => ({ status: 'approved', comment: { markdown: 'Intrusion' } })),
  postCommentInSpace: write(() => markdown('Intrusion')),
  updateCommentInSpace: write(() => ({ resolved: true, addedReactions: ['👍'] })),
  deleteCommentInSpace: write(),
  postCommentReplyInSpace: write(() => markdown('Intrusion')),
  updateCommentReplyInSpace: write(() => ({ addedReactions: ['👍'] })),
  deleteCommentReplyInSpace: write(),
  postCommentInChangeRequest: write(() => markdown('Intrusion')),
  updateCommentInChangeRequest: write(() => ({ resolved: true, addedReactions: ['👍'] })),
  deleteCommentInChangeRequest: write(),
  postCommentReplyInChangeRequest: write(() => markdown('Intrusion')),
  updateCommentReplyInChangeRequest: write(() => ({ addedReactions: ['👍'] })),
  deleteCommentReplyInChangeRequest: write(),
  inviteToSpace: write((fixture) => ({ role: 'admin', users: [fixture.reviewer] })),
  updateUserPermissionInSpace: write(() => ({ role: 'admin' })),
  removeUserFromSpace: write(),
  updateTeamPermissionInSpace: write(() => ({ role: 'admin' })),
  removeTeamFromSpace: write(),
};

interface SpaceRoute {
  method: Method;
  path: string;
  operationId: string;
}

const METHODS = new Set<string>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Every registered /v1 route of a space (with a {spaceId} in its path), from the app's own OpenAPI document. */
function spaceRoutes(): SpaceRoute[] {
  const document = t.app.swagger() as { paths: Record<string, Record<string, { operationId?: string }>> };
  return (
    Object.entries(document.paths)
      // Routes of a space itself; an integration's installation on a space is the integration's (integrations-access).
      .filter(
        ([path]) => path.startsWith('/v1/') && path.includes('{spaceId}') && !path.startsWith('/v1/integrations/'),
      )
      .flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([method]) => METHODS.has(method.toUpperCase()))
          .map(([method, operation]) => ({
            method: method.toUpperCase() as Method,
            path,
            operationId: operation.operationId ?? `${method.toUpperCase()} ${path}`,
          })),
      )
  );
}

/** The route's path with the fixture's ids: a comment route names the comment of its own thread. */
function urlOf(route: SpaceRoute, fixture: Fixture, revisionId = fixture.currentRevision): string {
  const inChangeRequest = route.path.includes('{changeRequestId}');
  const values: Record<string, string> = {
    spaceId: fixture.space,
    changeRequestId: fixture.changeRequest,
    revisionId,
    pageId: fixture.page,
    // A path route's wildcard: the fixture page's path.
    pagePath: 'guide',
    fileId: fixture.file,
    reusableContentId: fixture.reusableContent,
    documentId: fixture.document,
    userId: fixture.reviewer,
    teamId,
    commentId: inChangeRequest ? fixture.changeRequestComment : fixture.spaceComment,
    commentReplyId: inChangeRequest ? fixture.changeRequestReply : fixture.spaceReply,
    reviewId: fixture.review,
  };
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No fixture id for {${name}} in ${route.method} ${route.path}`);
    return value;
  });
}

function send(account: Account, route: SpaceRoute, fixture: Fixture, query: Record<string, string> = {}) {
  const payload = EXPECTED[route.operationId]?.payload?.(fixture);
  return t.app.inject({
    method: route.method,
    url: urlOf(route, fixture),
    headers: account.headers,
    query: { ...EXPECTED[route.operationId]?.query, ...query },
    ...(payload ? { payload } : {}),
  });
}

let admin: Account;
let editor: Account;
let reader: Account;
let guest: Account;
let stranger: Account;
let organizationId: string;
let strangersOrganization: string;
/** A team of the organization, for the routes of a team's grants. */
let teamId: string;
/** Every e-mail of the organization's members: none may reach a non-member. */
let memberEmails: string[];
const fixtures = {} as Record<Visibility, Fixture>;

const ok = async <T>(
  response: Promise<{ statusCode: number; body: string; json: () => T }>,
  status = 200,
): Promise<T> => {
  const res = await response;
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};

/** A space with the given visibility and something behind every one of its routes. */
async function fixtureFor(visibility: Visibility): Promise<Fixture> {
  const space = await api.createSpace(admin, organizationId, { title: `Open (${visibility})`, visibility });
  // A Git Sync installation, so that the space has Git info to read.
  await ok(
    t.app.inject({
      method: 'POST',
      url: '/v1/git/installations',
      headers: admin.headers,
      payload: { provider: 'github', target: { type: 'space', spaceId: space.id } },
    }),
    201,
  );
  const merged = await api.change(editor, space.id, [
    {
      operation: 'insert_files',
      files: [
        { ref: 'notes', name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') },
      ],
    },
    { operation: 'insert_page', title: 'Guide', document: { markdown: 'Published guide.\n' } },
    { operation: 'insert_reusable_content', title: 'Snippet', document: { markdown: 'Published snippet.\n' } },
  ]);
  const current = (await ok<{ revision: string }>(api.read(admin, `/v1/spaces/${space.id}`))).revision;

  const draft = await ok<{ id: string }>(
    api.createChangeRequest(editor, space.id, { subject: 'Unpublished work' }),
    201,
  );
  await ok(
    api.writeContent(editor, space.id, draft.id, [
      { operation: 'insert_page', title: 'Draft', document: { markdown: 'Secret draft.\n' } },
    ]),
  );
  const opened = await ok<{ revision: string }>(api.patchChangeRequest(editor, space.id, draft.id, { status: 'open' }));

  const post = (url: string, payload: object) =>
    ok<{ id: string }>(t.app.inject({ method: 'POST', url, headers: admin.headers, payload }));
  const spaceComments = `/v1/spaces/${space.id}/comments`;
  const changeRequestComments = `/v1/spaces/${space.id}/change-requests/${draft.id}/comments`;
  const spaceComment = await post(spaceComments, markdown('On the space'));
  const spaceReply = await post(`${spaceComments}/${spaceComment.id}/replies`, markdown('A reply'));
  const changeRequestComment = await post(changeRequestComments, markdown('On the draft'));
  const changeRequestReply = await post(
    `${changeRequestComments}/${changeRequestComment.id}/replies`,
    markdown('A reply to the draft'),
  );
  await post(`/v1/spaces/${space.id}/change-requests/${draft.id}/requested-reviewers`, { users: [editor.user.id] });
  const review = await ok<{ id: string }>(
    t.app.inject({
      method: 'POST',
      url: `/v1/spaces/${space.id}/change-requests/${draft.id}/reviews`,
      headers: admin.headers,
      payload: { status: 'changes-requested', comment: { markdown: 'Not yet' } },
    }),
    201,
  );

  const row = await t.db.selectFrom('spaces').select('share_key').where('id', '=', space.id).executeTakeFirstOrThrow();
  const guideDocument = await t.db
    .selectFrom('page_versions')
    .select('document_id')
    .where('page_id', '=', (merged.written.changes as Array<{ page: { id: string } }>)[0]!.page.id)
    .executeTakeFirstOrThrow();
  return {
    space: space.id,
    shareKey: row.share_key,
    initialRevision: space.revision,
    currentRevision: current,
    page: (merged.written.changes as Array<{ page: { id: string } }>)[0]!.page.id,
    document: guideDocument.document_id!,
    file: (merged.written.insertedFiles as Array<{ id: string }>)[0]!.id,
    reusableContent: (merged.written.insertedReusableContents as Array<{ id: string }>)[0]!.id,
    mergedChangeRequest: merged.id,
    changeRequest: draft.id,
    changeRequestRevision: opened.revision,
    spaceComment: spaceComment.id,
    spaceReply: spaceReply.id,
    changeRequestComment: changeRequestComment.id,
    changeRequestReply: changeRequestReply.id,
    reviewer: editor.user.id,
    review: review.id,
  };
}

/** What a refused write could have touched: the space, its discussion and change requests, and the spaces of both organizations. */
async function stateOf(fixture: Fixture) {
  const count = (table: SpaceTable) => rowsInSpace(t.db, table, fixture.space);
  const spacesIn = (organization: string) =>
    t.db
      .selectFrom('spaces')
      .select(['id', 'title', 'deleted_at'])
      .where('organization_id', '=', organization)
      .orderBy('id')
      .execute();
  return {
    space: await t.db
      .selectFrom('spaces')
      .select([
        'organization_id',
        'parent_id',
        'title',
        'visibility',
        'revision_id',
        'updated_at',
        'deleted_at',
        'comments_total_count',
        'comments_open_count',
      ])
      .where('id', '=', fixture.space)
      .executeTakeFirstOrThrow(),
    changeRequests: await t.db
      .selectFrom('change_requests')
      .select(['id', 'subject', 'status', 'revision_id', 'updated_at'])
      .where('space_id', '=', fixture.space)
      .orderBy('id')
      .execute(),
    comments: await t.db
      .selectFrom('comments')
      .select(['id', 'status', 'body', 'edited_at'])
      .where('space_id', '=', fixture.space)
      .orderBy('id')
      .execute(),
    counts: {
      comments: await count('comments'),
      replies: await count('comment_replies'),
      reactions: await count('comment_reactions'),
      changeRequests: await count('change_requests'),
      reviewers: await count('change_request_reviewers'),
      reviews: await count('change_request_reviews'),
      revisions: await count('revisions'),
      grants: await count('content_grants'),
    },
    spaces: { organization: await spacesIn(organizationId), strangers: await spacesIn(strangersOrganization) },
  };
}

/**
 * Sends every space route as `account` and checks each answer against what
 * `expected` says for that operation; 200s must carry no member's e-mail
 * (unless `emailsAllowed`) and match the spec, and nothing may change.
 */
async function expectAnswers(
  account: Account,
  fixture: Fixture,
  expected: (operationId: string) => number,
  options: { query?: Record<string, string>; emailsAllowed?: boolean } = {},
) {
  const before = await stateOf(fixture);
  const answers: Record<string, number> = {};
  const wanted: Record<string, number> = {};
  for (const route of spaceRoutes()) {
    const res = await send(account, route, fixture, options.query);
    answers[route.operationId] = res.statusCode;
    wanted[route.operationId] = expected(route.operationId);
    if (res.statusCode === 200) {
      if (!options.emailsAllowed) {
        for (const email of memberEmails)
          expect(res.body.toLowerCase(), `${route.operationId} shows ${email}`).not.toContain(email);
      }
      if (NEWEST_OPERATIONS.has(route.operationId)) expectNewestSpecResponse(route.operationId, 200, res.json());
      else if (!SERVICE_OPERATIONS.has(route.operationId)) expectSpecResponse(route.operationId, 200, res.json());
    } else if (res.statusCode === 404) {
      // Exactly what a private space answers: nothing says the space exists.
      expect(res.json(), route.operationId).toEqual({
        error: { code: 404, message: 'No space with this id is visible to you' },
      });
    }
  }
  expect(answers).toEqual(wanted);
  expect(await stateOf(fixture)).toEqual(before);
}

/** Operations of this service's own, which no GitBook spec describes. */
const SERVICE_OPERATIONS = new Set(['getSpaceZip', 'getChangeRequestZip']);
/** Operations only @gitbook/api 0.202.0 describes. */
const NEWEST_OPERATIONS = new Set([
  'getDocumentById',
  'getPageDocumentInRevisionById',
  'listSpacePageMetaLinks',
  'listRevisionPageMetaLinks',
  'listChangeRequestPageMetaLinks',
  'getComputedDocument',
  'getComputedRevision',
]);

const visitorAnswer = (operationId: string) => EXPECTED[operationId]?.visitor ?? -1;

beforeAll(async () => {
  const team = await t.factory.team([null, 'read', 'edit']);
  ({ admin } = team);
  organizationId = team.organization.id;
  guest = team.member(null);
  reader = team.member('read');
  editor = team.member('edit');
  stranger = await t.factory.account();
  strangersOrganization = (await t.factory.organization(stranger.user.id)).id;
  memberEmails = [admin, guest, reader, editor].map((account) => account.user.email.toLowerCase());
  teamId = (
    await ok<{ id: string }>(
      t.app.inject({
        method: 'PUT',
        url: `/v1/orgs/${organizationId}/teams`,
        headers: admin.headers,
        payload: { title: 'Everyone', members: [reader.user.id] },
      }),
      201,
    )
  ).id;
  for (const visibility of ['public', 'unlisted', 'share-link'] as const)
    fixtures[visibility] = await fixtureFor(visibility);
});

describe('the space routes', () => {
  it('are all in the table of what visibility opens, and the table names no route that is gone', () => {
    const operationIds = spaceRoutes().map((route) => route.operationId);
    expect(operationIds.length).toBeGreaterThan(50);
    expect(
      operationIds.filter((id) => !(id in EXPECTED)),
      'space routes missing from EXPECTED: decide what a non-member gets',
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((id) => !operationIds.includes(id)),
      'EXPECTED names operations that are not registered',
    ).toEqual([]);
    const published = Object.entries(EXPECTED).filter(([, expectation]) => expectation.visitor === 200);
    // Only reads are ever opened by visibility.
    for (const [operationId] of published)
      expect(spaceRoutes().find((route) => route.operationId === operationId)?.method, operationId).toBe('GET');
  });
});

describe('a non-member', () => {
  it.each(['public', 'unlisted'] as const)(
    'on a space that is %s reads the published side only, sees no member’s e-mail, and changes nothing',
    async (visibility) => {
      await expectAnswers(stranger, fixtures[visibility], visitorAnswer);
    },
  );

  it('on a share-link space with its key reads the published side only, sees no member’s e-mail, and changes nothing', async () => {
    const fixture = fixtures['share-link'];
    await expectAnswers(stranger, fixture, visitorAnswer, { query: { shareKey: fixture.shareKey } });
  });

  it('on a share-link space with a wrong key or none gets 404 everywhere', async () => {
    const fixture = fixtures['share-link'];
    await expectAnswers(stranger, fixture, () => 404, { query: { shareKey: 'wrong' } });
    await expectAnswers(stranger, fixture, () => 404);
  });

  it('reads the current revision by id, but no older one and no change request’s', async () => {
    const fixture = fixtures.public;
    const revision = (id: string, rest = '') =>
      api.read(stranger, `/v1/spaces/${fixture.space}/revisions/${id}${rest}`);
    const current = await revision(fixture.currentRevision);
    expect(current.statusCode).toBe(200);
    for (const id of [fixture.initialRevision, fixture.changeRequestRevision]) {
      for (const rest of [
        '',
        '/pages',
        '/files',
        `/files/${fixture.file}`,
        `/page/${fixture.page}`,
        `/reusable-contents/${fixture.reusableContent}`,
        `/reusable-contents/${fixture.reusableContent}/document`,
      ]) {
        const res = await revision(id, rest);
        expect(res.statusCode, `${id}${rest}`).toBe(404);
        // The same answer as for an id that never existed.
        expect(res.json()).toEqual((await revision('AAAAAAAAAAAAAAAAAAAA', rest)).json());
      }
    }
    // Members read them all.
    expect(
      (await api.read(reader, `/v1/spaces/${fixture.space}/revisions/${fixture.initialRevision}`)).statusCode,
    ).toBe(200);
    expect(
      (
        await api.read(
          reader,
          `/v1/spaces/${fixture.space}/revisions/${fixture.changeRequestRevision}/page/${fixture.page}`,
        )
      ).statusCode,
    ).toBe(200);
  });

  it('sees the merged change request’s author without an e-mail, where a member sees it', async () => {
    const fixture = fixtures.public;
    const url = `/v1/spaces/${fixture.space}/content`;
    const seen = await ok<{ mergedFrom: { id: string; createdBy: Record<string, unknown> } }>(api.read(stranger, url));
    expect(seen.mergedFrom.id).toBe(fixture.mergedChangeRequest);
    expect(seen.mergedFrom.createdBy).toEqual({
      object: 'user',
      id: editor.user.id,
      displayName: editor.user.display_name,
      urls: { location: `http://docs.test/v1/users/${editor.user.id}` },
    });
    const asMember = await ok<{ mergedFrom: { createdBy: Record<string, unknown> } }>(api.read(reader, url));
    expect(asMember.mergedFrom.createdBy.email).toBe(editor.user.email);
  });
});

describe('a guest of the organization', () => {
  it('gets what a non-member gets on every space route, and changes nothing', async () => {
    // A guest shares the organization with its members, so their e-mails are not hidden from them.
    await expectAnswers(guest, fixtures.public, visitorAnswer, { emailsAllowed: true });
  });
});

describe('a member with the read role', () => {
  it('reads every space route, change requests, comments, commenters and reviewers included', async () => {
    const fixture = fixtures.public;
    for (const route of spaceRoutes().filter((candidate) => candidate.method === 'GET')) {
      const res = await send(reader, route, fixture);
      expect(res.statusCode, `${route.operationId}: ${res.body}`).toBe(200);
    }
    const changeRequest = await ok<{ createdBy: { email?: string } }>(
      api.getChangeRequest(reader, fixture.space, fixture.changeRequest),
    );
    expect(changeRequest.createdBy.email).toBe(editor.user.email);
  });
});
