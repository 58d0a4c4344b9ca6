import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, UserSchema, ref, ChangeRequestParams } from '../core/schemas.js';
import { ChangeRequestSubject } from '../content/change-request-schemas.js';

/** Most users one request may name: one request, one transaction, one membership query. */
export const MAX_REQUESTED_USERS = 100;
/** Most teams one request may name, for the same reason. */
export const MAX_REQUESTED_TEAMS = 100;

const User = ref(UserSchema);

/** What every request shows, whoever was asked. */
const requestFields = {
  object: Type.Literal('change-request-requested-reviewer'),
  revision: Type.String({ description: 'The change request’s revision when the review was requested' }),
  requestedBy: User,
  createdAt: DateTime,
};

/** A team as a review request names it: the spec's Team (object and id), with its title to show. */
export const RequestedTeamSchema = Type.Object({
  object: Type.Literal('team'),
  id: Type.String(),
  title: Type.String(),
});

export const UserReviewerSchema = Type.Object({ ...requestFields, kind: Type.Literal('user'), user: User });
export const TeamReviewerSchema = Type.Object(
  { ...requestFields, kind: Type.Literal('team'), team: RequestedTeamSchema },
  { description: 'A team asked to review: any of its members may review for it' },
);
export const ChangeRequestRequestedReviewerSchema = Type.Union([UserReviewerSchema, TeamReviewerSchema]);
export type ChangeRequestRequestedReviewer = Static<typeof ChangeRequestRequestedReviewerSchema>;

export const ReviewerParams = Type.Object({
  ...ChangeRequestParams.properties,
  userId: Type.String({ minLength: 1, maxLength: 128, description: 'The id of the user or of the team asked' }),
});

export const ListReviewersQuery = Type.Object({ ...ListQuery });
export type ListReviewersInput = Static<typeof ListReviewersQuery>;

export const RequestReviewersBody = Type.Object(
  {
    users: Type.Array(IdParam, {
      maxItems: MAX_REQUESTED_USERS,
      uniqueItems: true,
      description: 'Ids of the users asked to review; each needs at least the review role on the space',
    }),
    teams: Type.Optional(
      Type.Array(IdParam, {
        maxItems: MAX_REQUESTED_TEAMS,
        uniqueItems: true,
        description:
          'Ids of teams of the space’s organization asked to review (beyond the spec, which only names users); ' +
          'any member of a team may review for it',
      }),
    ),
    subject: Type.Optional(ChangeRequestSubject),
  },
  {
    additionalProperties: false,
    examples: [{ users: ['u7Kq2mXr9TzL0pBv4aHc'], teams: ['t3Wn8DfY5sQp2LmR7vXb'], subject: 'Ready for review' }],
  },
);
export type RequestReviewersInput = Static<typeof RequestReviewersBody>;

export const RequestReviewersResponse = Type.Object({
  users: Type.Array(ChangeRequestRequestedReviewerSchema, {
    description: 'One item for every request: the users in the order given, then the teams in the order given',
  }),
});
