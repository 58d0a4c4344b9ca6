import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate } from '../core/pagination.js';
import { sendJsonText } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref, ChangeRequestParams } from '../core/schemas.js';
import { presentFile } from '../model/content/present.js';
import { emailVisibilityFor } from '../model/people/user-queries.js';
import { findEditableSpace, findSpaceAsMember } from '../model/access/spaces.js';
import { writeChangeRequestContent, requireWorkable } from './changes/write.js';
import { mergeChangeRequest } from './merge.js';
import { presentChangeRequest } from '../model/change-requests/present.js';
import { changeRequestIn } from '../model/change-requests/access.js';
import { countChangeRequests, listChangeRequests, listChangeRequestsByCreator } from './queries.js';
import { CreateChangeRequestBody, ListChangeRequestsQuery, MergeResult, SpaceOnlyParams, UpdateChangeRequestBody, UpdateContentBody, UpdateContentQuery } from './schemas.js';
import { ChangeRequestSchema } from '../model/change-requests/schemas.js';
import { lockChangeRequest, moveStatusCounters } from '../model/change-requests/queries.js';
import { callerOf } from '../model/access/auth.js';

const ChangeRequest = ref(ChangeRequestSchema);
const tags = ['change-requests'];

export const changeRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** The caller is a member of the space's organization on every route here. */
  const present = async (space: { id: string; organization_id: string }, changeRequestId: string, callerId: string) => {
    const row = await changeRequestIn(app.context, space.id, changeRequestId);
    return presentChangeRequest(row, app.urls, await emailVisibilityFor(app.db, callerId, [row.author_id], space.organization_id));
  };

  app.post(
    '/spaces/:spaceId/change-requests',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'createChangeRequest', tags, summary: 'Open a change request on the space’s current revision', params: SpaceOnlyParams, body: CreateChangeRequestBody, response: { 201: ChangeRequest, ...errorResponses } },
    },
    async (request, reply) => {
      const { space } = await findEditableSpace(app.context, request.params.spaceId, callerOf(request).userId, 'Creating a change request');
      const id = newId();
      await app.db.transaction().execute(async (tx) => {
        // The space's row lock makes numbers follow each other without gaps or repeats.
        const { revision_id: revisionId, change_requests_count: count } = await tx
          .selectFrom('spaces')
          .select(['revision_id', 'change_requests_count'])
          .where('id', '=', space.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const now = app.clock.now();
        await tx
          .insertInto('change_requests')
          .values({
            id,
            organization_id: space.organization_id,
            space_id: space.id,
            number: count + 1,
            subject: request.body.subject ?? '',
            status: 'draft',
            created_by: callerOf(request).userId,
            revision_id: revisionId,
            revision_initial_id: revisionId,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await moveStatusCounters(tx, space.id, null, 'draft');
      });
      const body = await present(space, id, callerOf(request).userId);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      config: { scope: 'space:read' },
      schema: { operationId: 'listChangeRequestsForSpace', tags, summary: 'The space’s change requests with one status (default open), newest first', params: SpaceOnlyParams, querystring: ListChangeRequestsQuery, response: { 200: ListEnvelope(ChangeRequest), ...errorResponses } },
    },
    async (request) => {
      const { space } = await findSpaceAsMember(app.context, request.params.spaceId, callerOf(request).userId);
      const status = request.query.status ?? 'open';
      const creator = request.query.creator;
      const page = app.cursors.request(`change-requests:${space.id}:${status}:${creator ?? ''}`, request.query);
      const rows = await paginate(app.cursors, page, {
        rows: () => (creator ? listChangeRequestsByCreator(app.db, page, space.id, status, creator) : listChangeRequests(app.db, page, space.id, status)),
        count: () => countChangeRequests(app.db, space.id, status, creator),
        keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
        toItem: (row) => row,
      });
      const emails = await emailVisibilityFor(app.db, callerOf(request).userId, rows.items.map((row) => row.author_id), space.organization_id);
      return { ...rows, items: rows.items.map((row) => presentChangeRequest(row, app.urls, emails)) };
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { scope: 'space:read' },
      schema: { operationId: 'getChangeRequestById', tags, summary: 'A change request, by id or by number', params: ChangeRequestParams, response: { 200: ChangeRequest, ...errorResponses } },
    },
    async (request) => {
      const { space } = await findSpaceAsMember(app.context, request.params.spaceId, callerOf(request).userId);
      return present(space, request.params.changeRequestId, callerOf(request).userId);
    },
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'updateChangeRequestById', tags, summary: 'Change a change request’s subject or status', params: ChangeRequestParams, body: UpdateChangeRequestBody, response: { 200: ChangeRequest, ...errorResponses } },
    },
    async (request) => {
      const { space } = await findEditableSpace(app.context, request.params.spaceId, callerOf(request).userId, 'Updating a change request');
      const { id } = await changeRequestIn(app.context, space.id, request.params.changeRequestId);
      const { subject, status } = request.body;
      await app.db.transaction().execute(async (tx) => {
        // Space first, then change request: the order merges take, so the two never deadlock.
        await tx.selectFrom('spaces').select('id').where('id', '=', space.id).forUpdate().execute();
        const locked = await lockChangeRequest(tx, id);
        if (locked.status === 'merged') throw new ConflictError('The change request is merged; it can no longer change');
        await tx
          .updateTable('change_requests')
          .set({ ...(subject !== undefined ? { subject } : {}), ...(status !== undefined ? { status } : {}), updated_at: app.clock.now() })
          .where('id', '=', id)
          .execute();
        if (status !== undefined) await moveStatusCounters(tx, space.id, locked.status, status);
      });
      return present(space, id, callerOf(request).userId);
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
        description: 'insert_page, update_page, delete_page and insert_files, applied in order and all or nothing.',
        params: ChangeRequestParams,
        querystring: UpdateContentQuery,
        body: UpdateContentBody,
        response: {
          200: Type.Union([
            ChangeRequest,
            Type.Object({ changeRequest: ChangeRequest, changes: Type.Array(Type.Unknown()), insertedFiles: Type.Array(Type.Unknown()) }),
          ]),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { space } = await findEditableSpace(app.context, request.params.spaceId, callerOf(request).userId, 'Editing a change request');
      const changeRequest = await changeRequestIn(app.context, space.id, request.params.changeRequestId);
      // Checked again under the lock; checked here too so that no file is fetched for a closed change request.
      requireWorkable(changeRequest.status);
      const written = await writeChangeRequestContent(
        app,
        { organizationId: space.organization_id, spaceId: space.id, changeRequestId: changeRequest.id, userId: callerOf(request).userId },
        request.body.changes,
      );
      const updated = await present(space, changeRequest.id, callerOf(request).userId);
      if (request.query.compat) return updated;
      const now = app.clock.now();
      const pageLocation = (pageId: string) => app.urls.api('spaces', space.id, 'change-requests', changeRequest.id, 'content', 'page', pageId);
      const body = {
        changeRequest: updated,
        changes: written.outcomes.map((outcome) =>
          outcome.object === 'deleted_page' ? outcome : { ...outcome, page: { object: 'page', id: outcome.page, urls: { location: pageLocation(outcome.page) } } },
        ),
        insertedFiles: written.insertedFiles.map((file) => presentFile(file, app.fileUrls.sign(file.versionId, file.name, now))),
      };
      return sendJsonText(reply, JSON.stringify(body));
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      config: { scope: 'space:write' },
      schema: { operationId: 'mergeChangeRequest', tags, summary: 'Merge a change request into the space, unless it conflicts with changes made since it was opened', params: ChangeRequestParams, response: { 200: MergeResult, ...errorResponses } },
    },
    async (request) => {
      const { space } = await findEditableSpace(app.context, request.params.spaceId, callerOf(request).userId, 'Merging a change request');
      const changeRequest = await changeRequestIn(app.context, space.id, request.params.changeRequestId);
      return mergeChangeRequest(app, { organizationId: space.organization_id, spaceId: space.id, changeRequestId: changeRequest.id, userId: callerOf(request).userId });
    },
  );
};
