import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendJsonText } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, ChangeRequestParams, SpaceParams } from '../core/schemas.js';
import { callerOf } from '../model/access/auth.js';
import { ChangeRequestSchema } from '../model/change-requests/schemas.js';
import {
  createChangeRequest,
  getChangeRequest,
  listSpaceChangeRequests,
  mergeChangeRequest,
  updateChangeRequest,
  updateChangeRequestContent,
  updateChangeRequestFromSpace,
} from './actions.js';
import { importRoutes } from './import/routes.js';
import {
  CreateChangeRequestBody,
  ListChangeRequestsQuery,
  MergeResult,
  UpdateChangeRequestBody,
  UpdateContentBody,
  UpdateContentQuery,
  UpdateFromSpaceResult,
} from './schemas.js';

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
      config: { scope: 'space:read', replayable: true },
      schema: {
        operationId: 'listChangeRequestsForSpace',
        tags,
        summary: 'The space’s change requests with one status (default open), newest first',
        params: SpaceParams,
        querystring: ListChangeRequestsQuery,
        response: { 200: ListEnvelope(ChangeRequest), ...errorResponses },
      },
    },
    async (request) =>
      listSpaceChangeRequests(app.context, callerOf(request).userId, request.params.spaceId, request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { scope: 'space:read', replayable: true },
      schema: {
        operationId: 'getChangeRequestById',
        tags,
        summary: 'A change request, by id or by number',
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
          'insert_page, update_page, delete_page, insert_files, update_variables and insert_, update_ and ' +
          'delete_reusable_content, applied in order and all or nothing.',
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
      config: { scope: 'space:write' },
      schema: {
        operationId: 'mergeChangeRequest',
        tags,
        summary: 'Merge a change request into the space, unless it conflicts with changes made since it was opened',
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
};
