import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../../core/replies.js';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { computeDocument, computeRevision } from './actions.js';
import {
  ComputedBody,
  ComputedDocumentQuery,
  ComputedDocumentResponse,
  ComputedParams,
  ComputedRevisionResponse,
} from './schemas.js';

const WHO =
  'Needs a role on the space and membership of its organization, whose specs these are. An OpenAPI source ' +
  '(`builtin:openapi`) is made from the newest version of the organization’s spec it names; a translation ' +
  '(`builtin:translation`, GitBook’s hosted service) or an integration’s source (`integration:…`, made by its ' +
  'own code) does not run here and is a 400.';

/** Content computed from a source, without writing it: what a computed page would show. */
export const computedSourceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/content/computed/document',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getComputedDocument',
        tags: ['space-content'],
        summary: 'Compute the document of one page of an OpenAPI spec',
        description:
          '`props.doc` names the page: `info` (the spec’s title, version and tags), `operations` or `tag` (the ' +
          'operations of the tag `page`), `operation` (the operation at the path `page` with `method`), or ' +
          `\`models\`. An unknown tag or operation is a 404. ${WHO}`,
        params: ComputedParams,
        querystring: ComputedDocumentQuery,
        body: ComputedBody,
        response: { 200: ComputedDocumentResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sendJsonText(
        reply,
        await computeDocument(app.context, callerOf(request).userId, request.params.spaceId, request.body),
      ),
  );
  app.post(
    '/spaces/:spaceId/content/computed/revision',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getComputedRevision',
        tags: ['space-content'],
        summary: 'Compute the pages an OpenAPI spec makes',
        description:
          'The pages a computed page of the spec would show below itself: one per tag with its operations, and ' +
          'one of models where `props.models` asks for it (operations are grouped by tag whatever `grouping` ' +
          `says, as computed pages here are), their ids made from \`seed\`; no files or reusable contents. ${WHO}`,
        params: ComputedParams,
        body: ComputedBody,
        response: { 200: ComputedRevisionResponse, ...errorResponses },
      },
    },
    async (request, reply) =>
      sendJsonText(
        reply,
        await computeRevision(app.context, callerOf(request).userId, request.params.spaceId, request.body),
      ),
  );
};
