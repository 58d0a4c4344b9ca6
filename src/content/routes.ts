import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendBytes, sendJsonText, sendPreparedJson } from '../core/replies.js';
import { ListEnvelope } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { versionOf } from '../cache-versions.js';
import type { CacheVersion } from '../core/http-cache.js';
import { contentRead, readText } from './read-options.js';
import { listFiles, readFile, readPage, readPageAtPath, readPageTree, readRevision } from './actions.js';
import { reusableContentRoutes } from './reusable-contents/routes.js';
import { documentRoutes } from './documents/routes.js';
import { metaLinkRoutes } from './meta-links/routes.js';
import { computedSourceRoutes } from './computed-sources/routes.js';
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

/** What each read gives, whichever revision it names. */
const reads = {
  revision: {
    summary: 'The revision: its pages, files and variables',
    description:
      'GitBook’s Revision object whole: the page tree, the files with signed download URLs, and the variables.',
  },
  pages: {
    summary: 'The page tree, each page with its content',
    description:
      'Made once per revision and served gzip to clients that accept it, with an ETag: ' +
      'If-None-Match answers 304 until the content changes.',
  },
  files: {
    summary: 'The files, oldest first',
    description: 'A page of the revision’s files (`limit`, `page`), each with a signed `downloadURL` that expires.',
  },
  file: {
    summary: 'One file, with a signed download URL',
    description: 'Its name, content type and size; the `downloadURL` needs no token until it expires.',
  },
  page: {
    summary: 'One page and its subpages, as a document or as markdown',
    description:
      '`format=markdown` reads the page as markdown, else as GitBook’s JSON document; `evaluated=true` ' +
      'replaces the space’s and the page’s variables by their values; `computed=false` shows a computed page ' +
      'as written.',
  },
  pageByPath: {
    summary: 'The page at a path (its slugs from the top level, joined by /) and its subpages',
    description:
      'The path is the page’s slugs joined by `/`, such as `guide/setup`, and the options are those of a read by id; ' +
      'a path that names no page is a 404.',
  },
};

const JSON_TYPE = 'application/json; charset=utf-8';

/** A read's options with its answers kept under `version` (src/core/http-cache.ts). */
const keptUnder = <Options extends { config: object }>(options: Options, version: CacheVersion) => ({
  ...options,
  config: { ...options.config, cache: version },
});

/**
 * The routes that read one revision's content, for each way of naming the
 * revision: the space's current one, a change request's newest one, or any
 * revision by id.
 */
export const contentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(reusableContentRoutes);
  await app.register(documentRoutes);
  await app.register(metaLinkRoutes);
  await app.register(computedSourceRoutes);

  // The space's current revision.
  app.get(
    '/spaces/:spaceId/content',
    contentRead(
      'getCurrentRevision',
      readText(reads.revision, 'space'),
      SpaceContentParams,
      ContentQuery,
      RevisionResponse,
    ),
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
    contentRead('listPages', readText(reads.pages, 'space'), SpaceContentParams, ContentQuery, PageTreeResponse),
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
    contentRead('listFiles', readText(reads.files, 'space'), SpaceContentParams, FilesQuery, FilesResponse),
    async (request) => {
      const { spaceId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return listFiles(app.context, callerOf(request).userId, locator, request.query);
    },
  );
  app.get(
    '/spaces/:spaceId/content/files/:fileId',
    contentRead('getFileById', readText(reads.file, 'space'), SpaceFileParams, ContentQuery, RevisionFileResponse),
    async (request) => {
      const { spaceId, fileId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return readFile(app.context, callerOf(request).userId, locator, fileId);
    },
  );
  app.get(
    '/spaces/:spaceId/content/page/:pageId',
    keptUnder(
      contentRead('getPageById', readText(reads.page, 'space'), SpacePageParams, PageQuery, RevisionPageResponse),
      versionOf.spaceContent,
    ),
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return sendJsonText(reply, await readPage(app.context, callerOf(request).userId, locator, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/content/path/*',
    keptUnder(
      contentRead(
        'getPageByPath',
        readText(reads.pageByPath, 'space'),
        SpacePagePathParams,
        PageQuery,
        RevisionPageResponse,
      ),
      versionOf.spaceContent,
    ),
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
      readText(reads.revision, 'changeRequest'),
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
      readText(reads.pages, 'changeRequest'),
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
    contentRead(
      'listFilesInChangeRequestById',
      readText(reads.files, 'changeRequest'),
      ChangeRequestContentParams,
      FilesQuery,
      FilesResponse,
    ),
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
      readText(reads.file, 'changeRequest'),
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
    contentRead(
      'getPageInChangeRequestById',
      readText(reads.page, 'changeRequest'),
      ChangeRequestPageParams,
      PageQuery,
      RevisionPageResponse,
    ),
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
      readText(reads.pageByPath, 'changeRequest'),
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
    contentRead(
      'getRevisionById',
      readText(reads.revision, 'revision'),
      RevisionParams,
      ContentQuery,
      RevisionResponse,
    ),
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
    contentRead(
      'listPagesInRevisionById',
      readText(reads.pages, 'revision'),
      RevisionParams,
      ContentQuery,
      PageTreeResponse,
    ),
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
    contentRead(
      'listFilesInRevisionById',
      readText(reads.files, 'revision'),
      RevisionParams,
      FilesQuery,
      FilesResponse,
    ),
    async (request) => {
      const { spaceId, revisionId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return listFiles(app.context, callerOf(request).userId, locator, request.query);
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files/:fileId',
    contentRead(
      'getFileInRevisionById',
      readText(reads.file, 'revision'),
      RevisionFileParams,
      ContentQuery,
      RevisionFileResponse,
    ),
    async (request) => {
      const { spaceId, revisionId, fileId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return readFile(app.context, callerOf(request).userId, locator, fileId);
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId',
    contentRead(
      'getPageInRevisionById',
      readText(reads.page, 'revision'),
      RevisionPageParams,
      PageQuery,
      RevisionPageResponse,
    ),
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
      readText(reads.pageByPath, 'revision'),
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
