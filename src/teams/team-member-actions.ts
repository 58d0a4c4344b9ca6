import { BadRequestError, NotFoundError } from '../core/errors.js';
import { paginate, type Page } from '../core/pagination.js';
import { findMembership } from '../access/membership.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { findMembers, resolveMembers } from '../members/member-queries.js';
import { managedTeam, visibleTeam } from './actions.js';
import { presentTeamMembership } from './present.js';
import {
  countTeamMemberships,
  deleteTeamMember,
  deleteTeamMembers,
  listTeamMemberships,
  upsertTeamMembers,
} from './queries.js';
import type { ListTeamMembersQuery, SetTeamMemberBody, TeamMembership, UpdateTeamMembersBody } from './schemas.js';

export async function listTeamMembers(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
  query: ListTeamMembersQuery,
): Promise<Page<TeamMembership>> {
  await visibleTeam(context, callerId, organizationId, teamId);
  const page = context.cursors.request(`team-members:${teamId}`, query);
  const result = await paginate(context.cursors, page, {
    rows: () => listTeamMemberships(context.db, page, teamId),
    count: () => countTeamMemberships(context.db, teamId),
    keyOf: (row) => ({ createdAt: row.added_at, id: row.user_id }),
    toItem: (row) => row,
  });
  const members = await findMembers(
    context.db,
    organizationId,
    result.items.map((row) => row.user_id),
  );
  const byUser = new Map(members.map((member) => [member.user_id, member]));
  return {
    ...result,
    items: result.items.map((row) => presentTeamMembership(byUser.get(row.user_id)!, row.role, context.urls)),
  };
}

/** Adds, removes and sets the roles of team members at once; a user in both add and remove is removed. */
export async function updateTeamMembers(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
  body: UpdateTeamMembersBody,
): Promise<void> {
  const { team } = await managedTeam(context, callerId, organizationId, teamId);
  const { add = [], remove = [], memberships = {} } = body;
  const resolved = await resolveMembers(context.db, organizationId, [...add, ...remove, ...Object.keys(memberships)]);
  const unknown = [...new Set([...add, ...remove, ...Object.keys(memberships)])].filter(
    (value) => !resolved.has(value),
  );
  if (unknown.length > 0) throw new BadRequestError(`body: not members of the organization: ${unknown.join(', ')}`);
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    await upsertTeamMembers(
      tx,
      organizationId,
      teamId,
      add.map((value) => ({ userId: resolved.get(value)!, role: undefined })),
      now,
    );
    const roles = Object.entries(memberships).map(([value, { role }]) => ({ userId: resolved.get(value)!, role }));
    await upsertTeamMembers(tx, organizationId, teamId, roles, now);
    // Removal last, so that it wins over an add of the same user.
    const removed = remove.map((value) => resolved.get(value)!);
    if (removed.length > 0) await deleteTeamMembers(tx, organizationId, teamId, removed);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'team.members_updated',
      actorId: callerId,
      target: { type: 'team', id: teamId, label: team.title },
      at: now,
      details: { added: add.map((value) => resolved.get(value)!), removed, roles },
    });
  });
}

/** Adds a member to a team, or sets their role in it. */
export async function setTeamMember(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
  userId: string,
  body: SetTeamMemberBody,
): Promise<void> {
  const { team } = await managedTeam(context, callerId, organizationId, teamId);
  if (!(await findMembership(context.db, organizationId, userId)))
    throw new NotFoundError('No member with this id in the organization');
  const role = body.role ?? 'member';
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    await upsertTeamMembers(tx, organizationId, teamId, [{ userId, role }], now);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'team.member_set',
      actorId: callerId,
      target: { type: 'team', id: teamId, label: team.title },
      at: now,
      details: { userId },
      after: { role },
    });
  });
}

/** Removes a member from a team; removing someone not in it changes nothing. */
export async function removeTeamMember(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
  userId: string,
): Promise<void> {
  const { team } = await managedTeam(context, callerId, organizationId, teamId);
  await context.db.transaction().execute(async (tx) => {
    if (!(await deleteTeamMember(tx, organizationId, teamId, userId))) return;
    await recordAuditEvent(tx, {
      organizationId,
      action: 'team.member_removed',
      actorId: callerId,
      target: { type: 'team', id: teamId, label: team.title },
      at: context.clock.now(),
      details: { userId },
    });
  });
}
