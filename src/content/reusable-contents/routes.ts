import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../../core/replies.js';
import { callerOf } from '../../access/auth.js';
import { contentRead, readText } from '../read-options.js';
import { readReusableContent, readReusableContentDocument } from './actions.js';
import {
  ChangeRequestReusableContentParams,
  ReusableContentDocumentQuery,
  ReusableContentDocumentResponse,
  ReusableContentQuery,
  ReusableContentResponse,
  RevisionReusableContentParams,
  SpaceReusableContentParams,
} from './schemas.js';

const texts = {
  reusableContent: {
    summary: 'One reusable content: its id, title and the id of its document',
    description: 'A reusable content as the `…_reusable_content` changes of a change request wrote it.',
  },
  document: {
    summary: 'The document of a reusable content, as a JSON document, its variables evaluated or not',
    description:
      'GitBook’s JSON document; `evaluated=true` (or `deterministic-only`) replaces the space’s variables by ' +
      'their values.',
  },
};

/**
 * Reusable contents of the space's current revision, of a change request's
 * newest one, and of any revision by id, with the document of the last.
 */
export const reusableContentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/content/reusable-contents/:reusableContentId',
    contentRead(
      'getReusableContentById',
      readText(texts.reusableContent, 'space'),
      SpaceReusableContentParams,
      ReusableContentQuery,
      ReusableContentResponse,
    ),
    async (request) => {
      const { spaceId, reusableContentId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return readReusableContent(app.context, callerOf(request).userId, locator, reusableContentId);
    },
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents/:reusableContentId',
    contentRead(
      'getReusableContentInChangeRequestById',
      readText(texts.reusableContent, 'changeRequest'),
      ChangeRequestReusableContentParams,
      ReusableContentQuery,
      ReusableContentResponse,
    ),
    async (request) => {
      const { spaceId, changeRequestId, reusableContentId } = request.params;
      const locator = { spaceId, changeRequestId };
      return readReusableContent(app.context, callerOf(request).userId, locator, reusableContentId);
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId',
    contentRead(
      'getReusableContentInRevisionById',
      readText(texts.reusableContent, 'revision'),
      RevisionReusableContentParams,
      ReusableContentQuery,
      ReusableContentResponse,
    ),
    async (request) => {
      const { spaceId, revisionId, reusableContentId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      return readReusableContent(app.context, callerOf(request).userId, locator, reusableContentId);
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document',
    contentRead(
      'getReusableContentDocumentInRevisionById',
      readText(texts.document, 'revision'),
      RevisionReusableContentParams,
      ReusableContentDocumentQuery,
      ReusableContentDocumentResponse,
    ),
    async (request, reply) => {
      const { spaceId, revisionId, reusableContentId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      const evaluated = request.query.evaluated !== 'false';
      return sendJsonText(
        reply,
        await readReusableContentDocument(app.context, callerOf(request).userId, locator, reusableContentId, evaluated),
      );
    },
  );
};
