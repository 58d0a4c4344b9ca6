import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../../core/replies.js';
import { callerOf } from '../../access/auth.js';
import { contentRead, readText } from '../read-options.js';
import { readDocumentById, readPageDocument } from './actions.js';
import { DocumentParams, DocumentQuery, DocumentResponse, PageDocumentParams, PageDocumentQuery } from './schemas.js';

const texts = {
  document: {
    summary: 'A document of the space by its id, as a JSON document',
    description:
      'The block tree a page’s or a reusable content’s `document` id names. Members read any document written ' +
      'in the space, its change requests’ included; visitors of a published space only those of its current ' +
      'revision. `schema` may be `current` or `next`: both are the one schema written here.',
  },
  pageDocument: {
    summary: 'The document of a page in a revision, evaluated and dereferenced as asked',
    description:
      'GitBook’s JSON document of the page; `evaluated=true` (or `deterministic-only`) replaces the space’s and ' +
      'the page’s variables by their values; `dereferenced=true` (or `reusable-contents`) replaces each included ' +
      'reusable content of the space by its blocks.',
  },
};

/** Documents by id, and a page's document in any revision. */
export const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/documents/:documentId',
    contentRead('getDocumentById', readText(texts.document, 'space'), DocumentParams, DocumentQuery, DocumentResponse),
    async (request, reply) => {
      const { spaceId, documentId } = request.params;
      const locator = { spaceId, shareKey: request.query.shareKey };
      return sendJsonText(reply, await readDocumentById(app.context, callerOf(request).userId, locator, documentId));
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId/document',
    contentRead(
      'getPageDocumentInRevisionById',
      readText(texts.pageDocument, 'revision'),
      PageDocumentParams,
      PageDocumentQuery,
      DocumentResponse,
    ),
    async (request, reply) => {
      const { spaceId, revisionId, pageId } = request.params;
      const locator = { spaceId, revisionId, shareKey: request.query.shareKey };
      const form = { evaluated: request.query.evaluated !== 'false', dereferenced: request.query.dereferenced };
      return sendJsonText(reply, await readPageDocument(app.context, callerOf(request).userId, locator, pageId, form));
    },
  );
};
