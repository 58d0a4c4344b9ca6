import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, ref, StringEnum, UserSchema } from '../../core/schemas.js';
import { ROLES } from '../../access/roles.js';
import { RoleSchema } from '../../access/schemas.js';

export const SiteUserParams = Type.Object({ organizationId: IdParam, siteId: IdParam, userId: IdParam });
export const SiteTeamParams = Type.Object({ organizationId: IdParam, siteId: IdParam, teamId: IdParam });

/** A site's update takes a role, never null (0.202.0's MemberRole): taking one away is the DELETE. */
export const UpdateSiteGrantBody = Type.Object(
  { role: RoleSchema },
  { additionalProperties: false, description: 'The new role on the site', examples: [{ role: 'admin' }] },
);
export type UpdateSiteGrantBody = Static<typeof UpdateSiteGrantBody>;

export const SITE_REACH_SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const;
export type SiteReachSort = (typeof SITE_REACH_SORTS)[number];

export const ListSiteReachQuery = Type.Object({
  ...ListQuery,
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
  role: Type.Optional(
    StringEnum([...ROLES, 'guest'] as const, {
      description: 'Only users with this role on the site; `guest` for guests of the organization given a role on it',
    }),
  ),
  search: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Part of a display name or e-mail, any case' }),
  ),
  sort: Type.Optional(
    StringEnum(SITE_REACH_SORTS, {
      default: 'joinedAt',
      description: '`lastSeenAt` lists only members seen at least once; `name` orders by display name, any case',
    }),
  ),
  team: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Only the members of this team' })),
});
export type ListSiteReachQuery = Static<typeof ListSiteReachQuery>;

/** Where a user's role on the site comes from: their organization role, or a role given on the site. */
export const SitePermissionOriginSchema = Type.Union([
  Type.Object({ type: Type.Literal('organization'), organization: Type.String() }),
  Type.Object({
    type: Type.Literal('site'),
    site: Type.String(),
    reason: StringEnum(['member', 'team'] as const, {
      description: '`member`: given to the user; `team`: given to a team of theirs',
    }),
    team: Type.Optional(Type.String({ description: 'The team the role was given to' })),
  }),
]);
export type SitePermissionOrigin = Static<typeof SitePermissionOriginSchema>;

export const UserSitePermissionSchema = Type.Object({
  permission: RoleSchema,
  user: ref(UserSchema),
  origin: SitePermissionOriginSchema,
  disabled: Type.Boolean({ description: 'Always false: disabled members reach nothing and are not listed' }),
  lastSeenAt: Type.Optional(DateTime),
});
export type UserSitePermission = Static<typeof UserSitePermissionSchema>;
