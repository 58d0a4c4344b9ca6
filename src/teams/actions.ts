import { BadRequestError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { findMembership, requireOrganizationAdmin, requireRosterAccess, rosterAccessOf } from '../access/membership.js';
import type { Role } from '../access/roles.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { memberOrNotFound, resolveMembers } from '../members/member-queries.js';
import type { Team } from '../members/member-schemas.js';
import { findTeam, type TeamRow } from './team-queries.js';
import { managesTeam, presentTeamFor } from './teams.js';
import { presentMemberTeam } from './present.js';
import {
  countTeams,
  countTeamsOfMember,
  deleteTeam as deleteTeamRow,
  insertTeam,
  listTeams,
  listTeamsOfMember,
  renameTeam as renameTeamRow,
  upsertTeamMembers,
} from './queries.js';
import type { CreateTeamBody, ListMemberTeamsQuery, ListTeamsQuery, MemberTeam, RenameTeamBody } from './schemas.js';

const teamNotFound = () => new NotFoundError('No team with this id in the organization');

export interface VisibleTeam {
  team: TeamRow;
  /** The caller's role in the organization. */
  role: Role;
  /** Whether the caller may manage the team's members (admins and team owners). */
  manages: boolean;
}

/** The team, the caller's role, and whether the caller may manage the team's members; guests get a 403. */
export async function visibleTeam(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
): Promise<VisibleTeam> {
  const role = await requireRosterAccess(context.db, organizationId, callerId);
  const team = await findTeam(context.db, organizationId, teamId, callerId);
  if (!team) throw teamNotFound();
  return { team, role, manages: managesTeam(team, role) };
}

/** The team, when the caller may manage its members. */
export async function managedTeam(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
): Promise<VisibleTeam> {
  const visible = await visibleTeam(context, callerId, organizationId, teamId);
  if (!visible.manages) {
    throw new ForbiddenError(
      'Managing a team’s members needs the admin role in the organization or ownership of the team',
    );
  }
  return visible;
}

export async function listOrganizationTeams(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListTeamsQuery,
): Promise<Page<Team>> {
  const { owner, title } = query;
  const page = context.cursors.request(`teams:${organizationId}:${owner ?? ''}:${title ?? ''}`, query);
  // The rows carry the caller's membership; where there may be none to carry it, it is read first.
  let role =
    owner !== undefined || page.limit === 0 ? await requireRosterAccess(context.db, organizationId, callerId) : null;
  let ownedBy: string | undefined;
  if (owner !== undefined) {
    const ownerMembership = await findMembership(context.db, organizationId, owner);
    // Admins can manage every team; anyone else, the teams they own; a non-member, none.
    if (!ownerMembership) return { count: 0, items: [] };
    if (ownerMembership.role !== 'admin') ownedBy = owner;
  }
  const filters = { ownedBy, title };
  return paginate(context.cursors, page, {
    rows: async () => {
      const rows = await listTeams(context.db, page, organizationId, callerId, filters);
      // Checked before anything of the rows is used.
      role ??= await rosterAccessOf(context.db, organizationId, callerId, rows);
      return rows;
    },
    count: () => countTeams(context.db, organizationId, filters),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => presentTeamFor(row, role!),
  });
}

/** Creates a team, optionally with members (admins). */
export async function createTeam(
  context: Context,
  callerId: string,
  organizationId: string,
  body: CreateTeamBody,
): Promise<Team> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Creating a team');
  const memberIds = [...new Set(body.members ?? [])];
  const known = await resolveMembers(context.db, organizationId, memberIds);
  const unknown = memberIds.filter((id) => known.get(id) !== id);
  if (unknown.length > 0)
    throw new BadRequestError(`body/members: not members of the organization: ${unknown.join(', ')}`);
  const id = newId();
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    await insertTeam(tx, organizationId, { id, title: body.title }, now);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'team.created',
      actorId: callerId,
      target: { type: 'team', id, label: body.title },
      at: now,
      after: { title: body.title, members: memberIds },
    });
    await upsertTeamMembers(
      tx,
      organizationId,
      id,
      memberIds.map((memberId) => ({ userId: memberId, role: undefined })),
      now,
    );
  });
  const team = (await findTeam(context.db, organizationId, id, callerId))!;
  return presentTeamFor(team, 'admin');
}

export async function getTeam(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
): Promise<Team> {
  const { team, role } = await visibleTeam(context, callerId, organizationId, teamId);
  return presentTeamFor(team, role);
}

/** Renames a team (admins). */
export async function renameTeam(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
  body: RenameTeamBody,
): Promise<Team> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Renaming a team');
  const { team } = await visibleTeam(context, callerId, organizationId, teamId);
  const now = context.clock.now();
  await context.db.transaction().execute(async (tx) => {
    await renameTeamRow(tx, organizationId, teamId, body.title, now);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'team.renamed',
      actorId: callerId,
      target: { type: 'team', id: teamId, label: body.title },
      at: now,
      before: { title: team.title },
      after: { title: body.title },
    });
  });
  return presentTeamFor((await findTeam(context.db, organizationId, teamId, callerId))!, 'admin');
}

/** Deletes a team (admins); its members stay in the organization. */
export async function deleteTeam(
  context: Context,
  callerId: string,
  organizationId: string,
  teamId: string,
): Promise<void> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, 'Deleting a team');
  const { team } = await visibleTeam(context, callerId, organizationId, teamId);
  await context.db.transaction().execute(async (tx) => {
    if (!(await deleteTeamRow(tx, organizationId, teamId))) throw teamNotFound();
    await recordAuditEvent(tx, {
      organizationId,
      action: 'team.deleted',
      actorId: callerId,
      target: { type: 'team', id: teamId, label: team.title },
      at: context.clock.now(),
      before: { title: team.title },
    });
  });
}

/** The teams a member is in, with their role in each. */
export async function listTeamsOfOrganizationMember(
  context: Context,
  callerId: string,
  organizationId: string,
  userId: string,
  query: ListMemberTeamsQuery,
): Promise<Page<MemberTeam>> {
  const callerRole = await requireRosterAccess(context.db, organizationId, callerId);
  await memberOrNotFound(context.db, organizationId, userId);
  const { title } = query;
  const page = context.cursors.request(`member-teams:${organizationId}:${userId}:${title ?? ''}`, query);
  return paginate(context.cursors, page, {
    rows: () => listTeamsOfMember(context.db, page, organizationId, userId, callerId, title),
    count: () => countTeamsOfMember(context.db, organizationId, userId, title),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => presentMemberTeam(row, callerRole),
  });
}
