import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendBytes, sendJsonText, sendPreparedJson } from '../core/replies.js';
import { NotFoundError } from '../core/errors.js';
import { errorResponses, ListEnvelope } from '../core/schemas.js';
import { changeRequestIn } from '../model/change-requests/access.js';
import { presentChangeRequest } from '../model/change-requests/present.js';
import { findSpaceAsMember, findVisibleSpace } from '../model/access/spaces.js';
import { emailVisibilityFor } from '../model/people/user-queries.js';
import { evaluateExpressions, type JSONDocument } from '../model/content/document/index.js';
import { presentFile, presentPage, type ContentPlace } from '../model/content/present.js';
import {
  ChangeRequestContentParams,
  ContentQuery,
  FilesQuery,
  PageQuery,
  RevisionFileResponse,
  RevisionPageResponse,
  RevisionParams,
  RevisionResponse,
  SpaceContentParams,
} from './schemas.js';
import type { RevisionPoint } from '../model/content/state.js';
import { pagesArrayOf } from '../model/content/page-tree-body.js';
import type { FileState } from '../model/content/tree.js';
import { Type } from '@sinclair/typebox';
import { findChangeRequest } from '../model/change-requests/queries.js';
import { type SpaceWithAccess } from '../model/access/space-queries.js';
import { callerOf } from '../model/access/auth.js';

/** The revision a content read is about, where its pages live, and who reads it. */
interface ContentTarget {
  space: SpaceWithAccess;
  point: RevisionPoint;
  place: ContentPlace;
  readerId: string;
}

/** Who reads: the caller, and the key that opens a share-link space's published side to them. */
interface Reader {
  userId: string;
  shareKey: string | undefined;
}

function readerOf(request: FastifyRequest): Reader {
  return { userId: callerOf(request).userId, shareKey: (request.query as { shareKey?: string }).shareKey };
}


async function revisionOf(app: FastifyInstance, space: SpaceWithAccess, revisionId: string): Promise<RevisionPoint> {
  const point = await app.content.revision(space.id, space.organization_id, revisionId);
  if (!point) throw new NotFoundError('No revision with this id in the space');
  return point;
}

/** The current revision: the published side, which visibility opens to non-members. */
async function spaceTarget(app: FastifyInstance, spaceId: string, reader: Reader): Promise<ContentTarget> {
  const { space } = await findVisibleSpace(app.context, spaceId, reader.userId, { shareKey: reader.shareKey });
  const point = await revisionOf(app, space, space.revision_id);
  return { space, point, place: { organizationId: space.organization_id, spaceId: space.id, changeRequestId: null }, readerId: reader.userId };
}

/** A change request's newest revision: unpublished work, for members only. */
async function changeRequestTarget(app: FastifyInstance, spaceId: string, changeRequestId: string, reader: Reader): Promise<ContentTarget> {
  const { space } = await findSpaceAsMember(app.context, spaceId, reader.userId);
  const changeRequest = await changeRequestIn(app.context, space.id, changeRequestId);
  const point = await revisionOf(app, space, changeRequest.revision_id);
  return { space, point, place: { organizationId: space.organization_id, spaceId: space.id, changeRequestId: changeRequest.id }, readerId: reader.userId };
}

/** Any revision to members; to others only the current one, which is all that is published. */
async function revisionTarget(app: FastifyInstance, spaceId: string, revisionId: string, reader: Reader): Promise<ContentTarget> {
  const { space, visitor } = await findVisibleSpace(app.context, spaceId, reader.userId, { shareKey: reader.shareKey });
  // The same answer as an unknown id: an older or a change request's revision is not there for a visitor.
  if (visitor && revisionId !== space.revision_id) throw new NotFoundError('No revision with this id in the space');
  const point = await revisionOf(app, space, revisionId);
  return { space, point, place: { organizationId: space.organization_id, spaceId: space.id, changeRequestId: point.changeRequestId }, readerId: reader.userId };
}

