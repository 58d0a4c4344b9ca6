import { sql, type RawBuilder } from 'kysely';

/**
 * Clocks the database ticks whenever a list could read differently (see the
 * migrations that make them). Most are tick rows, summed: a tick inserts a
 * row, so that writers never wait on one another for a clock. A list reads its clocks before its rows, in a
 * recorded read, and its rows unrecorded: the answer store then checks a kept
 * answer by a few key lookups instead of reading and digesting its rows
 * again. Their values mean nothing else.
 */

/** Who is a member of the space's organization (organization_roster_ticks). */
export const rosterClockOfSpace = (spaceId: string): RawBuilder<string> =>
  sql<string>`(select coalesce(sum(k.ticks), 0) from organization_roster_ticks k
    join spaces s on s.organization_id = k.organization_id where s.id = ${spaceId})`;

/** Users' names, e-mails and photos (user_profile_clock). */
export const profileClock = (): RawBuilder<string> => sql<string>`(select version from user_profile_clock)`;

/** A space's change requests (change_request_ticks). */
export const changeRequestClock = (spaceId: string): RawBuilder<string> =>
  sql<string>`(select coalesce(sum(ticks), 0) from change_request_ticks where space_id = ${spaceId})`;

/** A comment thread's comments and their reactions (comment_thread_ticks). */
export const commentThreadClock = (spaceId: string, threadKey: string): RawBuilder<string> =>
  sql<string>`(select coalesce(sum(ticks), 0) from comment_thread_ticks
    where space_id = ${spaceId} and thread_key = ${threadKey})`;

/**
 * An organization's clock (organization_ticks): the sum of its ticks, which
 * grows with every change to its members, teams, spaces, collections, grants
 * and sites. `organizationId` is a value or a column of the enclosing query.
 */
export const organizationClock = (organizationId: string | RawBuilder<string>): RawBuilder<string> =>
  sql<string>`(select coalesce(sum(t.ticks), 0) from organization_ticks t where t.organization_id = ${organizationId})`;
