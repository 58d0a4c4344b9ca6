import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, StringEnum, Emoji } from '../core/schemas.js';

/** The longest comment or reply body, in characters of markdown. */
export const MAX_BODY_CHARACTERS = 65_536;
/** Reactions one update may add or remove. */
const MAX_REACTIONS_PER_UPDATE = 20;

const ReactionList = Type.Array(Type.String({ minLength: 1, maxLength: 16, description: 'One emoji' }), {
  maxItems: MAX_REACTIONS_PER_UPDATE,
  uniqueItems: true,
});

/** A body as written: markdown, a JSON document (stored as markdown), or empty. */
export const BodyInput = Type.Union(
  [
    Type.Object(
      { markdown: Type.String({ maxLength: MAX_BODY_CHARACTERS }) },
      { additionalProperties: false, title: 'Markdown' },
    ),
    Type.Object(
      {
        document: Type.Object({
          object: Type.Literal('document'),
          data: Type.Optional(Type.Object({})),
          nodes: Type.Array(Type.Object({ object: Type.String(), type: Type.String() }), { maxItems: 1000 }),
        }),
      },
      { additionalProperties: false, title: 'JSON Document' },
    ),
    Type.Object({}, { additionalProperties: false, title: 'Empty' }),
  ],
  { description: 'The content: {markdown}, {document} or {} for none' },
);
export type BodyInput = Static<typeof BodyInput>;

export const PostCommentBody = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'The page commented on' })),
    node: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'The block of the page commented on (needs page)' }),
    ),
    body: BodyInput,
  },
  {
    additionalProperties: false,
    examples: [{ page: 'p5Gt2VnK8rQx3LwZ9cMd', body: { markdown: 'Is this still true for version 2?' } }],
  },
);

export const UpdateCommentBody = Type.Object(
  {
    resolved: Type.Optional(Type.Boolean({ description: 'true resolves the comment, false reopens it' })),
    body: Type.Optional(BodyInput),
    addedReactions: Type.Optional(ReactionList),
    removedReactions: Type.Optional(ReactionList),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ resolved: true, addedReactions: ['👍'] }] },
);

export const PostReplyBody = Type.Object(
  { body: BodyInput },
  { additionalProperties: false, examples: [{ body: { markdown: 'Yes: checked against the release notes.' } }] },
);

export const UpdateReplyBody = Type.Object(
  {
    body: Type.Optional(BodyInput),
    addedReactions: Type.Optional(ReactionList),
    removedReactions: Type.Optional(ReactionList),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ body: { markdown: 'Yes: checked against the 2.0 release notes.' }, removedReactions: ['👀'] }],
  },
);

const FormatQuery = StringEnum(['markdown', 'document'] as const, {
  default: 'markdown',
  description: 'The form of bodies',
});
export const FormatOnlyQuery = Type.Object({ format: FormatQuery });

export const ListCommentsQuery = Type.Object({
  ...ListQuery,
  order: StringEnum(['asc', 'desc'] as const, { default: 'desc', description: 'By posting time' }),
  status: StringEnum(['all', 'open', 'resolved'] as const, { default: 'all' }),
  format: FormatQuery,
  targetPage: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'Only the comments on this page' }),
  ),
  authors: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
      minItems: 1,
      maxItems: 50,
      description: 'Only the comments of these users',
    }),
  ),
});

export const ListRepliesQuery = Type.Object({ ...ListQuery, format: FormatQuery });

export const SpaceCommentsParams = Type.Object({ spaceId: IdParam });
export const ChangeRequestCommentsParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The change request’s id or its number in the space',
  }),
});
const CommentIdParams = Type.Object({ commentId: IdParam });
const ReplyIdParams = Type.Object({ commentId: IdParam, commentReplyId: IdParam });
export const SpaceCommentParams = Type.Composite([SpaceCommentsParams, CommentIdParams]);
export const ChangeRequestCommentParams = Type.Composite([ChangeRequestCommentsParams, CommentIdParams]);
export const SpaceCommentReplyParams = Type.Composite([SpaceCommentsParams, ReplyIdParams]);
export const ChangeRequestCommentReplyParams = Type.Composite([ChangeRequestCommentsParams, ReplyIdParams]);