/** The routes that read one revision's content, for each way of naming the revision. */
export const contentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const fileUrl = (file: FileState) => app.fileUrls.sign(file.versionId, file.name, app.clock.now());

  async function revisionBody(target: ContentTarget): Promise<Buffer> {
    const { point, space } = target;
    const tree = await app.content.tree(point);
    const pageTree = await app.content.pageTreeBody(point, target.place);
    const urls: Record<string, string> = { app: target.place.changeRequestId ? `${app.urls.app('o', space.organization_id, 's', space.id)}/revisions/${point.id}` : app.urls.app('o', space.organization_id, 's', space.id) };
    if (space.visibility !== 'private') urls.published = app.urls.published(space.id);
    if (space.visibility === 'public') urls.public = app.urls.published(space.id);
    const revision: Record<string, unknown> = {
      object: 'revision',
      id: point.id,
      type: point.type,
      parents: point.parents,
      files: [...tree.files.values()].map((file) => presentFile(file, fileUrl(file))),
      reusableContents: [],
      variables: point.variables,
      createdAt: point.createdAt.toISOString(),
      urls,
    };
    if (point.type === 'merge' && point.mergedFrom) {
      const changeRequest = await findChangeRequest(app.db, space.id, point.mergedFrom);
      if (changeRequest) revision.mergedFrom = presentChangeRequest(changeRequest, app.urls, await emailVisibilityFor(app.db, target.readerId, [changeRequest.author_id], space.is_member ? space.organization_id : null));
    }
    // The page tree is spliced in as bytes: it is serialised once per revision and cached.
    return Buffer.concat([Buffer.from(`${JSON.stringify(revision).slice(0, -1)},"pages":`), pagesArrayOf(pageTree), Buffer.from('}')]);
  }

  async function pageJson(target: ContentTarget, pageId: string, query: { format: 'document' | 'markdown'; evaluated: boolean }): Promise<string> {
    const tree = await app.content.tree(target.point);
    const page = tree.pages.get(pageId);
    if (!page) throw new NotFoundError('No page with this id in this revision');
    const subtree = tree.subtreeOf(pageId);
    const markdownOf = await app.content.markdownOf(target.point.organizationId, subtree);
    const contentOf = (state: typeof page) => {
      const markdown = markdownOf(state);
      return query.evaluated ? evaluateExpressions(markdown, { space: target.point.variables, page: state.variables }) : markdown;
    };
    const body = presentPage(tree, page, contentOf, app.urls, target.place);
    if (query.format === 'document') {
      const storedDocumentOf = await app.content.documentsOf(target.point.organizationId, subtree);
      const documents = new Map<string, JSONDocument>();
      for (const state of subtree) {
        const markdown = markdownOf(state);
        const evaluated = contentOf(state);
        // Stored documents are made when written; only markdown an evaluation changed is converted here.
        const document = evaluated === markdown ? storedDocumentOf(state) : JSON.parse(await app.conversions.toDocumentJson(evaluated, `the evaluated markdown of page ${state.pageId}`));
        documents.set(state.pageId, document);
      }
      swapMarkdownForDocument(body, (presented) => documents.get(presented.id as string)!);
    }
    return JSON.stringify(body);
  }

  function filesPage(files: FileState[], query: { page?: string; limit?: number }, list: string) {
    const request = app.cursors.request(list, { ...query, order: 'asc' });
    const sorted = files.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0));
    const after = request.after;
    const start = after
      ? sorted.findIndex((file) => file.createdAt.getTime() > after.createdAt.getTime() || (file.createdAt.getTime() === after.createdAt.getTime() && file.fileId > after.id))
      : 0;
    const rest = start === -1 ? [] : sorted.slice(start);
    const items = rest.slice(0, request.limit);
    const last = items.at(-1);
    return {
      ...(rest.length > items.length && last ? { next: { page: app.cursors.encode(list, 'asc', { createdAt: last.createdAt, id: last.fileId }) } } : {}),
      count: sorted.length,
      items: items.map((file) => presentFile(file, fileUrl(file))),
    };
  }

  async function fileOf(target: ContentTarget, fileId: string) {
    const file = (await app.content.tree(target.point)).files.get(fileId);
    if (!file) throw new NotFoundError('No file with this id in this revision');
    return presentFile(file, fileUrl(file));
  }

  const read = { config: { scope: 'space:read' } } as const;
  const tags = ['space-content'];

  // One set of reads per way of naming a revision: the space's current one, a
  // change request's newest one, or any revision by id.
  const ways = [
    {
      prefix: '/spaces/:spaceId/content',
      params: SpaceContentParams,
      ids: { revision: 'getCurrentRevision', pages: 'listPages', files: 'listFiles', file: 'getFileById', page: 'getPageById' },
      target: (params: Record<string, string>, reader: Reader) => spaceTarget(app, params.spaceId!, reader),
      list: (params: Record<string, string>) => `files:${params.spaceId}`,
    },
    {
      prefix: '/spaces/:spaceId/change-requests/:changeRequestId/content',
      params: ChangeRequestContentParams,
      ids: {
        revision: 'getRevisionOfChangeRequestById',
        pages: 'listPagesInChangeRequest',
        files: 'listFilesInChangeRequestById',
        file: 'getFileInChangeRequestById',
        page: 'getPageInChangeRequestById',
      },
      target: (params: Record<string, string>, reader: Reader) => changeRequestTarget(app, params.spaceId!, params.changeRequestId!, reader),
      list: (params: Record<string, string>) => `files:${params.spaceId}:${params.changeRequestId}`,
    },
    {
      prefix: '/spaces/:spaceId/revisions/:revisionId',
      params: RevisionParams,
      ids: { revision: 'getRevisionById', pages: 'listPagesInRevisionById', files: 'listFilesInRevisionById', file: 'getFileInRevisionById', page: 'getPageInRevisionById' },
      target: (params: Record<string, string>, reader: Reader) => revisionTarget(app, params.spaceId!, params.revisionId!, reader),
      list: (params: Record<string, string>) => `files:${params.spaceId}:${params.revisionId}`,
    },
  ];

  for (const way of ways) {
    app.get(
      way.prefix,
      { ...read, schema: { operationId: way.ids.revision, tags, summary: 'The revision: its pages, files and variables', params: way.params, querystring: ContentQuery, response: { 200: RevisionResponse, ...errorResponses } } },
      async (request, reply) => sendBytes(reply.type('application/json; charset=utf-8'), await revisionBody(await way.target(request.params as Record<string, string>, readerOf(request)))),
    );
    app.get(
      `${way.prefix}/pages`,
      { ...read, schema: { operationId: way.ids.pages, tags, summary: 'The page tree, each page with its content', params: way.params, querystring: ContentQuery, response: { 200: Type.Object({ pages: Type.Array(RevisionPageResponse) }), ...errorResponses } } },
      async (request, reply) => {
        const target = await way.target(request.params as Record<string, string>, readerOf(request));
        return sendPreparedJson(request, reply, await app.content.pageTreeBody(target.point, target.place));
      },
    );
    app.get(
      `${way.prefix}/files`,
      { ...read, schema: { operationId: way.ids.files, tags, summary: 'The files, oldest first', params: way.params, querystring: FilesQuery, response: { 200: ListEnvelope(RevisionFileResponse), ...errorResponses } } },
      async (request) => {
        const params = request.params as Record<string, string>;
        const target = await way.target(params, readerOf(request));
        const tree = await app.content.tree(target.point);
        return filesPage([...tree.files.values()], request.query, way.list(params));
      },
    );
    app.get(
      `${way.prefix}/files/:fileId`,
      { ...read, schema: { operationId: way.ids.file, tags, summary: 'One file, with a signed download URL', params: Type.Composite([way.params, Type.Object({ fileId: Type.String({ minLength: 1, maxLength: 128 }) })]), querystring: ContentQuery, response: { 200: RevisionFileResponse, ...errorResponses } } },
      async (request) => {
        const params = request.params as Record<string, string>;
        return fileOf(await way.target(params, readerOf(request)), params.fileId!);
      },
    );
    app.get(
      `${way.prefix}/page/:pageId`,
      { ...read, schema: { operationId: way.ids.page, tags, summary: 'One page and its subpages, as a document or as markdown', params: Type.Composite([way.params, Type.Object({ pageId: Type.String({ minLength: 1, maxLength: 128 }) })]), querystring: PageQuery, response: { 200: RevisionPageResponse, ...errorResponses } } },
      async (request, reply) => {
        const params = request.params as Record<string, string>;
        const target = await way.target(params, readerOf(request));
        const { point, place } = target;
        const build = () => pageJson(target, params.pageId!, request.query);
        // Variables belong to the revision and its page versions, so an evaluated answer is as lasting as a plain one.
        const form = request.query.evaluated ? `${request.query.format}|evaluated` : request.query.format;
        const json = await app.content.pageAnswer(point, place, params.pageId!, form, build);
        return sendJsonText(reply, json);
      },
    );
  }
};

/** The `document` form of a presented page and its subpages: the JSON document in place of the markdown. */
function swapMarkdownForDocument(page: Record<string, unknown>, documentOf: (page: Record<string, unknown>) => JSONDocument): void {
  page.document = documentOf(page);
  delete page.markdown;
  for (const child of page.pages as Record<string, unknown>[]) swapMarkdownForDocument(child, documentOf);
}
