import { Type, type Static } from '@sinclair/typebox';
import { ChangeRequestParams, DateTime, IdParam, ListQuery, StringEnum, UserSchema, ref } from '../core/schemas.js';
import { BodyInput, CommentSchema } from '../comments/schemas.js';

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;

const User = ref(UserSchema);

/** A review's comment: the Comment, as every comment is shown. */
export type ReviewComment = Static<typeof CommentSchema>;

/** The spec's ChangeRequestReview. */
export const ChangeRequestReviewSchema = Type.Object(
  {
    object: Type.Literal('change-request-review'),
    id: Type.String(),
    revision: Type.String({ description: 'The change request’s revision the review was made on' }),
    reviewer: User,
    requestedBy: Type.Optional({
      ...User,
      description: 'Who asked for the review; absent when it was left without a request',
    }),
    status: StringEnum(REVIEW_STATUSES),
    outdated: Type.Boolean({
      description:
        'Superseded: the change request has a newer revision, the reviewer a newer review, or their review was asked for again since',
    }),
    comment: Type.Optional(ref(CommentSchema)),
    createdAt: DateTime,
    updatedAt: DateTime,
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'ChangeRequestReview' },
);
export type ChangeRequestReview = Static<typeof ChangeRequestReviewSchema>;

export const SubmitReviewBody = Type.Object(
  {
    status: StringEnum(REVIEW_STATUSES, { description: 'The decision' }),
    comment: Type.Optional({
      ...BodyInput,
      description: 'A comment posted with the review in the change request’s thread: {markdown} or {document}',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ status: 'approved', comment: { markdown: 'Looks good to me.' } }],
  },
);
export type SubmitReviewInput = Static<typeof SubmitReviewBody>;

const Format = StringEnum(['markdown', 'document'] as const, {
  default: 'markdown',
  description: 'The form of the reviews’ comments',
});

export const ListReviewsQuery = Type.Object({
  ...ListQuery,
  format: Format,
  outdated: Type.Optional(
    Type.Boolean({ description: 'Only the outdated reviews (true), or only the current (false)' }),
  ),
});
export type ListReviewsInput = Static<typeof ListReviewsQuery>;

export const ReviewQuery = Type.Object({ format: Format });

export const ReviewParams = Type.Object({ ...ChangeRequestParams.properties, reviewId: IdParam });
