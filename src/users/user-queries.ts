import { sql, type Expression } from 'kysely';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/types.js';
import type { EmailVisibility } from './users.js';

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
const USER_FIELDS = [
  'id',
  'email',
  'display_name',
  'photo_url',
  'created_at',
  'updated_at',
  'email_verified_at',
] as const;
import { newId } from '../core/ids.js';
import type { Clock } from '../core/clock.js';

export interface NewUserInput {
  email: string;
  displayName: string;
  photoUrl?: string | null;
  /** Whether the address counts as proven: the operator set it, or its owner accepted an invitation sent to it. */
  emailVerified?: boolean;
}

export async function createUser(db: Db, clock: Clock, input: NewUserInput): Promise<UserRow> {
  const now = clock.now();
  return db
    .insertInto('users')
    .values({
      id: newId(),
      email: input.email.trim().toLowerCase(),
      display_name: input.displayName.trim(),
      photo_url: input.photoUrl ?? null,
      created_at: now,
      updated_at: now,
      email_verified_at: input.emailVerified ? now : null,
    })
    .returning(USER_FIELDS)
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_FIELDS).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

/**
 * What sharing an organization with the caller means: the memberships of
 * other users in an organization where the caller is an active member.
 */
function membershipsSharedWith(db: Db, callerId: string) {
  return db
    .selectFrom('organization_members as theirs')
    .innerJoin('organization_members as mine', 'mine.organization_id', 'theirs.organization_id')
    .where('mine.user_id', '=', callerId)
    .where('mine.disabled', '=', false);
}

/** A user the caller may see: themselves, or someone who shares an organization with them. */
export async function findUserVisibleTo(db: Db, userId: string, callerId: string): Promise<UserRow | undefined> {
  if (userId === callerId)
    return db.selectFrom('users').select(USER_FIELDS).where('id', '=', userId).executeTakeFirst();
  return db
    .selectFrom('users as u')
    .select(USER_FIELDS.map((field) => `u.${field}` as const))
    .where('u.id', '=', userId)
    .where(({ exists }) =>
      exists(membershipsSharedWith(db, callerId).select('theirs.user_id').where('theirs.user_id', '=', userId)),
    )
    .executeTakeFirst();
}

/**
 * Which users the caller may see the e-mail of: those who share an
 * organization with them, and themselves. `organizationId`, where given, is
 * one the caller is an active member of: its members are answered by their
 * memberships in it alone (primary-key lookups), and only the users left are
 * looked for in the caller's other organizations. At most two queries for a
 * whole response's users; none when the caller is the only one, or when
 * `members` (users already read as members of `organizationId`, with
 * isMemberOf) covers everyone.
 */
export async function emailVisibilityFor(
  db: Db,
  callerId: string,
  userIds: readonly (string | null)[],
  organizationId: string | null = null,
  members: Iterable<string> = [],
): Promise<EmailVisibility> {
  const sharing = new Set([callerId, ...members]);
  let others = [...new Set(userIds)].filter((id): id is string => id !== null && !sharing.has(id));
  if (organizationId !== null && others.length > 0) {
    const members = await db
      .selectFrom('organization_members')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', sql<string>`any(${others}::text[])`)
      .execute();
    for (const { user_id } of members) sharing.add(user_id);
    others = others.filter((id) => !sharing.has(id));
  }
  if (others.length > 0) {
    const rows = await membershipsSharedWith(db, callerId)
      .select('theirs.user_id')
      .distinct()
      .where('theirs.user_id', '=', sql<string>`any(${others}::text[])`)
      .execute();
    for (const { user_id } of rows) sharing.add(user_id);
  }
  return (userId) => sharing.has(userId);
}

/**
 * Whether the user is a member of the organization (SQL, both columns of the
 * query around): read with a row, so that emailVisibilityFor need not look.
 */
export function isMemberOf(organizationId: Expression<string>, userId: Expression<string | null>) {
  return sql<boolean>`exists (select 1 from organization_members im where im.organization_id = ${organizationId} and im.user_id = ${userId})`;
}

/** Marks the user's address proven, from now unless it already was. */
export async function markEmailVerified(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verified_at: now })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}
