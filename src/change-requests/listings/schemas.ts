import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, StringEnum, UserSchema, ref } from '../../core/schemas.js';
import { CHANGE_REQUEST_STATUSES } from '../../content/change-request-schemas.js';

export const ORDER_BY = ['updatedAt', 'createdAt'] as const;

const OrderBy = StringEnum(ORDER_BY, {
  default: 'updatedAt',
  description: 'Newest first by last update (default) or by creation',
});

/** Filters both lists take, as the spec has them. */
const commonFilters = {
  ...ListQuery,
  creator: Type.Optional({ ...IdParam, description: 'Only the change requests this user opened' }),
  contributor: Type.Optional({ ...IdParam, description: 'Only the change requests this user wrote in' }),
  requestedReviewer: Type.Optional({
    ...IdParam,
    description: 'Only the change requests whose review is asked of this user (or of a team of theirs) and not given',
  }),
  topic: Type.Optional({
    ...IdParam,
    description: 'Only the change requests of this site topic: this service has no site topics, so none',
  }),
  orderBy: OrderBy,
};

export const SpaceChangeRequestsQuery = Type.Object({
  ...commonFilters,
  status: StringEnum(CHANGE_REQUEST_STATUSES, { default: 'open' }),
});
export type SpaceChangeRequestsInput = Static<typeof SpaceChangeRequestsQuery>;

export const OrganizationChangeRequestsQuery = Type.Object({
  ...commonFilters,
  status: Type.Array(StringEnum(CHANGE_REQUEST_STATUSES), {
    default: ['open'],
    minItems: 1,
    maxItems: CHANGE_REQUEST_STATUSES.length,
    uniqueItems: true,
    description: 'The statuses kept (repeat the parameter for more than one); open by default',
  }),
  space: Type.Optional({ ...IdParam, description: 'Only the change requests of this space' }),
  site: Type.Optional({
    ...IdParam,
    description: 'Only the change requests linked to this site’s topics: this service links none, so none',
  }),
  styleguideRun: Type.Optional({
    ...IdParam,
    description: 'Only those a style guide check opened: this service runs none, so none',
  }),
  finding: Type.Optional(
    StringEnum(['none', 'all'] as const, {
      description: 'Whether change requests from triage are kept; this service opens none, so both are the same',
    }),
  ),
});
export type OrganizationChangeRequestsInput = Static<typeof OrganizationChangeRequestsQuery>;

/** The spec's ChangeRequestUserContributor: who wrote in a change request, how often and when last. */
export const ChangeRequestContributorSchema = Type.Object({
  user: ref(UserSchema),
  count: Type.Integer({ description: 'How many revisions of the change request they made' }),
  updatedAt: DateTime,
  actionType: StringEnum(['edit', 'comment'] as const),
});
export type ChangeRequestContributor = Static<typeof ChangeRequestContributorSchema>;
