import { sql, type Insertable, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { CommentRow, CommentsTable, CommentStatus, Database, PageVersionRow } from '../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import type { StoredBody } from './body-queries.js';

/** Where comments live: a space's own thread (changeRequestId null) or a change request's. */
export interface Thread {
  organizationId: string;
  spaceId: string;
  changeRequestId: string | null;
}

/** Named, never `*`: a prepared `SELECT *` breaks when a migration adds a column under a running instance. */
const COMMENT_COLUMNS = [
  'c.id',
  'c.organization_id',
  'c.space_id',
  'c.change_request_id',
  'c.revision_id',
  'c.page_id',
  'c.page_version_id',
  'c.page_path',
  'c.node_id',
  'c.node_preview',
  'c.posted_by',
  'c.posted_at',
  'c.edited_at',
  'c.body',
  'c.status',
  'c.resolved_at',
  'c.resolved_by',
  'c.replies_count',
] as const;

/**
 * A reaction as the list query carries it: [emoji, user id, when, the user's
 * e-mail, name and photo, whether they are a member of the organization].
 */
export type ReactionTuple = [string, string, string, string, string, string | null, boolean];
/** A replier as the comment's statement reads it: user, replies, last reply, e-mail, name, photo, member. */
export type ReplierTuple = [string, number, string, string, string, string | null, boolean];

/**
 * What a comment is shown with, read in the same statement: its author, who
 * resolved it, and its reactions with their users. A page of comments is
 * then one round trip, not one per kind of thing it shows.
 */
function withPeople<O>(query: SelectQueryBuilder<Database & { c: CommentsTable }, 'c', O>) {
  return query
    .leftJoin('users as pu', 'pu.id', 'c.posted_by')
    .leftJoin('users as ru', 'ru.id', 'c.resolved_by')
    .select([
      'pu.email as posted_by_email',
      'pu.display_name as posted_by_name',
      'pu.photo_url as posted_by_photo',
      'ru.email as resolved_by_email',
      'ru.display_name as resolved_by_name',
      'ru.photo_url as resolved_by_photo',
      sql<ReactionTuple[] | null>`(
        select json_agg(json_build_array(x.emoji, x.user_id, x.reacted_at, xu.email, xu.display_name, xu.photo_url,
            exists (select 1 from organization_members xm where xm.organization_id = c.organization_id and xm.user_id = x.user_id))
          order by x.reacted_at, x.emoji, x.user_id)
        from comment_reactions x join users xu on xu.id = x.user_id
        where x.comment_id = c.id and x.reply_id is null)`.as('reactions'),
      // Who replied, how often and when last, most recent first.
      sql<ReplierTuple[] | null>`(
        select json_agg(json_build_array(r.posted_by, r.replies, r.last_at, ru2.email, ru2.display_name, ru2.photo_url,
            exists (select 1 from organization_members rm where rm.organization_id = c.organization_id and rm.user_id = r.posted_by))
          order by r.last_at desc, r.posted_by)
        from (select posted_by, count(*)::int as replies, max(posted_at) as last_at from comment_replies
              where comment_id = c.id group by posted_by) r
        join users ru2 on ru2.id = r.posted_by)`.as('repliers'),
      // Who of the author and resolver is a member of the organization: with the reactions' flags, the
      // e-mails a page shows need no other lookup. One key probe each (scalar subqueries, which the
      // planner cannot turn into a scan of the whole table as it may an `exists`), where `user_id in
      // (...)` walked the organization's roster for every comment, and in no fixed order.
      sql<string[] | null>`array_remove(array[
          (select m.user_id from organization_members m
            where m.organization_id = c.organization_id and m.user_id = c.posted_by),
          (select m.user_id from organization_members m
            where m.organization_id = c.organization_id and m.user_id = c.resolved_by)
        ], null)`.as('member_ids'),
    ]);
}

/** A comment with what it is shown with. */
export interface CommentRecord extends CommentRow {
  posted_by_email: string | null;
  posted_by_name: string | null;
  posted_by_photo: string | null;
  resolved_by_email: string | null;
  resolved_by_name: string | null;
  resolved_by_photo: string | null;
  reactions: ReactionTuple[] | null;
  repliers: ReplierTuple[] | null;
  member_ids: string[] | null;
}

/**
 * `column = any($1)`: one statement text whatever the number of ids, where
 * `in (...)` would prepare a statement per list length.
 */
export const anyOf = (column: string, ids: readonly string[]) =>
  sql<boolean>`${sql.ref(column)} = any(${[...ids]}::text[])`;

export interface CommentFilters {
  status: 'open' | 'resolved' | undefined;
  authors: readonly string[] | undefined;
  pageId: string | undefined;
}

/** The comments table's thread_key of a thread. */
const threadKey = (thread: Thread) => thread.changeRequestId ?? '';

/** Which filters a list uses: each combination is one compiled query, taking only the values it filters on. */
interface Shape {
  /** Whether the query counts the whole list itself; lists the counters answer leave it out. */
  counted: boolean;
  status: boolean;
  authors: boolean;
  page: boolean;
}

function threadComments(db: Kysely<Database>, shape: Shape, args: readonly unknown[]) {
  let index = 0;
  // Placeholders stand for the values until the query is run; they are typed as what they stand for.
  const next = <T>() => args[index++] as T;
  let query = db
    .selectFrom('comments as c')
    .where('c.space_id', '=', next<string>())
    .where('c.thread_key', '=', next<string>());
  if (shape.status) query = query.where('c.status', '=', next<'open' | 'resolved'>());
  if (shape.authors) query = query.where(sql<boolean>`c.posted_by = any(${next<string[]>()}::text[])`);
  if (shape.page) query = query.where('c.page_id', '=', next<string>());
  return query;
}

type CommentPage = (
  db: Db,
  request: PageRequest,
  ...args: unknown[]
) => Promise<Array<CommentRecord & { [TOTAL_COUNT]?: string }>>;
const commentPages = new Map<string, CommentPage>();

function commentPageFor(shape: Shape): CommentPage {
  const key = `${shape.counted}:${shape.status}:${shape.authors}:${shape.page}`;
  let run = commentPages.get(key);
  if (!run) {
    const arity = 2 + Number(shape.status) + Number(shape.authors) + Number(shape.page);
    run = pageQuery(
      { createdAt: 'c.posted_at', id: 'c.id' },
      (db, ...args: unknown[]) => {
        const page = withPeople(threadComments(db, shape, args).select(COMMENT_COLUMNS));
        if (!shape.counted) return page;
        // The count of the whole list rides along: one round trip for the page and its total.
        return page.select(() =>
          threadComments(db, shape, args)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .as(TOTAL_COUNT),
        );
      },
      arity,
      // A thread's index, or its index by status, filters and orders an unfiltered page or one of
      // a status, whatever the thread or status; filters by authors or page read a share of the
      // thread that depends on their values.
      { fixedFetch: !shape.authors && !shape.page },
    );
    commentPages.set(key, run);
  }
  return run;
}

/** Whether the thread's counters give the count of a list with these filters: only by status, or none. */
export const countedByCounters = (filters: CommentFilters) =>
  filters.authors === undefined && filters.pageId === undefined;

function filterArgs(thread: Thread, filters: CommentFilters): { shape: Shape; args: unknown[] } {
  const shape: Shape = {
    counted: !countedByCounters(filters),
    status: filters.status !== undefined,
    authors: filters.authors !== undefined,
    page: filters.pageId !== undefined,
  };
  const args: unknown[] = [thread.spaceId, threadKey(thread)];
  if (filters.status !== undefined) args.push(filters.status);
  if (filters.authors !== undefined) args.push(filters.authors);
  if (filters.pageId !== undefined) args.push(filters.pageId);
  return { shape, args };
}

/**
 * A page of a thread's comments; with authors or page filters, each row
 * carries the count of the whole filtered list.
 */
export function listComments(db: Db, request: PageRequest, thread: Thread, filters: CommentFilters) {
  const { shape, args } = filterArgs(thread, filters);
  return commentPageFor(shape)(db, request, ...args);
}

export async function countComments(db: Db, thread: Thread, filters: CommentFilters): Promise<number> {
  const { shape, args } = filterArgs(thread, filters);
  const { n } = await threadComments(db, shape, args)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The comments of the thread among `commentIds` (a page of reviews' comments), in one query. */
export async function findComments(db: Db, thread: Thread, commentIds: readonly string[]): Promise<CommentRecord[]> {
  if (commentIds.length === 0) return [];
  return withPeople(db.selectFrom('comments as c').select(COMMENT_COLUMNS))
    .where(anyOf('c.id', commentIds))
    .where('c.space_id', '=', thread.spaceId)
    .where('c.thread_key', '=', threadKey(thread))
    .execute();
}

/** One comment of the thread, or undefined. */
export async function findComment(db: Db, thread: Thread, commentId: string): Promise<CommentRecord | undefined> {
  return withPeople(db.selectFrom('comments as c').select(COMMENT_COLUMNS))
    .where('c.id', '=', commentId)
    .where('c.space_id', '=', thread.spaceId)
    .where('c.thread_key', '=', threadKey(thread))
    .executeTakeFirst();
}

export interface UserRecord {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
}

export async function usersByIds(db: Db, ids: Iterable<string>): Promise<Map<string, UserRecord>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'display_name', 'photo_url'])
    .where(anyOf('id', unique))
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** A page as it was in a stored version. */
export type StoredPageVersion = Pick<
  PageVersionRow,
  'id' | 'page_id' | 'title' | 'emoji' | 'icon' | 'page_created_at' | 'created_at'
>;

/** The stored states of page versions, for comments whose page is gone from the current content. */
export async function pageVersionsByIds(db: Db, ids: readonly string[]): Promise<Map<string, StoredPageVersion>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('page_versions')
    .select(['id', 'page_id', 'title', 'emoji', 'icon', 'page_created_at', 'created_at'])
    .where(anyOf('id', ids))
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export type NewComment = Omit<Insertable<CommentsTable>, 'organization_id' | 'space_id' | 'change_request_id'>;

export async function insertComment(db: Db, thread: Thread, comment: NewComment): Promise<void> {
  await db
    .insertInto('comments')
    .values({
      ...comment,
      organization_id: thread.organizationId,
      space_id: thread.spaceId,
      change_request_id: thread.changeRequestId,
    })
    .execute();
}

/** Locks a comment for an update of it or of its replies; undefined when it is gone. */
export async function lockComment(
  db: Db,
  commentId: string,
): Promise<{ id: string; status: CommentStatus } | undefined> {
  return db.selectFrom('comments').select(['id', 'status']).where('id', '=', commentId).forUpdate().executeTakeFirst();
}

/** Keeps a comment from being deleted while one of its replies changes. */
export async function shareLockComment(db: Db, commentId: string): Promise<void> {
  await db.selectFrom('comments').select('id').where('id', '=', commentId).forShare().execute();
}

export async function setCommentBody(db: Db, commentId: string, body: StoredBody, now: Date): Promise<void> {
  await db
    .updateTable('comments')
    .set({ ...body, edited_at: now })
    .where('id', '=', commentId)
    .execute();
}

export async function resolveComment(db: Db, commentId: string, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('comments')
    .set({ status: 'resolved', resolved_at: now, resolved_by: userId })
    .where('id', '=', commentId)
    .execute();
}

export async function reopenComment(db: Db, commentId: string): Promise<void> {
  await db
    .updateTable('comments')
    .set({ status: 'open', resolved_at: null, resolved_by: null })
    .where('id', '=', commentId)
    .execute();
}

/** Deletes a comment (its replies and reactions go with it); the status it had, or undefined when it was gone. */
export async function deleteCommentRow(
  db: Db,
  thread: Thread,
  commentId: string,
): Promise<{ status: CommentStatus } | undefined> {
  return db
    .deleteFrom('comments')
    .where('organization_id', '=', thread.organizationId)
    .where('space_id', '=', thread.spaceId)
    .where('id', '=', commentId)
    .returning('status')
    .executeTakeFirst();
}

/**
 * Moves the thread's counters: its open comments (the space's `comments`,
 * or the change request's) and all its comments.
 */
export async function moveThreadCounts(db: Db, thread: Thread, open: -1 | 0 | 1, total: -1 | 0 | 1): Promise<void> {
  const { changeRequestId, spaceId } = thread;
  if (changeRequestId) {
    await db
      .updateTable('change_requests')
      .set((eb) => ({
        comments_count: eb('comments_count', '+', open),
        comments_total_count: eb('comments_total_count', '+', total),
      }))
      .where('id', '=', changeRequestId)
      .execute();
  } else {
    await db
      .updateTable('spaces')
      .set((eb) => ({
        comments_open_count: eb('comments_open_count', '+', open),
        comments_total_count: eb('comments_total_count', '+', total),
      }))
      .where('id', '=', spaceId)
      .execute();
  }
}
