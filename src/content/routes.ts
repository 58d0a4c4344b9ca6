import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendBytes, sendJsonText, sendPreparedJson } from '../core/replies.js';
import { ListEnvelope } from '../core/schemas.js';
import { callerOf } from '../model/access/auth.js';
import { contentRead } from './read-options.js';
import { listFiles, readFile, readPage, readPageAtPath, readPageTree, readRevision } from './actions.js';
import { linkRoutes } from './links/routes.js';
import { reusableContentRoutes } from './reusable-contents/routes.js';
import {
  ChangeRequestContentParams,
  ChangeRequestFileParams,
  ChangeRequestPageParams,
  ChangeRequestPagePathParams,
  ContentQuery,
  FilesQuery,
  PageQuery,
  PageTreeResponse,
  RevisionFileParams,
  RevisionFileResponse,
  RevisionPageParams,
  RevisionPagePathParams,
  RevisionPageResponse,
  RevisionParams,
  RevisionResponse,
  SpaceContentParams,
  SpaceFileParams,
  SpacePageParams,
  SpacePagePathParams,
} from './schemas.js';

const FilesResponse = ListEnvelope(RevisionFileResponse);

const summaries = {
  revision: 'The revision: its pages, files and variables',
  pages: 'The page tree, each page with its content',
  files: 'The files, oldest first',
  file: 'One file, with a signed download URL',
  page: 'One page and its subpages, as a document or as markdown',
  pageByPath: 'The page at a path (its slugs from the top level, joined by /) and its subpages',
};

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The routes that read one revision's content, for each way of naming the
 * revision: the space's current one, a change request's newest one, or any
 * revision by id.
 */
