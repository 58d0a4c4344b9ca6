import type { Db } from '../db/database.js';
import type { Role } from '../db/types.js';
import { BadRequestError, NotFoundError } from '../core/errors.js';
import { paginate, type Page } from '../core/pagination.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { lockMemberships } from '../members/member-queries.js';
import { findTeams, lockTeams } from '../teams/team-queries.js';
import { presentTeamFor } from '../teams/teams.js';
import { everyEmailShown } from '../users/users.js';
import {
  countGrants,
  deleteGrants,
  listTeamGrants,
  listUserGrants,
  upsertGrants,
  type GrantTarget,
  type Grantee,
} from './queries.js';
import { presentGrantedUser } from './present.js';
import { findTargetToManage, findTargetToRead, type FoundTarget } from './target.js';
import type { InviteBody, ListGrantsQuery, TeamPermission, UserPermission } from './schemas.js';

/**
 * Refuses (404) grantees that are not members or teams of the organization;
 * the others stay locked until the transaction ends, so that a member who
 * leaves, or a team deleted, meanwhile takes the new grants along.
 */
async function requireGrantees(tx: Db, found: FoundTarget, grantee: Grantee, ids: readonly string[]) {
  const known = await (grantee === 'user' ? lockMemberships : lockTeams)(tx, found.organizationId, ids);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const what = grantee === 'user' ? 'member' : 'team';
    throw new NotFoundError(
      `No ${what} ${unknown.map((id) => `"${id}"`).join(', ')} in the ${found.target.kind}'s organization`,
    );
  }
}

/** The audit event of grants given (role) or taken away (null) on the target, in the grant's transaction. */
function recordGrants(
  tx: Db,
  found: FoundTarget,
  callerId: string,
  grantees: { users?: readonly string[]; teams?: readonly string[] },
  role: Role | null,
  at: Date,
): Promise<void> {
  return recordAuditEvent(tx, {
    organizationId: found.organizationId,
    action: role === null ? 'permission.revoked' : 'permission.granted',
    actorId: callerId,
    target: { type: found.target.kind, id: found.target.id },
    at,
    details: { users: grantees.users ?? [], teams: grantees.teams ?? [] },
    ...(role === null ? {} : { after: { role } }),
  });
}

/**
 * Gives the role to every user and team named (all or none), or takes their
 * roles away with `role: null`. Users must be members of the organization,
 * guests included; teams, its teams.
 */
export async function invite(context: Context, callerId: string, target: GrantTarget, body: InviteBody): Promise<void> {
  const users = body.users ?? [];
  const teams = body.teams ?? [];
  if (users.length === 0 && teams.length === 0) throw new BadRequestError('body must name users or teams');
  const found = await findTargetToManage(context, target, callerId);
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    await requireGrantees(tx, found, 'user', users);
    await requireGrantees(tx, found, 'team', teams);
    if (body.role === null) {
      await deleteGrants(tx, target, 'user', users);
      await deleteGrants(tx, target, 'team', teams);
    } else {
      await upsertGrants(tx, found.organizationId, target, 'user', users, body.role, now);
      await upsertGrants(tx, found.organizationId, target, 'team', teams, body.role, now);
    }
    await recordGrants(tx, found, callerId, { users, teams }, body.role, now);
  });
  // Cached site structures carry their readers' roles.
  context.siteStructures.clear();
}

/** Sets one user's or team's role on the target (null takes it away). */
export async function setGrant(
  context: Context,
  callerId: string,
  target: GrantTarget,
  grantee: Grantee,
  id: string,
  role: Role | null,
): Promise<void> {
  const found = await findTargetToManage(context, target, callerId);
  await context.db.transaction().execute(async (tx) => {
    await requireGrantees(tx, found, grantee, [id]);
    if (role === null) await deleteGrants(tx, target, grantee, [id]);
    else await upsertGrants(tx, found.organizationId, target, grantee, [id], role, context.clock.now());
    await recordGrants(tx, found, callerId, { [`${grantee}s`]: [id] }, role, context.clock.now());
  });
  context.siteStructures.clear();
}

/** Takes one user's or team's role on the target away; whether they had one. */
export async function removeGrant(
  context: Context,
  callerId: string,
  target: GrantTarget,
  grantee: Grantee,
  id: string,
): Promise<boolean> {
  const found = await findTargetToManage(context, target, callerId);
  const removed = await context.db.transaction().execute(async (tx) => {
    await requireGrantees(tx, found, grantee, [id]);
    if ((await deleteGrants(tx, target, grantee, [id])) === 0) return false;
    await recordGrants(tx, found, callerId, { [`${grantee}s`]: [id] }, null, context.clock.now());
    return true;
  });
  if (removed) context.siteStructures.clear();
  return removed;
}

/** The users given a role on the target one by one, in the order they were first given it. */
export async function listUserPermissions(
  context: Context,
  callerId: string,
  target: GrantTarget,
  query: ListGrantsQuery,
): Promise<Page<UserPermission>> {
  await findTargetToRead(context, target, callerId);
  const page = context.cursors.request(`user-grants:${target.kind}:${target.id}`, { ...query, order: 'asc' });
  return paginate(context.cursors, page, {
    rows: () => listUserGrants[target.kind](context.db, page, target.id),
    count: () => countGrants(context.db, target, 'user'),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    // Grantees are members of the organization, whose records its members see.
    toItem: (row) => presentGrantedUser(row, context.urls, everyEmailShown),
  });
}

/** The teams given a role on the target, in the order they were first given it. */
export async function listTeamPermissions(
  context: Context,
  callerId: string,
  target: GrantTarget,
  query: ListGrantsQuery,
): Promise<Page<TeamPermission>> {
  const found = await findTargetToRead(context, target, callerId);
  const page = context.cursors.request(`team-grants:${target.kind}:${target.id}`, { ...query, order: 'asc' });
  const result = await paginate(context.cursors, page, {
    rows: () => listTeamGrants[target.kind](context.db, page, target.id),
    count: () => countGrants(context.db, target, 'team'),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
  const teams = new Map(
    (
      await findTeams(
        context.db,
        found.organizationId,
        result.items.map((row) => row.team_id),
        callerId,
      )
    ).map((team) => [team.id, team]),
  );
  return {
    ...result,
    items: result.items.map((row) => ({
      permission: row.role,
      team: presentTeamFor(teams.get(row.team_id)!, found.callerOrganizationRole),
    })),
  };
}
