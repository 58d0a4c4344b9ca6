import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../core/replies.js';
import { ChangeRequestParams, SpaceParams } from '../core/schemas.js';
import { contentRead, type OperationText } from '../content/read-options.js';
import { callerOf } from '../access/auth.js';
import {
  ChangeRequestFileParams,
  ChangeRequestPageParams,
  SpaceFileParams,
  SpacePageParams,
} from '../content/schemas.js';
import { listFileBacklinks, listLinks, listPageBacklinks, listPageLinks } from './actions.js';
import { LinkReports } from './reports.js';
import { BacklinksQuery, BacklinksResponse, ChangeRequestLinksQuery, LinksQuery, LinksResponse } from './schemas.js';

// Editorial tools: reading the space's published side is not enough.
const WHO =
  'Needs a role on the space. Read from the links recorded when each page was written; ' +
  'external URLs are never fetched.';

const texts = {
  links: {
    summary: 'Every link and image of the revision, one item per target, with its status and the pages that use it',
    description:
      'A target is `ok`, `broken` (a page, anchor or file that is not in the content) or `in-app` (an ' +
      'absolute URL into this service, better written as a page link); `status` filters, `stats` counts every ' +
      'link.',
  },
  changeRequestLinks: {
    summary: 'Every link and image of the revision, one item per target, with its status and the pages that use it',
    description:
      'The report of the change request’s newest revision: `stats.broken.changeRequest` counts the links the ' +
      'change request breaks, and `brokenContext=change-request` lists only those, for a review before the merge.',
  },
  pageLinks: {
    summary: 'The links and images of one page, with their status',
    description: 'The revision’s link report, for the targets one page links to or shows.',
  },
  fileBacklinks: {
    summary: 'The pages that link to the file or show it',
    description: 'One item per page that shows or links to the file, by page path.',
  },
  pageBacklinks: {
    summary: 'The other pages that link to the page or to one of its anchors',
    description: 'One item per page that links to this one, by page path, with the anchor when the link names one.',
  },
};

function text(name: keyof typeof texts): OperationText {
  return { summary: texts[name].summary, description: `${texts[name].description} ${WHO}` };
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
    contentRead('listSpaceLinks', text('links'), SpaceParams, LinksQuery, LinksResponse),
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
    contentRead('listPageLinksInSpace', text('pageLinks'), SpacePageParams, LinksQuery, LinksResponse),
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listPageLinks(app.context, reports, userId, { spaceId }, pageId, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/content/files/:fileId/backlinks',
    contentRead('listSpaceFileBacklinks', text('fileBacklinks'), SpaceFileParams, BacklinksQuery, BacklinksResponse),
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
    contentRead('listSpacePageBacklinks', text('pageBacklinks'), SpacePageParams, BacklinksQuery, BacklinksResponse),
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
    contentRead(
      'listChangeRequestLinks',
      text('changeRequestLinks'),
      ChangeRequestParams,
      ChangeRequestLinksQuery,
      LinksResponse,
    ),
    async (request, reply) => {
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await listLinks(app.context, reports, userId, request.params, request.query));
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/links',
    contentRead('listPageLinksInChangeRequest', text('pageLinks'), ChangeRequestPageParams, LinksQuery, LinksResponse),
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
      text('fileBacklinks'),
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
      text('pageBacklinks'),
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
