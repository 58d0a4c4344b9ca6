import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { CALLER_COLUMNS } from '../access/auth.js';
import { SPACE_FIELDS, type SpaceFields } from '../access/space-queries.js';

/** How many spaces an organization's or collection's page lists: the newest ones. */
export const LISTED_SPACES = 200;

/** The organization's live spaces, newest first, within `parentId` when given (a collection). */
export async function listedSpaces(
  db: Db,
  organizationId: string,
  parentId: string | undefined,
): Promise<SpaceFields[]> {
  let query = db
    .selectFrom('spaces')
    .select(SPACE_FIELDS)
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null);
  if (parentId !== undefined) query = query.where('parent_id', '=', parentId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(LISTED_SPACES).execute();
}

export async function findOrganizationTitle(db: Db, organizationId: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('title').where('id', '=', organizationId).executeTakeFirst();
  return row?.title;
}

export async function findSiteSummary(db: Db, organizationId: string, siteId: string) {
  return db
    .selectFrom('sites')
    .select(['id', 'title', 'basename', 'published', 'visibility'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', siteId)
    .executeTakeFirst();
}

export async function listSites(db: Db, organizationId: string) {
  return db
    .selectFrom('sites')
    .select(['id', 'title', 'basename', 'published', 'visibility'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .limit(LISTED_SPACES)
    .execute();
}

export async function findSpec(db: Db, organizationId: string, slug: string) {
  return db
    .selectFrom('openapi_specs')
    .select(['slug', 'source_url', 'processing_state', 'last_processed_at'])
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** An integration by name: a public one, or one of an organization the caller belongs to. */
export async function findIntegration(db: Db, name: string) {
  return db
    .selectFrom('integrations')
    .select(['name', 'title', 'description', 'summary', 'visibility', 'organization_id'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/** The organizations a user is an active member of, by title: the app's home lists them. */
export async function listMemberOrganizations(db: Db, userId: string) {
  return db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['o.id', 'o.title'])
    .where('m.user_id', '=', userId)
    .where('m.disabled', '=', false)
    .orderBy('o.title')
    .limit(500)
    .execute();
}

/**
 * Starts a session of the app reader from a token of the user, ending when
 * `until` comes or the token expires, whichever is first; drops the user's
 * sessions that have expired. Undefined when the token is no longer there.
 */
export async function insertAppSession(
  db: Db,
  session: {
    idHash: Buffer;
    id: string;
    userId: string;
    tokenId: string;
    userAgent: string | null;
    now: Date;
    until: Date;
  },
): Promise<Date | undefined> {
  return db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('app_sessions')
      .where('user_id', '=', session.userId)
      .where('expires_at', '<=', session.now)
      .execute();
    const row = await tx
      .insertInto('app_sessions')
      .columns(['id_hash', 'id', 'user_id', 'token_id', 'created_at', 'expires_at', 'signed_in_with', 'user_agent'])
      .expression(
        tx
          .selectFrom('api_tokens')
          .select((eb) => [
            eb.val(session.idHash).as('id_hash'),
            eb.val(session.id).as('session_id'),
            'user_id',
            'id',
            eb.val(session.now).as('created_at'),
            sql<Date>`least(${session.until}::timestamptz, coalesce(expires_at, ${session.until}::timestamptz))`.as(
              'expires_at',
            ),
            eb.val('token').as('signed_in_with'),
            eb.val(session.userAgent).as('user_agent'),
          ])
          .where('id', '=', session.tokenId)
          .where('user_id', '=', session.userId),
      )
      .returning('expires_at')
      .executeTakeFirst();
    return row?.expires_at;
  });
}

/**
 * The caller of a session that is still open: not expired, and made from a
 * token of the same user that is neither revoked nor expired. The caller has
 * the token's scopes.
 */
export async function findAppSessionCaller(db: Db, idHash: Buffer, now: Date) {
  return db
    .selectFrom('app_sessions as s')
    .innerJoin('api_tokens as t', (join) => join.onRef('t.id', '=', 's.token_id').onRef('t.user_id', '=', 's.user_id'))
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(CALLER_COLUMNS)
    .where('s.id_hash', '=', idHash)
    .where('s.expires_at', '>', now)
    .where('t.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', now)]))
    .executeTakeFirst();
}

/**
 * Ends a session: its cookie opens nothing afterwards, wherever it was copied
 * to. A person's session's own token goes with it. Returns how the session
 * was opened and what it kept of the provider's sign-in, or undefined for none.
 */
export async function deleteAppSession(db: Db, idHash: Buffer) {
  const { rows } = await sql<{ signed_in_with: string; id: string; provider_id_token_sealed: string | null }>`
    with ended as (
      delete from app_sessions where id_hash = ${idHash} returning token_id, signed_in_with, id, provider_id_token_sealed),
    tokens as (
      delete from api_tokens where kind = 'session' and id in (select token_id from ended where signed_in_with <> 'token'))
    select signed_in_with, id, provider_id_token_sealed from ended`.execute(db);
  return rows[0];
}

/** The caller's own newest change request of the space that is still a draft or open: where their edits go on. */
export async function findOwnWorkableChangeRequest(db: Db, spaceId: string, userId: string) {
  return db
    .selectFrom('change_requests')
    .select(['id', 'number'])
    .where('space_id', '=', spaceId)
    .where('created_by', '=', userId)
    .where('status', 'in', ['draft', 'open'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The organization of a space, whatever the caller may see of it (the actions check that). */
export async function spaceOrganization(db: Db, spaceId: string): Promise<string | undefined> {
  const row = await db.selectFrom('spaces').select('organization_id').where('id', '=', spaceId).executeTakeFirst();
  return row?.organization_id;
}

/** The active member of the organization with this address, if any: whom a writer names by e-mail to review. */
export async function findMemberByEmail(db: Db, organizationId: string, email: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('organization_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .where('m.organization_id', '=', organizationId)
    .where('m.disabled', '=', false)
    .where('u.email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row?.id;
}
