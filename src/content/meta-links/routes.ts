import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../access/auth.js';
import { contentRead, readText } from '../read-options.js';
import { ChangeRequestPageParams, RevisionPageParams, SpacePageParams } from '../schemas.js';
import { readPageMetaLinks } from './actions.js';
import { MetaLinksQuery, RevisionPageMetaLinksSchema } from './schemas.js';

const metaLinks = {
  summary: 'A page’s meta links: its canonical page, and the pages before, after and above it',
  description:
    '`canonical` is the page itself in its space: nothing copies pages between spaces here, as GitBook’s ' +
    'translations do, so `alternates` is empty. `previous` and `next` are the pages before and after it in ' +
    'reading order (document pages, not hidden), `parent` the page above it; each absent where there is none.',
};

/** The meta links of a page, in the space's current revision, a change request's, or any revision. */
export const metaLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/content/page/:pageId/meta-links',
    contentRead(
      'listSpacePageMetaLinks',
      readText(metaLinks, 'space'),
      SpacePageParams,
      MetaLinksQuery,
      RevisionPageMetaLinksSchema,
    ),
    async (request) => {
      const { spaceId, pageId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return readPageMetaLinks(app.context, callerOf(request).userId, locator, pageId);
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId/meta-links',
    contentRead(
      'listChangeRequestPageMetaLinks',
      readText(metaLinks, 'changeRequest'),
      ChangeRequestPageParams,
      MetaLinksQuery,
      RevisionPageMetaLinksSchema,
    ),
    async (request) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      return readPageMetaLinks(app.context, callerOf(request).userId, { spaceId, changeRequestId }, pageId);
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId/meta-links',
    contentRead(
      'listRevisionPageMetaLinks',
      readText(metaLinks, 'revision'),
      RevisionPageParams,
      MetaLinksQuery,
      RevisionPageMetaLinksSchema,
    ),
    async (request) => {
      const { spaceId, revisionId, pageId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return readPageMetaLinks(app.context, callerOf(request).userId, locator, pageId);
    },
  );
};