export const contentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(linkRoutes);
  await app.register(reusableContentRoutes);

  // The space's current revision.
  app.get(
    '/spaces/:spaceId/content',
    contentRead('getCurrentRevision', summaries.revision, SpaceContentParams, ContentQuery, RevisionResponse),
    async (request, reply) => {
      const { spaceId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return sendBytes(
        reply.type(JSON_TYPE),
        await readRevision(app.context, callerOf(request).userId, locator, request.query.computed),
      );
    },
  );
  app.get(
    '/spaces/:spaceId/content/pages',
    contentRead('listPages', summaries.pages, SpaceContentParams, ContentQuery, PageTreeResponse),
    async (request, reply) => {
      const { spaceId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return sendPreparedJson(
        request,
        reply,
        await readPageTree(app.context, callerOf(request).userId, locator, request.query.computed),
      );
    },
  );
  app.get(
    '/spaces/:spaceId/content/files',
    contentRead('listFiles', summaries.files, SpaceContentParams, FilesQuery, FilesResponse),
    async (request) => {
      const { spaceId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return listFiles(app.context, callerOf(request).userId, locator, request.query);
    },
  );
  app.get(
    '/spaces/:spaceId/content/files/:fileId',
    contentRead('getFileById', summaries.file, SpaceFileParams, ContentQuery, RevisionFileResponse),
    async (request) => {
      const { spaceId, fileId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return readFile(app.context, callerOf(request).userId, locator, fileId);
    },
  );
  app.get(
    '/spaces/:spaceId/content/page/:pageId',
    contentRead('getPageById', summaries.page, SpacePageParams, PageQuery, RevisionPageResponse),
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return sendJsonText(reply, await readPage(app.context, callerOf(request).userId, locator, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/content/path/*',
    contentRead('getPageByPath', summaries.pageByPath, SpacePagePathParams, PageQuery, RevisionPageResponse),
    async (request, reply) => {
      const { spaceId, '*': path } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return sendJsonText(
        reply,
        await readPageAtPath(app.context, callerOf(request).userId, locator, path, request.query),
      );
    },
  );

  // A change request's newest revision.
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    contentRead(
      'getRevisionOfChangeRequestById',
      summaries.revision,
      ChangeRequestContentParams,
      ContentQuery,
      RevisionResponse,
    ),
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const locator = { spaceId, changeRequestId };
      return sendBytes(
        reply.type(JSON_TYPE),
        await readRevision(app.context, callerOf(request).userId, locator, request.query.computed),
      );
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/pages',
    contentRead(
      'listPagesInChangeRequest',
      summaries.pages,
      ChangeRequestContentParams,
      ContentQuery,
      PageTreeResponse,
    ),
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const locator = { spaceId, changeRequestId };
      return sendPreparedJson(
        request,
        reply,
        await readPageTree(app.context, callerOf(request).userId, locator, request.query.computed),
      );
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files',
    contentRead('listFilesInChangeRequestById', summaries.files, ChangeRequestContentParams, FilesQuery, FilesResponse),
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const locator = { spaceId, changeRequestId };
      return listFiles(app.context, callerOf(request).userId, locator, request.query);
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId',
    contentRead(
      'getFileInChangeRequestById',
      summaries.file,
      ChangeRequestFileParams,
      ContentQuery,
      RevisionFileResponse,
    ),
    async (request) => {
      const { spaceId, changeRequestId, fileId } = request.params;
      const locator = { spaceId, changeRequestId };
      return readFile(app.context, callerOf(request).userId, locator, fileId);
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId',
    contentRead('getPageInChangeRequestById', summaries.page, ChangeRequestPageParams, PageQuery, RevisionPageResponse),
    async (request, reply) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      const locator = { spaceId, changeRequestId };
      return sendJsonText(reply, await readPage(app.context, callerOf(request).userId, locator, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/path/*',
    contentRead(
      'getPageInChangeRequestByPath',
      summaries.pageByPath,
      ChangeRequestPagePathParams,
      PageQuery,
      RevisionPageResponse,
    ),
    async (request, reply) => {
      const { spaceId, changeRequestId, '*': path } = request.params;
      const locator = { spaceId, changeRequestId };
      return sendJsonText(
        reply,
        await readPageAtPath(app.context, callerOf(request).userId, locator, path, request.query),
      );
    },
  );

  // Any revision of the space, by id.
  app.get(
    '/spaces/:spaceId/revisions/:revisionId',
    contentRead('getRevisionById', summaries.revision, RevisionParams, ContentQuery, RevisionResponse),
    async (request, reply) => {
      const { spaceId, revisionId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return sendBytes(
        reply.type(JSON_TYPE),
        await readRevision(app.context, callerOf(request).userId, locator, request.query.computed),
      );
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/pages',
    contentRead('listPagesInRevisionById', summaries.pages, RevisionParams, ContentQuery, PageTreeResponse),
    async (request, reply) => {
      const { spaceId, revisionId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return sendPreparedJson(
        request,
        reply,
        await readPageTree(app.context, callerOf(request).userId, locator, request.query.computed),
      );
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files',
    contentRead('listFilesInRevisionById', summaries.files, RevisionParams, FilesQuery, FilesResponse),
    async (request) => {
      const { spaceId, revisionId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return listFiles(app.context, callerOf(request).userId, locator, request.query);
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files/:fileId',
    contentRead('getFileInRevisionById', summaries.file, RevisionFileParams, ContentQuery, RevisionFileResponse),
    async (request) => {
      const { spaceId, revisionId, fileId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return readFile(app.context, callerOf(request).userId, locator, fileId);
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId',
    contentRead('getPageInRevisionById', summaries.page, RevisionPageParams, PageQuery, RevisionPageResponse),
    async (request, reply) => {
      const { spaceId, revisionId, pageId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return sendJsonText(reply, await readPage(app.context, callerOf(request).userId, locator, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/path/*',
    contentRead(
      'getPageInRevisionByPath',
      summaries.pageByPath,
      RevisionPagePathParams,
      PageQuery,
      RevisionPageResponse,
    ),
    async (request, reply) => {
      const { spaceId, revisionId, '*': path } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return sendJsonText(
        reply,
        await readPageAtPath(app.context, callerOf(request).userId, locator, path, request.query),
      );
    },
  );
};
