import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../../core/replies.js';
import { ChangeRequestParams, SpaceParams } from '../../core/schemas.js';
import { contentRead } from '../read-options.js';
import { callerOf } from '../../model/access/auth.js';
import { ChangeRequestFileParams, ChangeRequestPageParams, SpaceFileParams, SpacePageParams } from '../schemas.js';
import { listFileBacklinks, listLinks, listPageBacklinks, listPageLinks } from './actions.js';
import { LinkReports } from './reports.js';
import { BacklinksQuery, BacklinksResponse, ChangeRequestLinksQuery, LinksQuery, LinksResponse } from './schemas.js';

const summaries = {
  links: 'Every link and image of the revision, one item per target, with its status and the pages that use it',
  pageLinks: 'The links and images of one page, with their status',
  fileBacklinks: 'The pages that link to the file or show it',
  pageBacklinks: 'The other pages that link to the page or to one of its anchors',
};

/**
 * Link checking and backlinks of the space's current revision and of a
 * change request's newest one, read from the links stored with each page.
 */
export const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // One report per revision, made on first read and kept: revisions never change.
  const reports = new LinkReports(app.context);

  app.get(
    '/spaces/:spaceId/links',
    contentRead('listSpaceLinks', summaries.links, SpaceParams, LinksQuery, LinksResponse),
    async (request, reply) => {
      const locator = { spaceId: request.params.spaceId };
      return sendJsonText(
        reply,
        await listLinks(app.context, reports, callerOf(request).userId, locator, request.query),
      );
    },
  );
  app.get(
    '/spaces/:spaceId/content/page/:pageId/links',
    contentRead('listPageLinksInSpace', summaries.pageLinks, SpacePageParams, LinksQuery, LinksResponse),
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listPageLinks(app.context, reports, userId, { spaceId }, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/content/files/:fileId/backlinks',
    contentRead('listSpaceFileBacklinks', summaries.fileBacklinks, SpaceFileParams, BacklinksQuery, BacklinksResponse),
    async (request, reply) => {
      const { spaceId, fileId } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(
        reply,
        await listFileBacklinks(app.context, reports, userId, { spaceId }, fileId, request.query),
      );
    },
  );
  app.get(
    '/spaces/:spaceId/content/page/:pageId/backlinks',
    contentRead('listSpacePageBacklinks', summaries.pageBacklinks, SpacePageParams, BacklinksQuery, BacklinksResponse),
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(
        reply,
        await listPageBacklinks(app.context, reports, userId, { spaceId }, pageId, request.query),
      );
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/links',
    contentRead('listChangeRequestLinks', summaries.links, ChangeRequestParams, ChangeRequestLinksQuery, LinksResponse),
    async (request, reply) => {
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listLinks(app.context, reports, userId, request.params, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links',
    contentRead(
      'listPageLinksInChangeRequest',
      summaries.pageLinks,
      ChangeRequestPageParams,
      LinksQuery,
      LinksResponse,
    ),
    async (request, reply) => {
      const { pageId, ...locator } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listPageLinks(app.context, reports, userId, locator, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks',
    contentRead(
      'listChangeRequestFileBacklinks',
      summaries.fileBacklinks,
      ChangeRequestFileParams,
      BacklinksQuery,
      BacklinksResponse,
    ),
    async (request, reply) => {
      const { fileId, ...locator } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listFileBacklinks(app.context, reports, userId, locator, fileId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/backlinks',
    contentRead(
      'listChangeRequestPageBacklinks',
      summaries.pageBacklinks,
      ChangeRequestPageParams,
      BacklinksQuery,
      BacklinksResponse,
    ),
    async (request, reply) => {
      const { pageId, ...locator } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listPageBacklinks(app.context, reports, userId, locator, pageId, request.query));
    },
  );
};