/** Which thread a request is about: a space's own (no changeRequestId) or a change request's, by id or number. */
export interface ThreadLocator {
  spaceId: string;
  changeRequestId?: string;
}
/** Which comment, in which thread. */
export interface CommentLocator extends ThreadLocator {
  commentId: string;
}
/** Which reply, to which comment. */
export interface ReplyLocator extends CommentLocator {
  commentReplyId: string;
}

export type PostCommentBody = Static<typeof PostCommentBody>;
export type UpdateCommentBody = Static<typeof UpdateCommentBody>;
export type PostReplyBody = Static<typeof PostReplyBody>;
export type UpdateReplyBody = Static<typeof UpdateReplyBody>;
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;
export type ListRepliesQuery = Static<typeof ListRepliesQuery>;
export const CommentersQuery = Type.Object(ListQuery);
export type CommentersQuery = Static<typeof CommentersQuery>;
/** The form of bodies a response shows. */
export type BodyFormat = Static<typeof FormatQuery>;

const Reactions = Type.Array(
  Type.Object({
    emoji: Type.String(),
    count: Type.Integer(),
    users: Type.Array(Type.Object({ user: Type.Ref('User'), reactedAt: DateTime })),
  }),
);

/** The body as read: one of the two forms, as `format` asks. */
const BodyOutput = Type.Object(
  {
    markdown: Type.Optional(Type.String()),
    document: Type.Optional(Type.Unknown({ description: 'A JSON document' })),
  },
  { description: '{markdown} or {document}, as format asks' },
);

const Permissions = Type.Object({
  view: Type.Boolean(),
  edit: Type.Boolean(),
  reply: Type.Boolean(),
  delete: Type.Boolean(),
});

/** Who replied to a comment, how often and when last: the spec's UserContributor. */
const Replier = Type.Object({ user: Type.Ref('User'), count: Type.Integer(), updatedAt: DateTime });

export const CommentSchema = Type.Object(
  {
    object: Type.Literal('comment'),
    id: Type.String(),
    postedBy: Type.Ref('User'),
    postedAt: DateTime,
    editedAt: Type.Optional(DateTime),
    reactions: Reactions,
    replies: Type.Integer({ description: 'How many replies it has' }),
    repliers: Type.Array(Replier, { description: 'Who replied, most recent first, with how many replies each' }),
    body: BodyOutput,
    target: Type.Object({
      node: Type.Optional(Type.Object({ id: Type.String(), preview: Type.Optional(Type.String()) })),
      changeRequest: Type.Optional(Type.String()),
      page: Type.Optional(
        Type.Object({
          id: Type.String(),
          title: Type.String(),
          emoji: Type.Optional(Emoji),
          icon: Type.Optional(Type.String()),
          createdAt: Type.Optional(DateTime),
          updatedAt: Type.Optional(DateTime),
          path: Type.String(),
          outdated: Type.Boolean({ description: 'The page is gone or has changed since the comment was posted' }),
        }),
      ),
      space: Type.String(),
      revision: Type.String({ description: 'The revision the target was in when the comment was posted' }),
    }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
    permissions: Permissions,
    status: StringEnum(['open', 'resolved'] as const),
    resolvedAt: Type.Optional(DateTime),
    resolvedBy: Type.Optional(Type.Ref('User')),
  },
  { $id: 'Comment' },
);
export type Comment = Static<typeof CommentSchema>;

export const CommentReplySchema = Type.Object(
  {
    object: Type.Literal('comment-reply'),
    id: Type.String(),
    postedBy: Type.Ref('User'),
    postedAt: DateTime,
    editedAt: Type.Optional(DateTime),
    reactions: Reactions,
    body: BodyOutput,
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
    permissions: Permissions,
  },
  { $id: 'CommentReply' },
);
export type CommentReply = Static<typeof CommentReplySchema>;
