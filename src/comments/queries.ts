import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { CommentReplyRow, CommentRow, CommentsTable, Database } from '../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../core/pagination.js';
import { membersOf, selectMember } from '../model/people/member-queries.js';

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

/** A reaction as the list query carries it: [emoji, user id, when, the user's e-mail, name and photo]. */
export type ReactionTuple = [string, string, string, string, string, string | null];

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
        select json_agg(json_build_array(x.emoji, x.user_id, x.reacted_at, xu.email, xu.display_name, xu.photo_url)
          order by x.reacted_at, x.emoji, x.user_id)
        from comment_reactions x join users xu on xu.id = x.user_id
        where x.comment_id = c.id and x.reply_id is null)`.as('reactions'),
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
}

const REPLY_COLUMNS = ['r.id', 'r.organization_id', 'r.space_id', 'r.comment_id', 'r.posted_by', 'r.posted_at', 'r.edited_at', 'r.body'] as const;

/**
 * `column = any($1)`: one statement text whatever the number of ids, where
 * `in (...)` would prepare a statement per list length.
 */
const anyOf = (column: string, ids: readonly string[]) => sql<boolean>`${sql.ref(column)} = any(${[...ids]}::text[])`;

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
  let query = db.selectFrom('comments as c').where('c.space_id', '=', next<string>()).where('c.thread_key', '=', next<string>());
  if (shape.status) query = query.where('c.status', '=', next<'open' | 'resolved'>());
  if (shape.authors) query = query.where(sql<boolean>`c.posted_by = any(${next<string[]>()}::text[])`);
  if (shape.page) query = query.where('c.page_id', '=', next<string>());
  return query;
}

type CommentPage = (db: Db, request: PageRequest, ...args: unknown[]) => Promise<Array<CommentRecord & { [TOTAL_COUNT]?: string }>>;
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
        return page.select(() => threadComments(db, shape, args).select((eb) => eb.fn.countAll<string>().as('n')).as(TOTAL_COUNT));
      },
      arity,
    ) as CommentPage;
    commentPages.set(key, run);
  }
  return run;
}

/** Whether the thread's counters give the count of a list with these filters: only by status, or none. */
export const countedByCounters = (filters: CommentFilters) => filters.authors === undefined && filters.pageId === undefined;

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

/** A page of a thread's comments; with authors or page filters, each row carries the count of the whole filtered list. */
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

/** One comment of the thread, or undefined. */
export async function findComment(db: Db, thread: Thread, commentId: string): Promise<CommentRecord | undefined> {
  return withPeople(db.selectFrom('comments as c').select(COMMENT_COLUMNS))
    .where('c.id', '=', commentId)
    .where('c.space_id', '=', thread.spaceId)
    .where('c.thread_key', '=', threadKey(thread))
    .executeTakeFirst();
}

/** One reply of the comment, or undefined. */
export async function findReply(db: Db, commentId: string, replyId: string): Promise<CommentReplyRow | undefined> {
  return db.selectFrom('comment_replies as r').select(REPLY_COLUMNS).where('r.id', '=', replyId).where('r.comment_id', '=', commentId).executeTakeFirst();
}

/** A page of a comment's replies, oldest first, each row carrying the count. */
export const listReplies = pageQuery({ createdAt: 'r.posted_at', id: 'r.id' }, (db, commentId: string) =>
  db
    .selectFrom('comment_replies as r')
    .select(REPLY_COLUMNS)
    .select((eb) => eb.selectFrom('comment_replies as all').select(eb.fn.countAll<string>().as('n')).where('all.comment_id', '=', commentId).as(TOTAL_COUNT))
    .where('r.comment_id', '=', commentId),
);

export interface ReactionRecord {
  comment_id: string;
  reply_id: string | null;
  emoji: string;
  user_id: string;
  reacted_at: Date;
}

export async function reactionsToReplies(db: Db, replyIds: readonly string[]): Promise<ReactionRecord[]> {
  if (replyIds.length === 0) return [];
  return db
    .selectFrom('comment_reactions')
    .select(['comment_id', 'reply_id', 'emoji', 'user_id', 'reacted_at'])
    .where(anyOf('reply_id', replyIds))
    .orderBy('reacted_at')
    .orderBy('emoji')
    .orderBy('user_id')
    .execute();
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
  const rows = await db.selectFrom('users').select(['id', 'email', 'display_name', 'photo_url']).where(anyOf('id', unique)).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The stored states of page versions, for comments whose page is gone from the current content. */
export async function pageVersionsByIds(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('page_versions')
    .select(['id', 'page_id', 'title', 'emoji', 'icon', 'page_created_at', 'created_at'])
    .where(anyOf('id', ids))
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

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

function commenterPage(db: Kysely<Database>, organizationId: string, spaceId: string, changeRequestId: string | undefined) {
  const members = () => membersOf(db, organizationId).where('organization_members.user_id', 'in', commenterIds(db, spaceId, changeRequestId));
  return selectMember(members()).select(() =>
    members()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .as(TOTAL_COUNT),
  );
}

const byJoining = { createdAt: 'organization_members.joined_at', id: 'organization_members.user_id' };
const spaceCommenters = pageQuery(byJoining, (db, organizationId: string, spaceId: string) => commenterPage(db, organizationId, spaceId, undefined));
const changeRequestCommenters = pageQuery(byJoining, (db, organizationId: string, spaceId: string, changeRequestId: string) =>
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
