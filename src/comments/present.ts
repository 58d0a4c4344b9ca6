import type { FastifyInstance } from 'fastify';
import type { User } from '../core/schemas.js';
import type { JSONDocument } from '../model/content/document/index.js';
import { bodyDocuments } from './documents.js';
import type { ContentTree } from '../model/content/tree.js';
import type { CommentReplyRow, CommentRow } from '../db/types.js';
import { presentUser, type EmailVisibility } from '../model/people/users.js';
import { emailVisibilityFor } from '../model/people/user-queries.js';
import { pageVersionsByIds, reactionsToReplies, usersByIds, type CommentRecord, type ReactionRecord, type UserRecord } from './queries.js';
import type { Comment, CommentReply } from './schemas.js';
import { canComment, mayDelete, type ThreadContext } from './threads.js';

export type BodyFormat = 'markdown' | 'document';

/** Bodies' stored documents where the format asks for them (read in one query), else nothing to read. */
function documentsFor(app: FastifyInstance, table: 'comments' | 'comment_replies', rows: ReadonlyArray<{ id: string; body: string }>, format: BodyFormat) {
  return format === 'document' ? bodyDocuments(app.db, app.conversions, table, rows) : Promise.resolve(null);
}

function presentBody(row: { id: string; body: string }, documents: Map<string, JSONDocument> | null): Comment['body'] {
  return documents ? { document: documents.get(row.id)! } : { markdown: row.body };
}

type Reactions = Comment['reactions'];

