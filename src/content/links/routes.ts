import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { sendJsonText } from '../../core/replies.js';
import { ChangeRequestParams, errorResponses, SpaceParams } from '../../core/schemas.js';
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

/** The options of a link read: every one needs `space:read` (and a role on the space) and answers in the spec's forms. */
function linksRead<Params extends TSchema, Query extends TSchema, Response extends TSchema>(
  operationId: string,
  summary: string,
  params: Params,
  querystring: Query,
  response: Response,
) {
  return {
    config: { scope: 'space:read' },
    schema: {
      operationId,
      tags: ['space-content'],
      summary,
      params,
      querystring,
      response: { 200: response, ...errorResponses },
    },
  } as const;
}

/**
 * Link checking and backlinks of the space's current revision and of a
 * change request's newest one, read from the links stored with each page.
 */
export const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // One report per revision, made on first read and kept: revisions never change.
  const reports = new LinkReports(app.context);

  app.get(
    '/spaces/:spaceId/links',
    linksRead('listSpaceLinks', summaries.links, SpaceParams, LinksQuery, LinksResponse),
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
    linksRead('listPageLinksInSpace', summaries.pageLinks, SpacePageParams, LinksQuery, LinksResponse),
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listPageLinks(app.context, reports, userId, { spaceId }, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/content/files/:fileId/backlinks',
    linksRead('listSpaceFileBacklinks', summaries.fileBacklinks, SpaceFileParams, BacklinksQuery, BacklinksResponse),
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
    linksRead('listSpacePageBacklinks', summaries.pageBacklinks, SpacePageParams, BacklinksQuery, BacklinksResponse),
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
    linksRead('listChangeRequestLinks', summaries.links, ChangeRequestParams, ChangeRequestLinksQuery, LinksResponse),
    async (request, reply) => {
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listLinks(app.context, reports, userId, request.params, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links',
    linksRead('listPageLinksInChangeRequest', summaries.pageLinks, ChangeRequestPageParams, LinksQuery, LinksResponse),
    async (request, reply) => {
      const { pageId, ...locator } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listPageLinks(app.context, reports, userId, locator, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files/:fileId/backlinks',
    linksRead(
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
    linksRead(
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
