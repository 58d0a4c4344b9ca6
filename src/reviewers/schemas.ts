import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, UserSchema, ref, ChangeRequestParams } from '../core/schemas.js';
import { ChangeRequestSubject } from '../model/change-requests/schemas.js';

/** Most users one request may name: one request, one transaction, one membership query. */
export const MAX_REQUESTED_USERS = 100;

const User = ref(UserSchema);

// Only users are requested here; the spec's `kind: 'team'` variant is never produced.
export const ChangeRequestRequestedReviewerSchema = Type.Object({
  object: Type.Literal('change-request-requested-reviewer'),
  revision: Type.String({ description: 'The change request’s revision when the review was requested' }),
  requestedBy: User,
  createdAt: DateTime,
  kind: Type.Literal('user'),
  user: User,
});
export type ChangeRequestRequestedReviewer = Static<typeof ChangeRequestRequestedReviewerSchema>;

export const ReviewerParams = Type.Object({ ...ChangeRequestParams.properties, userId: IdParam });

export const ListReviewersQuery = Type.Object({ ...ListQuery });
export type ListReviewersInput = Static<typeof ListReviewersQuery>;

export const RequestReviewersBody = Type.Object(
  {
    users: Type.Array(IdParam, {
      minItems: 1,
      maxItems: MAX_REQUESTED_USERS,
      uniqueItems: true,
      description: 'Ids of the users asked to review; each needs at least the review role on the space',
    }),
    subject: Type.Optional(ChangeRequestSubject),
  },
  { additionalProperties: false },
);
export type RequestReviewersInput = Static<typeof RequestReviewersBody>;

export const RequestReviewersResponse = Type.Object({
  users: Type.Array(ChangeRequestRequestedReviewerSchema, {
    description: 'One item for every requested user, in the order given',
  }),
});