/** Reactions grouped by emoji, in the order each emoji was first used; each user once per emoji. */
function groupReactions(reactions: readonly ReactionRecord[], userOf: (id: string) => User): Reactions {
  const byEmoji = new Map<string, Reactions[number]>();
  for (const reaction of reactions) {
    let group = byEmoji.get(reaction.emoji);
    if (!group) {
      group = { emoji: reaction.emoji, count: 0, users: [] };
      byEmoji.set(reaction.emoji, group);
    }
    group.count += 1;
    group.users.push({ user: userOf(reaction.user_id), reactedAt: reaction.reacted_at.toISOString() });
  }
  return [...byEmoji.values()];
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/**
 * Users by id, presented, with the e-mails `emails` allows; a user missing
 * from the map (never the case: rows reference users) shows their id.
 */
function userLookup(app: FastifyInstance, users: Map<string, UserRecord>, emails: EmailVisibility): (id: string) => User {
  const presented = new Map<string, User>();
  return (id) => {
    let user = presented.get(id);
    if (!user) {
      const row = users.get(id);
      user = presentUser({ id, email: row?.email ?? '', displayName: row?.display_name ?? id, photoUrl: row?.photo_url ?? null }, app.urls, emails);
      presented.set(id, user);
    }
    return user;
  };
}

type Permissions = Comment['permissions'];

/**
 * What the caller may do to a comment or reply they see, by its author: the
 * answer is one of two, made once per response.
 */
function permissionsFor(context: ThreadContext, userId: string): (postedBy: string) => Permissions {
  const open = canComment(context);
  const live = context.space.edit_mode !== 'locked';
  const own: Permissions = { view: true, edit: open, reply: open, delete: live && mayDelete(context, true) };
  const others: Permissions = { view: true, edit: false, reply: open, delete: live && mayDelete(context, false) };
  return (postedBy) => (postedBy === userId ? own : others);
}

/** The users a comment record carries, and its reactions as records. */
function unpackPeople(row: CommentRecord, users: Map<string, UserRecord>): ReactionRecord[] {
  const known = (id: string, email: string | null, name: string | null, photo: string | null) => {
    if (email !== null && name !== null) users.set(id, { id, email, display_name: name, photo_url: photo });
  };
  known(row.posted_by, row.posted_by_email, row.posted_by_name, row.posted_by_photo);
  if (row.resolved_by) known(row.resolved_by, row.resolved_by_email, row.resolved_by_name, row.resolved_by_photo);
  return (row.reactions ?? []).map(([emoji, userId, reactedAt, email, name, photo]) => {
    known(userId, email, name, photo);
    return { comment_id: row.id, reply_id: null, emoji, user_id: userId, reacted_at: new Date(reactedAt) };
  });
}

/**
 * Comments as the spec's Comment, for one caller. Each record carries its
 * users and reactions; only the stored states of pages gone from the content
 * are read here, for the whole batch at once. `tree` is the thread's current
 * content, which says where each page is now and whether it changed.
 */
export async function presentComments(
  app: FastifyInstance,
  context: ThreadContext,
  rows: readonly CommentRecord[],
  tree: ContentTree,
  format: BodyFormat,
  userId: string,
): Promise<Comment[]> {
  const gone = rows.filter((row) => row.page_id && row.page_version_id && !tree.pages.has(row.page_id)).map((row) => row.page_version_id!);
  const versions = await pageVersionsByIds(app.db, [...new Set(gone)]);
  const users = new Map<string, UserRecord>();
  const reactionsOf = new Map(rows.map((row) => [row.id, unpackPeople(row, users)]));
  const userOf = userLookup(app, users, await emailVisibilityFor(app.db, userId, [...users.keys()], context.space.organization_id));

  const documents = await documentsFor(app, 'comments', rows, format);
  const permissionsOf = permissionsFor(context, userId);
  // Many comments of a page target the same page: its target is made once.
  const targets = new Map<string, PageTarget>();
  const targetOf = (row: CommentRecord) => {
    const key = `${row.page_id}|${row.page_version_id}`;
    let target = targets.get(key);
    if (!target) {
      target = pageTarget(row, tree, versions);
      targets.set(key, target);
    }
    return target;
  };

  return rows.map((row) => {
    const target: Comment['target'] = { space: row.space_id, revision: row.revision_id };
    if (row.node_id) target.node = row.node_preview ? { id: row.node_id, preview: row.node_preview } : { id: row.node_id };
    if (row.change_request_id) target.changeRequest = row.change_request_id;
    if (row.page_id) target.page = targetOf(row);
    const comment: Comment = {
      object: 'comment',
      id: row.id,
      postedBy: userOf(row.posted_by),
      postedAt: row.posted_at.toISOString(),
      reactions: groupReactions(reactionsOf.get(row.id)!, userOf),
      replies: row.replies_count,
      body: presentBody(row, documents),
      target,
      urls: { location: app.urls.api(...context.path, row.id) },
      permissions: permissionsOf(row.posted_by),
      status: row.status,
    };
    if (row.edited_at) comment.editedAt = row.edited_at.toISOString();
    if (row.status === 'resolved' && row.resolved_at) {
      comment.resolvedAt = row.resolved_at.toISOString();
      if (row.resolved_by) comment.resolvedBy = userOf(row.resolved_by);
    }
    return comment;
  });
}

type PageTarget = NonNullable<Comment['target']['page']>;
type StoredVersion = Awaited<ReturnType<typeof pageVersionsByIds>> extends Map<string, infer V> ? V : never;

/** The page as it is now in the thread's content; or, when it is gone, as it was when the comment was posted. */
function pageTarget(row: CommentRow, tree: ContentTree, versions: Map<string, StoredVersion>): PageTarget {
  const pageId = row.page_id!;
  const current = tree.pages.get(pageId);
  if (current) {
    return {
      id: pageId,
      title: current.title,
      ...(current.emoji ? { emoji: current.emoji } : {}),
      ...(current.icon ? { icon: current.icon } : {}),
      createdAt: current.pageCreatedAt.toISOString(),
      updatedAt: current.updatedAt.toISOString(),
      path: tree.pathOf(pageId),
      outdated: current.versionId !== row.page_version_id,
    };
  }
  const stored = row.page_version_id ? versions.get(row.page_version_id) : undefined;
  return {
    id: pageId,
    title: stored?.title ?? pageId,
    ...(stored?.emoji ? { emoji: stored.emoji } : {}),
    ...(stored?.icon ? { icon: stored.icon } : {}),
    ...(stored ? { createdAt: stored.page_created_at.toISOString(), updatedAt: stored.created_at.toISOString() } : {}),
    path: row.page_path ?? '',
    outdated: true,
  };
}

/** Replies as the spec's CommentReply, for one caller. */
export async function presentReplies(
  app: FastifyInstance,
  context: ThreadContext,
  rows: readonly CommentReplyRow[],
  format: BodyFormat,
  userId: string,
): Promise<CommentReply[]> {
  const reactions = await reactionsToReplies(app.db, rows.map((row) => row.id));
  const users = await usersByIds(app.db, [...rows.map((row) => row.posted_by), ...reactions.map((reaction) => reaction.user_id)]);
  const userOf = userLookup(app, users, await emailVisibilityFor(app.db, userId, [...users.keys()], context.space.organization_id));
  const reactionsOf = groupBy(reactions, (reaction) => reaction.reply_id!);
  const documents = await documentsFor(app, 'comment_replies', rows, format);
  const permissionsOf = permissionsFor(context, userId);
  return rows.map((row) => ({
    object: 'comment-reply',
    id: row.id,
    postedBy: userOf(row.posted_by),
    postedAt: row.posted_at.toISOString(),
    ...(row.edited_at ? { editedAt: row.edited_at.toISOString() } : {}),
    reactions: groupReactions(reactionsOf.get(row.id) ?? [], userOf),
    body: presentBody(row, documents),
    urls: { location: app.urls.api(...context.path, row.comment_id, 'replies', row.id) },
    permissions: permissionsOf(row.posted_by),
  }));
}
