import type { Db } from '../db/database.js';
import type { Role } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';

/** An invite link: its id, which is also its secret, and the role it gives. */
export interface InviteFields {
  id: string;
  role: Role | null;
}

/** A page of the organization's invite links, each row carrying the total count. */
export const listInvites = pageQuery({ createdAt: 'created_at', id: 'id' }, (db, organizationId: string) =>
  db
    .selectFrom('organization_invites')
    .select(['id', 'role', 'created_at'])
    .where('organization_id', '=', organizationId)
    .select((eb) =>
      eb
        .selectFrom('organization_invites as c')
        .select((c) => c.fn.countAll<string>().as('n'))
        .where('c.organization_id', '=', organizationId)
        .as(TOTAL_COUNT),
    ),
);

export async function countInvites(db: Db, organizationId: string): Promise<number> {
  const { n } = await db
    .selectFrom('organization_invites')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function findInvite(db: Db, organizationId: string, inviteId: string): Promise<InviteFields | undefined> {
  return db
    .selectFrom('organization_invites')
    .select(['id', 'role'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', inviteId)
    .executeTakeFirst();
}

/** Whether the organization allows invite links; false when there is no such organization. */
export async function inviteLinksEnabled(db: Db, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organizations')
    .select('invite_links')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return row?.invite_links === true;
}

export async function insertInvite(
  db: Db,
  organizationId: string,
  invite: InviteFields,
  createdBy: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('organization_invites')
    .values({ ...invite, organization_id: organizationId, created_by: createdBy, created_at: now })
    .execute();
}

/** Sets the role an invite gives; undefined when there is no such invite. */
export async function updateInviteRole(
  db: Db,
  organizationId: string,
  inviteId: string,
  role: Role | null,
): Promise<InviteFields | undefined> {
  return db
    .updateTable('organization_invites')
    .set({ role })
    .where('organization_id', '=', organizationId)
    .where('id', '=', inviteId)
    .returning(['id', 'role'])
    .executeTakeFirst();
}

/** Deletes an invite; false when there was no such invite. */
export async function deleteInvite(db: Db, organizationId: string, inviteId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('organization_invites')
    .where('organization_id', '=', organizationId)
    .where('id', '=', inviteId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Adds the user to the organization with the role; a member already in it keeps theirs. */
export async function joinOrganization(
  db: Db,
  organizationId: string,
  userId: string,
  role: Role | null,
  joinedAt: Date,
): Promise<void> {
  await db
    .insertInto('organization_members')
    .values({ organization_id: organizationId, user_id: userId, role, joined_at: joinedAt })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .execute();
}
