import { Type, type FastifyPluginAsyncTypebox, type TSchema } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, ref } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { versionOf } from '../cache-versions.js';
import { MemberSchema } from '../members/member-schemas.js';
import {
  deleteComment,
  getComment,
  listThreadCommenters,
  listThreadComments,
  postComment,
  updateComment,
} from './actions.js';
import { deleteReply, getReply, listCommentReplies, postReply, updateReply } from './reply-actions.js';
import {
  ChangeRequestCommentParams,
  ChangeRequestCommentReplyParams,
  ChangeRequestCommentsParams,
  CommentersQuery,
  CommentReplySchema,
  CommentSchema,
  FormatOnlyQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  SpaceCommentParams,
  SpaceCommentReplyParams,
  SpaceCommentsParams,
  UpdateCommentBody,
  UpdateReplyBody,
} from './schemas.js';

const Comment = ref(CommentSchema);
const CommentReply = ref(CommentReplySchema);
const Member = ref(MemberSchema);

const SPACE_TAGS = ['space-comments'];
const CHANGE_REQUEST_TAGS = ['change-requests'];

const read = { scope: 'space:read' } as const;
/** A read of a thread, kept while the thread's version holds (src/core/http-cache.ts). */
const threadRead = { ...read, cache: versionOf.commentThread } as const;
const write = { scope: 'space:write' } as const;

/*
 * Each operation has the same options on a space's own thread and on a change
 * request's, but for its path parameters, its operation id and its tags.
 */

const listCommentsOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: threadRead,
  schema: {
    operationId,
    tags,
    summary: 'The comments, newest first unless asked otherwise, filtered by status, authors or page',
    description:
      'For members with a role on the space (to anyone else, 404). Top-level comments with their reply ' +
      'counts; `status` keeps open or resolved ones, `targetPage` those on one page, `authors` those of some ' +
      'users. Bodies read as markdown unless `format=document`.',
    params,
    querystring: ListCommentsQuery,
    response: { 200: ListEnvelope(Comment), ...errorResponses },
  },
});

const postCommentOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: write,
  schema: {
    operationId,
    tags,
    summary: 'Post a comment, on the content or on one page or block of it',
    description:
      'Needs the `comment` role on an unlocked space. `node` is a block’s `key` in the page’s document form; ' +
      'the page and block must exist in the content (400). Counts in the space’s or change request’s open ' +
      'comments.',
    params,
    body: PostCommentBody,
    response: { 200: Comment, ...errorResponses },
  },
});

const getCommentOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: threadRead,
  schema: {
    operationId,
    tags,
    summary: 'One comment',
    description:
      'For members with a role on the space, with its target, reactions and reply count; ' +
      '`target.page.outdated` turns true once that page changes or is removed.',
    params,
    querystring: FormatOnlyQuery,
    response: { 200: Comment, ...errorResponses },
  },
});

const updateCommentOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: write,
  schema: {
    operationId,
    tags,
    summary: 'Resolve or reopen a comment, change its body (its author), or react to it',
    description:
      'Needs the `comment` role on an unlocked space; only the author changes the body (403). A reaction is ' +
      'one emoji, and each user counts once per emoji; resolving takes the comment out of the open count.',
    params,
    body: UpdateCommentBody,
    response: { 200: Comment, ...errorResponses },
  },
});

const deleteCommentOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: write,
  schema: {
    operationId,
    tags,
    summary: 'Delete a comment and its replies (its author or an admin)',
    description: 'Its author, or an admin of the space, on an unlocked space; other members get 403.',
    params,
    response: { 205: Type.Null(), ...errorResponses },
  },
});

const listRepliesOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: read,
  schema: {
    operationId,
    tags,
    summary: 'The replies to a comment, oldest first',
    description: 'For members with a role on the space. Bodies read as markdown unless `format=document`.',
    params,
    querystring: ListRepliesQuery,
    response: { 200: ListEnvelope(CommentReply), ...errorResponses },
  },
});

const postReplyOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: write,
  schema: {
    operationId,
    tags,
    summary: 'Reply to a comment',
    description:
      'Needs the `comment` role on an unlocked space. The body is markdown, or a JSON document stored as ' +
      'markdown.',
    params,
    querystring: FormatOnlyQuery,
    body: PostReplyBody,
    response: { 200: CommentReply, ...errorResponses },
  },
});

const getReplyOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: read,
  schema: {
    operationId,
    tags,
    summary: 'One reply',
    description: 'For members with a role on the space, with its reactions.',
    params,
    querystring: FormatOnlyQuery,
    response: { 200: CommentReply, ...errorResponses },
  },
});

const updateReplyOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: write,
  schema: {
    operationId,
    tags,
    summary: 'Change a reply’s body (its author) or react to it',
    description:
      'Needs the `comment` role on an unlocked space; only the author changes the body (403). A reaction is ' +
      'one emoji, and each user counts once per emoji.',
    params,
    body: UpdateReplyBody,
    response: { 200: CommentReply, ...errorResponses },
  },
});

const deleteReplyOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: write,
  schema: {
    operationId,
    tags,
    summary: 'Delete a reply (its author or an admin)',
    description:
      'Its author, or an admin of the space, on an unlocked space; other members get 403. The comment stays.',
    params,
    response: { 205: Type.Null(), ...errorResponses },
  },
});

const commentersOptions = <P extends TSchema>(params: P, operationId: string, tags: string[]) => ({
  config: read,
  schema: {
    operationId,
    tags,
    summary: 'The organization members who commented or replied',
    description:
      'For members with a role on the space. People who have left the organization stay listed as former ' +
      'members (`role: null`, `disabled: true`).',
    params,
    querystring: CommentersQuery,
    response: { 200: ListEnvelope(Member), ...errorResponses },
  },
});

