import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { membersOf, selectMember } from '../model/people/member-queries.js';
import type { Thread } from './queries.js';

/** The users who posted a comment or a reply in the thread (changeRequestId undefined: the space's own). */
function commenterIds(db: Kysely<Database>, spaceId: string, changeRequestId: string | undefined) {
  const comments = db.selectFrom('comments as c').select('c.posted_by as user_id').where('c.space_id', '=', spaceId);
  const replies = db
    .selectFrom('comment_replies as r')
    .innerJoin('comments as c', 'c.id', 'r.comment_id')
    .select('r.posted_by as user_id')
    .where('r.space_id', '=', spaceId);
  const key = changeRequestId ?? '';
  return comments.where('c.thread_key', '=', key).union(replies.where('c.thread_key', '=', key));
}

function commenterPage(
  db: Kysely<Database>,
  organizationId: string,
  spaceId: string,
  changeRequestId: string | undefined,
) {
  const members = () =>
    membersOf(db, organizationId).where(
      'organization_members.user_id',
      'in',
      commenterIds(db, spaceId, changeRequestId),
    );
  return selectMember(members()).select(() =>
    members()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .as(TOTAL_COUNT),
  );
}

const byJoining = { createdAt: 'organization_members.joined_at', id: 'organization_members.user_id' };
const spaceCommenters = pageQuery(byJoining, (db, organizationId: string, spaceId: string) =>
  commenterPage(db, organizationId, spaceId, undefined),
);
const changeRequestCommenters = pageQuery(
  byJoining,
  (db, organizationId: string, spaceId: string, changeRequestId: string) =>
    commenterPage(db, organizationId, spaceId, changeRequestId),
);

/**
 * A page of the organization members who commented or replied in the
 * thread, by when they joined. Users who have left the organization are not
 * listed: the answer is made of memberships.
 */
export function listCommenters(db: Db, request: PageRequest, thread: Thread) {
  return thread.changeRequestId === null
    ? spaceCommenters(db, request, thread.organizationId, thread.spaceId)
    : changeRequestCommenters(db, request, thread.organizationId, thread.spaceId, thread.changeRequestId);
}

export async function countCommenters(db: Db, thread: Thread): Promise<number> {
  // The first row of a one-row page carries the count of the whole list.
  const [first] = await listCommenters(db, { list: '', order: 'asc', limit: 0, after: undefined }, thread);
  return Number(first?.[TOTAL_COUNT] ?? 0);
}
