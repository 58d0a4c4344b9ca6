import { createHash } from 'node:crypto';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import { noContent } from '../core/replies.js';
import { errorResponses, IdParam, ListEnvelope, ListQuery, ref } from '../core/schemas.js';
import { presentMember } from '../model/people/members.js';
import { presentComments, presentReplies, type BodyFormat } from './present.js';
import { countCommenters, countComments, countedByCounters, findComment, findReply, listCommenters, listComments, listReplies, type CommentFilters } from './queries.js';
import {
  ChangeRequestCommentsParams,
  CommentReplySchema,
  CommentSchema,
  FormatOnlyQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  SpaceCommentsParams,
  UpdateCommentBody,
  UpdateReplyBody,
} from './schemas.js';
import { currentTree, openThread, type ThreadContext } from './threads.js';
import { deleteComment, deleteReply, postComment, postReply, updateComment, updateReply } from './writes.js';
import { MemberSchema } from '../model/people/schemas.js';
import { callerOf } from '../model/access/auth.js';

const Comment = ref(CommentSchema);
const CommentReply = ref(CommentReplySchema);
const Member = ref(MemberSchema);
const CommentId = Type.Object({ commentId: IdParam });
const ReplyId = Type.Object({ commentId: IdParam, commentReplyId: IdParam });

type ThreadParams = { spaceId: string; changeRequestId?: string };

async function commentIn(app: FastifyInstance, context: ThreadContext, commentId: string) {
  const comment = await findComment(app.db, context.thread, commentId);
  if (!comment) throw new NotFoundError(`No comment with this id in the ${context.changeRequest ? 'change request' : 'space'}`);
  return comment;
}

async function replyIn(app: FastifyInstance, context: ThreadContext, commentId: string, replyId: string) {
  const comment = await commentIn(app, context, commentId);
  const reply = await findReply(app.db, comment.id, replyId);
  if (!reply) throw new NotFoundError('No reply with this id to the comment');
  return reply;
}

/**
 * The count of a thread's list filtered by status at most, from the counters
 * kept with every post, resolve, reopen and delete: counting a large thread's
 * rows on every request would cost more than the page.
 */
function countFromCounters(context: ThreadContext, status: 'open' | 'resolved' | undefined): number {
  const counts = context.changeRequest
    ? { open: context.changeRequest.comments_count, total: context.changeRequest.comments_total_count }
    : { open: context.space.comments_open_count, total: context.space.comments_total_count };
  return status === 'open' ? counts.open : status === 'resolved' ? counts.total - counts.open : counts.total;
}

