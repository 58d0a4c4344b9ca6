import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, ChangeRequestParams, SpaceParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { ChangeRequestSchema } from '../content/change-request-schemas.js';
import {
  createChangeRequest,
  getChangeRequest,
  mergeChangeRequest,
  updateChangeRequest,
  updateChangeRequestContent,
  updateChangeRequestFromSpace,
} from './actions.js';
import { importRoutes } from './import/routes.js';
import { listSpaceChangeRequests } from './listings/actions.js';
import { changeRequestListingRoutes } from './listings/routes.js';
import { SpaceChangeRequestsQuery } from './listings/schemas.js';
import {
  CreateChangeRequestBody,
  MergeResult,
  UpdateChangeRequestBody,
  UpdateContentBody,
  UpdateContentQuery,
  UpdateFromSpaceResult,
} from './schemas.js';
import { versionOf } from '../cache-versions.js';

const ChangeRequest = ref(ChangeRequestSchema);
const tags = ['change-requests'];

export const changeRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/change-requests',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'createChangeRequest',
        tags,
        summary: 'Open a change request on the space’s current revision',
        description:
          'Needs the `edit` role on the space, which must not be locked (403). The change request starts as a ' +
          '`draft`, based on the space’s current revision, numbered next in the space; its content is written ' +
          'with the content operation and merged with the merge operation. A `description` (a JSON document, at ' +
          'most 20,000 characters as markdown) is stored as markdown and answered as the document made from it.',
        params: SpaceParams,
        body: CreateChangeRequestBody,
        response: { 201: ChangeRequest, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await createChangeRequest(
        app.context,
        callerOf(request).userId,
        request.params.spaceId,
        request.body,
      );
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      config: { scope: 'space:read', cache: versionOf.changeRequests },
      schema: {
        operationId: 'listChangeRequestsForSpace',
        tags,
        summary: 'The space’s change requests with one status (default open), newest first',
        description:
          'For members with a role on the space (to anyone else, 404). `status` picks one status, `open` by ' +
          'default; `creator`, `contributor` and `requestedReviewer` keep those a user opened, wrote in, or is ' +
          'asked to review and has not; `orderBy` is `updatedAt` (default) or `createdAt`. `topic` names a site ' +
          'topic, which this service links no change request to: the list is empty.',
        params: SpaceParams,
        querystring: SpaceChangeRequestsQuery,
        response: { 200: ListEnvelope(ChangeRequest), ...errorResponses },
      },
    },
    async (request) =>
      listSpaceChangeRequests(app.context, callerOf(request).userId, request.params.spaceId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { scope: 'space:read', cache: versionOf.changeRequests },
      schema: {
        operationId: 'getChangeRequestById',
        tags,
        summary: 'A change request, by id or by number',
        description:
          'For members with a role on the space. `changeRequestId` is its id or its number in the space; ' +
          '`outdated` is true while its base is behind the space’s current revision.',
        params: ChangeRequestParams,
        response: { 200: ChangeRequest, ...errorResponses },
      },
    },
    async (request) =>
      getChangeRequest(app.context, callerOf(request).userId, request.params.spaceId, request.params.changeRequestId),
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateChangeRequestById',
        tags,
        summary: 'Change a change request’s subject or status',
        description:
          'Needs the `edit` role on the space. `status` moves between `draft`, `open` and `archived`; an ' +
          'archived change request takes no content until it is reopened, and a merged one no longer changes ' +
          '(409). `description` replaces the description (a JSON document), null removes it.',
        params: ChangeRequestParams,
        body: UpdateChangeRequestBody,
        response: { 200: ChangeRequest, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return updateChangeRequest(app.context, callerOf(request).userId, spaceId, changeRequestId, request.body);
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateChangeRequestContent',
        tags,
        summary: 'Apply a batch of up to 50 content changes as one new revision of the change request',
        description:
          'Needs the `edit` role on an unlocked space, and a change request that is not merged or archived ' +
          '(409). The changes (`insert_page`, `update_page`, `delete_page`, `revert_page`, `insert_files`, ' +
          '`update_variables`, and `insert_`, `update_` and `delete_reusable_content`) are applied in order, ' +
          'all or nothing. Markdown frontmatter and a leading `# Title` set a page’s fields; links to the ' +
          'batch’s `ref`s, page paths and relative `.md` files become page links. `compat=false` also answers ' +
          'with the pages and files the batch touched.',
        params: ChangeRequestParams,
        querystring: UpdateContentQuery,
        body: UpdateContentBody,
        response: {
          200: Type.Union([
            ChangeRequest,
            Type.Object({
              changeRequest: ChangeRequest,
              changes: Type.Array(Type.Unknown()),
              insertedFiles: Type.Array(Type.Unknown()),
            }),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const result = await updateChangeRequestContent(
        app.context,
        callerOf(request).userId,
        spaceId,
        changeRequestId,
        request.body.changes,
        request.query.compat,
      );
      return result.compat ? result.changeRequest : sendJsonText(reply, JSON.stringify(result.batch));
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      // GitBook's own scope for merging: a token may write change requests without the power to merge them.
      config: { scope: 'change-request:merge' },
      schema: {
        operationId: 'mergeChangeRequest',
        tags,
        summary: 'Merge a change request into the space, unless it conflicts with changes made since it was opened',
        description:
          'Needs the `edit` role on an unlocked space. A page or file changed both here and in the space ' +
          'since the change request was based, or changes that would break the page tree, answer `{"result": ' +
          '"conflicts"}` and change nothing; otherwise the merge makes a new space revision and updates the ' +
          'search index.',
        params: ChangeRequestParams,
        response: { 200: MergeResult, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return mergeChangeRequest(app.context, callerOf(request).userId, spaceId, changeRequestId);
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateChangeRequest',
        tags,
        summary: 'Bring a change request up to date with the space’s current revision, unless they conflict',
        description:
          'The change request’s own changes are kept on top of the space’s current content, as a new revision ' +
          'of it. An item changed on both sides since its base is a conflict, as in a merge: nothing is written.',
        params: ChangeRequestParams,
        response: { 200: UpdateFromSpaceResult, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return updateChangeRequestFromSpace(app.context, callerOf(request).userId, spaceId, changeRequestId);
    },
  );

  await app.register(importRoutes);
  await app.register(changeRequestListingRoutes);
};
