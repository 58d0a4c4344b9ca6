import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../../core/replies.js';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import {
  readChangeRequestChanges,
  readChangeRequestPageDiff,
  readRevisionChanges,
  readRevisionPageDiff,
} from './actions.js';
import {
  ChangeRequestChangesQuery,
  ChangeRequestContentParams,
  ChangeRequestPageParams,
  PageDiffResponse,
  RevisionChangesQuery,
  RevisionPageParams,
  RevisionParams,
  RevisionSemanticChangesResponse,
} from './schemas.js';

const MEMBERS =
  'Needs a role on the space (to anyone else, 404): a diff shows unpublished and older content. ' +
  'Computed once per pair of revisions, off the event loop, and stored: later calls read it back.';

const CHANGE_LIST =
  'Pages created, moved, edited (title, slug, document, emoji, description, cover, layout, variables; a link’s ' +
  'target) and deleted, in the page tree’s order; then files, the space’s variables and reusable contents. ' +
  '`limit` (default 10, at most 1000) lists the first changes and `more` counts the others. Each page whose ' +
  'document changed is diffed block by block: read it from the page diff route beside this one.';

const PAGE_DIFF =
  'Quire’s own: GitBook’s spec names a page’s document change only by the ids of its documents. The top-level ' +
  'blocks of the page’s document before and after, each `unchanged`, `inserted`, `deleted` or `edited` (with, ' +
  'for a code block, its `lines` and, for a table, its `rows`, each unchanged, inserted, deleted or edited); ' +
  '`tooLarge` instead of `blocks` for documents past the diff’s bound. A page on either side whose document did ' +
  'not change has no blocks; a page on neither side is a 404.';

/**
 * What a change request or a revision changes, as GitBook's semantic
 * changes, and each changed page's document diffed block by block.
 */
export const semanticChangesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/changes',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getChangeRequestChanges',
        tags: ['change-requests'],
        summary: 'What the change request changes over its base',
        description:
          'From the space’s revision the change request builds on (where it was opened, or last updated from ' +
          `the space) to its current revision. ${CHANGE_LIST} ${MEMBERS}`,
        params: ChangeRequestContentParams,
        querystring: ChangeRequestChangesQuery,
        response: { 200: RevisionSemanticChangesResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const body = await readChangeRequestChanges(
        app.context,
        callerOf(request).userId,
        { spaceId, changeRequestId },
        request.query.limit ?? 10,
      );
      return sendJsonText(reply, JSON.stringify(body));
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/changes/pages/:pageId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getChangeRequestPageDiff',
        tags: ['change-requests'],
        summary: 'A page of the change request diffed block by block against its base',
        description: `${PAGE_DIFF} ${MEMBERS}`,
        params: ChangeRequestPageParams,
        response: { 200: PageDiffResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      const target = { spaceId, changeRequestId, pageId };
      return sendJsonText(reply, await readChangeRequestPageDiff(app.context, callerOf(request).userId, target));
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/changes',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getRevisionSemanticChanges',
        tags: ['space-content'],
        summary: 'What the revision changed over its parent',
        description:
          'From the revision it was made from (its first parent; the space’s first revision is compared with ' +
          `nothing) to it; a merge’s answer names the change request merged in \`mergedFrom\`. ${CHANGE_LIST} ` +
          `\`metadata\` and \`computed\` are accepted as GitBook has them and change nothing here. ${MEMBERS}`,
        params: RevisionParams,
        querystring: RevisionChangesQuery,
        response: { 200: RevisionSemanticChangesResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId } = request.params;
      const body = await readRevisionChanges(
        app.context,
        callerOf(request).userId,
        { spaceId, revisionId },
        request.query.limit ?? 10,
      );
      return sendJsonText(reply, JSON.stringify(body));
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/changes/pages/:pageId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getRevisionPageDiff',
        tags: ['space-content'],
        summary: 'A page of the revision diffed block by block against its parent',
        description: `${PAGE_DIFF} ${MEMBERS}`,
        params: RevisionPageParams,
        response: { 200: PageDiffResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId, pageId } = request.params;
      const target = { spaceId, revisionId, pageId };
      return sendJsonText(reply, await readRevisionPageDiff(app.context, callerOf(request).userId, target));
    },
  );
};
