import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChangeRequestParams, errorResponses, SpaceParams } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { importIntoChangeRequest, importIntoSpace } from './actions.js';
import { HtmlReader } from './reader.js';
import { ImportContentBody, ImportContentResult } from './schemas.js';

const description =
  'source website crawls the site of url (same origin, breadth-first, as robots.txt allows, within the ' +
  'import limits): its pages become a page tree after the existing pages, with their images as files and ' +
  'their links to each other as page links; a page that fails is counted in totalResources, not imported. ' +
  'source markdown imports the one markdown file at url as a page. An organization runs a few imports at once ' +
  '(IMPORT_MAX_RUNNING_PER_ORGANIZATION), the service a few more (IMPORT_MAX_RUNNING), on all its instances ' +
  'together: one more is answered 429 with Retry-After, before anything is fetched.';

/** Imports of websites and markdown files into a space or a change request. */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const reader = new HtmlReader(app.context.workPools.html);

  app.post(
    '/spaces/:spaceId/content/import',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'importContent',
        tags: ['space-content'],
        summary: 'Import a website or a markdown file into the space, as a new revision of it',
        description,
        params: SpaceParams,
        body: ImportContentBody,
        response: { 201: ImportContentResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId } = request.params;
      const result = await importIntoSpace(app.context, reader, callerOf(request).userId, spaceId, request.body);
      const location = app.context.urls.api('spaces', spaceId, 'revisions', result.revision);
      return reply.code(201).header('location', location).send(result);
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/import',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'importContentInChangeRequest',
        tags: ['change-requests'],
        summary: 'Import a website or a markdown file into the change request, as a new revision of it',
        description,
        params: ChangeRequestParams,
        body: ImportContentBody,
        response: { 201: ImportContentResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const userId = callerOf(request).userId;
      const result = await importIntoChangeRequest(app.context, reader, userId, spaceId, changeRequestId, request.body);
      const location = app.context.urls.api('spaces', spaceId, 'revisions', result.revision);
      return reply.code(201).header('location', location).send(result);
    },
  );
};