/** A short, stable name for a list's filters, so that a cursor is only accepted by the list that made it. */
function filtersKey(filters: CommentFilters): string {
  const text = JSON.stringify([filters.status ?? '', [...(filters.authors ?? [])].sort(), filters.pageId ?? '']);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/** Comments and replies of a space's own thread and of each change request's, with the same rules for both. */
export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  async function presentOne(context: ThreadContext, commentId: string, format: BodyFormat, userId: string) {
    const comment = await commentIn(app, context, commentId);
    const tree = await currentTree(app, context);
    return (await presentComments(app, context, [comment], tree, format, userId))[0]!;
  }

  async function presentOneReply(context: ThreadContext, commentId: string, replyId: string, format: BodyFormat, userId: string) {
    const reply = await replyIn(app, context, commentId, replyId);
    return (await presentReplies(app, context, [reply], format, userId))[0]!;
  }

  const ways = [
    {
      prefix: '/spaces/:spaceId',
      params: SpaceCommentsParams,
      tags: ['space-comments'],
      ids: {
        list: 'listCommentsInSpace',
        post: 'postCommentInSpace',
        get: 'getCommentInSpace',
        update: 'updateCommentInSpace',
        delete: 'deleteCommentInSpace',
        listReplies: 'listCommentRepliesInSpace',
        postReply: 'postCommentReplyInSpace',
        getReply: 'getCommentReplyInSpace',
        updateReply: 'updateCommentReplyInSpace',
        deleteReply: 'deleteCommentReplyInSpace',
        commenters: 'listCommentersInSpace',
      },
    },
    {
      prefix: '/spaces/:spaceId/change-requests/:changeRequestId',
      params: ChangeRequestCommentsParams,
      tags: ['change-requests'],
      ids: {
        list: 'listCommentsInChangeRequest',
        post: 'postCommentInChangeRequest',
        get: 'getCommentInChangeRequest',
        update: 'updateCommentInChangeRequest',
        delete: 'deleteCommentInChangeRequest',
        listReplies: 'listCommentRepliesInChangeRequest',
        postReply: 'postCommentReplyInChangeRequest',
        getReply: 'getCommentReplyInChangeRequest',
        updateReply: 'updateCommentReplyInChangeRequest',
        deleteReply: 'deleteCommentReplyInChangeRequest',
        commenters: 'listCommentersInChangeRequest',
      },
    },
  ];

  const read = { config: { scope: 'space:read' } } as const;
  const write = { config: { scope: 'space:write' } } as const;

  for (const way of ways) {
    const { prefix, params, tags, ids } = way;
    const withComment = Type.Composite([params, CommentId]);
    const withReply = Type.Composite([params, ReplyId]);

    app.get(
      `${prefix}/comments`,
      { ...read, schema: { operationId: ids.list, tags, summary: 'The comments, newest first unless asked otherwise, filtered by status, authors or page', params, querystring: ListCommentsQuery, response: { 200: ListEnvelope(Comment), ...errorResponses } } },
      async (request) => {
        const userId = callerOf(request).userId;
        const context = await openThread(app, request.params as ThreadParams, userId);
        const query = request.query;
        const filters: CommentFilters = {
          status: query.status === 'all' ? undefined : query.status,
          authors: query.authors ? [...new Set(query.authors)] : undefined,
          pageId: query.targetPage,
        };
        const list = `comments:${context.thread.spaceId}:${context.thread.changeRequestId ?? ''}:${filtersKey(filters)}`;
        const page = app.cursors.request(list, query);
        const rows = await paginate(app.cursors, page, {
          rows: () => listComments(app.db, page, context.thread, filters),
          count: async () => (countedByCounters(filters) ? countFromCounters(context, filters.status) : countComments(app.db, context.thread, filters)),
          keyOf: (row) => ({ createdAt: row.posted_at, id: row.id }),
          toItem: (row) => row,
        });
        const tree = await currentTree(app, context);
        return { ...rows, items: await presentComments(app, context, rows.items, tree, query.format, userId) };
      },
    );

    app.post(
      `${prefix}/comments`,
      { ...write, schema: { operationId: ids.post, tags, summary: 'Post a comment, on the content or on one page or block of it', params, body: PostCommentBody, response: { 200: Comment, ...errorResponses } } },
      async (request) => {
        const userId = callerOf(request).userId;
        const context = await openThread(app, request.params as ThreadParams, userId);
        const id = await postComment(app, context, request.body, userId);
        return presentOne(context, id, 'markdown', userId);
      },
    );

    app.get(
      `${prefix}/comments/:commentId`,
      { ...read, schema: { operationId: ids.get, tags, summary: 'One comment', params: withComment, querystring: FormatOnlyQuery, response: { 200: Comment, ...errorResponses } } },
      async (request) => {
        const userId = callerOf(request).userId;
        const params = request.params as ThreadParams & { commentId: string };
        const context = await openThread(app, params, userId);
        return presentOne(context, params.commentId, request.query.format, userId);
      },
    );

    app.put(
      `${prefix}/comments/:commentId`,
      { ...write, schema: { operationId: ids.update, tags, summary: 'Resolve or reopen a comment, change its body (its author), or react to it', params: withComment, body: UpdateCommentBody, response: { 200: Comment, ...errorResponses } } },
      async (request) => {
        const userId = callerOf(request).userId;
        const params = request.params as ThreadParams & { commentId: string };
        const context = await openThread(app, params, userId);
        const comment = await commentIn(app, context, params.commentId);
        await updateComment(app, context, comment, request.body, userId);
        return presentOne(context, comment.id, 'markdown', userId);
      },
    );

    app.delete(
      `${prefix}/comments/:commentId`,
      { ...write, schema: { operationId: ids.delete, tags, summary: 'Delete a comment and its replies (its author or an admin)', params: withComment, response: { 205: Type.Null(), ...errorResponses } } },
      async (request, reply) => {
        const userId = callerOf(request).userId;
        const params = request.params as ThreadParams & { commentId: string };
        const context = await openThread(app, params, userId);
        await deleteComment(app, context, await commentIn(app, context, params.commentId), userId);
        return noContent(reply, 205);
      },
    );

    app.get(
      `${prefix}/comments/:commentId/replies`,
      { ...read, schema: { operationId: ids.listReplies, tags, summary: 'The replies to a comment, oldest first', params: withComment, querystring: ListRepliesQuery, response: { 200: ListEnvelope(CommentReply), ...errorResponses } } },
      async (request) => {
        const userId = callerOf(request).userId;
        const params = request.params as ThreadParams & { commentId: string };
        const context = await openThread(app, params, userId);
        const comment = await commentIn(app, context, params.commentId);
        const page = app.cursors.request(`replies:${comment.id}`, { ...request.query, order: 'asc' });
        const rows = await paginate(app.cursors, page, {
          rows: () => listReplies(app.db, page, comment.id),
          count: async () => comment.replies_count,
          keyOf: (row) => ({ createdAt: row.posted_at, id: row.id }),
          toItem: (row) => row,
        });
        return { ...rows, items: await presentReplies(app, context, rows.items, request.query.format, userId) };
      },
    );

    app.post(
      `${prefix}/comments/:commentId/replies`,
      { ...write, schema: { operationId: ids.postReply, tags, summary: 'Reply to a comment', params: withComment, querystring: FormatOnlyQuery, body: PostReplyBody, response: { 200: CommentReply, ...errorResponses } } },
      async (request) => {
        const userId = callerOf(request).userId;
        const params = request.params as ThreadParams & { commentId: string };
        const context = await openThread(app, params, userId);
        const comment = await commentIn(app, context, params.commentId);
        const id = await postReply(app, context, comment, request.body, userId);
        return presentOneReply(context, comment.id, id, request.query.format, userId);
      },
    );

    app.get(
      `${prefix}/comments/:commentId/replies/:commentReplyId`,
      { ...read, schema: { operationId: ids.getReply, tags, summary: 'One reply', params: withReply, querystring: FormatOnlyQuery, response: { 200: CommentReply, ...errorResponses } } },
      async (request) => {
        const userId = callerOf(request).userId;
        const params = request.params as ThreadParams & { commentId: string; commentReplyId: string };
        const context = await openThread(app, params, userId);
        return presentOneReply(context, params.commentId, params.commentReplyId, request.query.format, userId);
      },
    );

    app.put(
      `${prefix}/comments/:commentId/replies/:commentReplyId`,
      { ...write, schema: { operationId: ids.updateReply, tags, summary: 'Change a reply’s body (its author) or react to it', params: withReply, body: UpdateReplyBody, response: { 200: CommentReply, ...errorResponses } } },
      async (request) => {
        const userId = callerOf(request).userId;
        const params = request.params as ThreadParams & { commentId: string; commentReplyId: string };
        const context = await openThread(app, params, userId);
        const reply = await replyIn(app, context, params.commentId, params.commentReplyId);
        await updateReply(app, context, reply, request.body, userId);
        return presentOneReply(context, reply.comment_id, reply.id, 'markdown', userId);
      },
    );

    app.delete(
      `${prefix}/comments/:commentId/replies/:commentReplyId`,
      { ...write, schema: { operationId: ids.deleteReply, tags, summary: 'Delete a reply (its author or an admin)', params: withReply, response: { 205: Type.Null(), ...errorResponses } } },
      async (request, reply) => {
        const userId = callerOf(request).userId;
        const params = request.params as ThreadParams & { commentId: string; commentReplyId: string };
        const context = await openThread(app, params, userId);
        await deleteReply(app, context, await replyIn(app, context, params.commentId, params.commentReplyId), userId);
        return noContent(reply, 205);
      },
    );

    app.get(
      `${prefix}/commenters`,
      { ...read, schema: { operationId: ids.commenters, tags, summary: 'The organization members who commented or replied', params, querystring: Type.Object(ListQuery), response: { 200: ListEnvelope(Member), ...errorResponses } } },
      async (request) => {
        const context = await openThread(app, request.params as ThreadParams, callerOf(request).userId);
        const page = app.cursors.request(`commenters:${context.thread.spaceId}:${context.thread.changeRequestId ?? ''}`, { ...request.query, order: 'asc' });
        return paginate(app.cursors, page, {
          rows: () => listCommenters(app.db, page, context.thread),
          count: () => countCommenters(app.db, context.thread),
          keyOf: (row) => ({ createdAt: row.joined_at, id: row.user_id }),
          toItem: (row) => presentMember(row, app.urls),
        });
      },
    );
  }
};