/**
 * Comments and replies of a space's own thread and of each change request's,
 * with the same rules for both: each route passes its parameters to the
 * action as the thread's locator (a changeRequestId names a change request's).
 */
export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A space's own thread.

  app.get(
    '/spaces/:spaceId/comments',
    listCommentsOptions(SpaceCommentsParams, 'listCommentsInSpace', SPACE_TAGS),
    async (request) => listThreadComments(app.context, callerOf(request).userId, request.params, request.query),
  );

  app.post(
    '/spaces/:spaceId/comments',
    postCommentOptions(SpaceCommentsParams, 'postCommentInSpace', SPACE_TAGS),
    async (request) => postComment(app.context, callerOf(request).userId, request.params, request.body),
  );

  app.get(
    '/spaces/:spaceId/comments/:commentId',
    getCommentOptions(SpaceCommentParams, 'getCommentInSpace', SPACE_TAGS),
    async (request) => getComment(app.context, callerOf(request).userId, request.params, request.query.format),
  );

  app.put(
    '/spaces/:spaceId/comments/:commentId',
    updateCommentOptions(SpaceCommentParams, 'updateCommentInSpace', SPACE_TAGS),
    async (request) => updateComment(app.context, callerOf(request).userId, request.params, request.body),
  );

  app.delete(
    '/spaces/:spaceId/comments/:commentId',
    deleteCommentOptions(SpaceCommentParams, 'deleteCommentInSpace', SPACE_TAGS),
    async (request, reply) => {
      await deleteComment(app.context, callerOf(request).userId, request.params);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/spaces/:spaceId/comments/:commentId/replies',
    listRepliesOptions(SpaceCommentParams, 'listCommentRepliesInSpace', SPACE_TAGS),
    async (request) => listCommentReplies(app.context, callerOf(request).userId, request.params, request.query),
  );

  app.post(
    '/spaces/:spaceId/comments/:commentId/replies',
    postReplyOptions(SpaceCommentParams, 'postCommentReplyInSpace', SPACE_TAGS),
    async (request) =>
      postReply(app.context, callerOf(request).userId, request.params, request.body, request.query.format),
  );

  app.get(
    '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    getReplyOptions(SpaceCommentReplyParams, 'getCommentReplyInSpace', SPACE_TAGS),
    async (request) => getReply(app.context, callerOf(request).userId, request.params, request.query.format),
  );

  app.put(
    '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    updateReplyOptions(SpaceCommentReplyParams, 'updateCommentReplyInSpace', SPACE_TAGS),
    async (request) => updateReply(app.context, callerOf(request).userId, request.params, request.body),
  );

  app.delete(
    '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
    deleteReplyOptions(SpaceCommentReplyParams, 'deleteCommentReplyInSpace', SPACE_TAGS),
    async (request, reply) => {
      await deleteReply(app.context, callerOf(request).userId, request.params);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/spaces/:spaceId/commenters',
    commentersOptions(SpaceCommentsParams, 'listCommentersInSpace', SPACE_TAGS),
    async (request) => listThreadCommenters(app.context, callerOf(request).userId, request.params, request.query),
  );

  // A change request's thread.

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments',
    listCommentsOptions(ChangeRequestCommentsParams, 'listCommentsInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) => listThreadComments(app.context, callerOf(request).userId, request.params, request.query),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments',
    postCommentOptions(ChangeRequestCommentsParams, 'postCommentInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) => postComment(app.context, callerOf(request).userId, request.params, request.body),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId',
    getCommentOptions(ChangeRequestCommentParams, 'getCommentInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) => getComment(app.context, callerOf(request).userId, request.params, request.query.format),
  );

  app.put(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId',
    updateCommentOptions(ChangeRequestCommentParams, 'updateCommentInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) => updateComment(app.context, callerOf(request).userId, request.params, request.body),
  );

  app.delete(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId',
    deleteCommentOptions(ChangeRequestCommentParams, 'deleteCommentInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request, reply) => {
      await deleteComment(app.context, callerOf(request).userId, request.params);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies',
    listRepliesOptions(ChangeRequestCommentParams, 'listCommentRepliesInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) => listCommentReplies(app.context, callerOf(request).userId, request.params, request.query),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies',
    postReplyOptions(ChangeRequestCommentParams, 'postCommentReplyInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) =>
      postReply(app.context, callerOf(request).userId, request.params, request.body, request.query.format),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId',
    getReplyOptions(ChangeRequestCommentReplyParams, 'getCommentReplyInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) => getReply(app.context, callerOf(request).userId, request.params, request.query.format),
  );

  app.put(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId',
    updateReplyOptions(ChangeRequestCommentReplyParams, 'updateCommentReplyInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) => updateReply(app.context, callerOf(request).userId, request.params, request.body),
  );

  app.delete(
    '/spaces/:spaceId/change-requests/:changeRequestId/comments/:commentId/replies/:commentReplyId',
    deleteReplyOptions(ChangeRequestCommentReplyParams, 'deleteCommentReplyInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request, reply) => {
      await deleteReply(app.context, callerOf(request).userId, request.params);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/commenters',
    commentersOptions(ChangeRequestCommentsParams, 'listCommentersInChangeRequest', CHANGE_REQUEST_TAGS),
    async (request) => listThreadCommenters(app.context, callerOf(request).userId, request.params, request.query),
  );
};
