import type { User } from '../core/schemas.js';
import type { Urls } from '../core/urls.js';
import type { CommentReplyRow, CommentRow } from '../db/types.js';
import type { JSONDocument } from '../document/index.js';
import type { Member } from '../members/member-schemas.js';
import type { ContentTree } from '../content/tree.js';
import { presentUser, type EmailVisibility } from '../users/users.js';
import type { CommenterRow } from './commenter-queries.js';
import type { CommentRecord, StoredPageVersion, UserRecord } from './queries.js';
import type { ReactionRecord } from './reaction-queries.js';
import type { Comment, CommentReply } from './schemas.js';
import { canComment, mayDelete, type OpenThread } from './threads.js';

/** What presenting a batch of comments or replies to one caller needs besides the rows, loaded before. */
export interface Viewing {
  thread: OpenThread;
  /** The caller. */
  userId: string;
  urls: Urls;
  /** Whose e-mail the caller may see, among the users the batch shows. */
  emails: EmailVisibility;
  /** The bodies' stored documents, by id, where the format asks for them; null shows bodies as markdown. */
  documents: Map<string, JSONDocument> | null;
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
function userLookup(users: Map<string, UserRecord>, urls: Urls, emails: EmailVisibility): (id: string) => User {
  const presented = new Map<string, User>();
  return (id) => {
    let user = presented.get(id);
    if (!user) {
      const row = users.get(id);
      const fields = {
        id,
        email: row?.email ?? '',
        displayName: row?.display_name ?? id,
        photoUrl: row?.photo_url ?? null,
      };
      user = presentUser(fields, urls, emails);
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
function permissionsFor(thread: OpenThread, userId: string): (postedBy: string) => Permissions {
  const open = canComment(thread);
  const live = thread.space.edit_mode !== 'locked';
  const own: Permissions = { view: true, edit: open, reply: open, delete: live && mayDelete(thread, true) };
  const others: Permissions = { view: true, edit: false, reply: open, delete: live && mayDelete(thread, false) };
  return (postedBy) => (postedBy === userId ? own : others);
}

/** The users comment records carry: their authors, who resolved them, and who reacted to them. */
export function usersOfComments(rows: readonly CommentRecord[]): Map<string, UserRecord> {
  const users = new Map<string, UserRecord>();
  const known = (id: string, email: string | null, name: string | null, photo: string | null) => {
    if (email !== null && name !== null) users.set(id, { id, email, display_name: name, photo_url: photo });
  };
  for (const row of rows) {
    known(row.posted_by, row.posted_by_email, row.posted_by_name, row.posted_by_photo);
    if (row.resolved_by) known(row.resolved_by, row.resolved_by_email, row.resolved_by_name, row.resolved_by_photo);
    for (const [, userId, , email, name, photo] of row.reactions ?? []) known(userId, email, name, photo);
    for (const [userId, , , email, name, photo] of row.repliers ?? []) known(userId, email, name, photo);
  }
  return users;
}

/** The reactions a comment record carries, as records. */
function reactionsOf(row: CommentRecord): ReactionRecord[] {
  return (row.reactions ?? []).map(([emoji, userId, reactedAt]) => ({
    comment_id: row.id,
    reply_id: null,
    emoji,
    user_id: userId,
    reacted_at: new Date(reactedAt),
  }));
}

/** The page versions to read for comments whose page is gone from the thread's current content. */
export function goneVersionIds(rows: readonly CommentRecord[], tree: ContentTree): string[] {
  const gone = rows.filter((row) => row.page_id && row.page_version_id && !tree.pages.has(row.page_id));
  return [...new Set(gone.map((row) => row.page_version_id!))];
}

/**
 * Comments as the spec's Comment, for one caller. Each record carries its
 * users (`users`, from usersOfComments) and reactions; `versions` are the
 * stored states of pages gone from the content. `tree` is the thread's
 * current content, which says where each page is now and whether it changed.
 */
export function presentComments(
  rows: readonly CommentRecord[],
  tree: ContentTree,
  versions: Map<string, StoredPageVersion>,
  users: Map<string, UserRecord>,
  viewing: Viewing,
): Comment[] {
  const { thread, urls, documents } = viewing;
  const userOf = userLookup(users, urls, viewing.emails);
  const permissionsOf = permissionsFor(thread, viewing.userId);
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
    if (row.node_id)
      target.node = row.node_preview ? { id: row.node_id, preview: row.node_preview } : { id: row.node_id };
    if (row.change_request_id) target.changeRequest = row.change_request_id;
    if (row.page_id) target.page = targetOf(row);
    const comment: Comment = {
      object: 'comment',
      id: row.id,
      postedBy: userOf(row.posted_by),
      postedAt: row.posted_at.toISOString(),
      reactions: groupReactions(reactionsOf(row), userOf),
      replies: row.replies_count,
      repliers: (row.repliers ?? []).map(([userId, count, lastAt]) => ({
        user: userOf(userId),
        count,
        updatedAt: new Date(lastAt).toISOString(),
      })),
      body: presentBody(row, documents),
      target,
      urls: { location: urls.api(...thread.path, row.id) },
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

/** The page as it is now in the thread's content; or, when it is gone, as it was when the comment was posted. */
function pageTarget(row: CommentRow, tree: ContentTree, versions: Map<string, StoredPageVersion>): PageTarget {
  const pageId = row.page_id!;
  const current = tree.pages.get(pageId);
  if (current) {
    return {
      id: pageId,
      title: current.title,
      ...(current.emoji ? { emoji: current.emoji } : {}),
      ...(current.icon ? { icon: current.icon } : {}),
      createdAt: current.pageCreatedAt,
      updatedAt: current.updatedAt,
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

/**
 * Replies as the spec's CommentReply, for one caller, with the reactions to
 * them and the users they show (authors and those who reacted).
 */
export function presentReplies(
  rows: readonly CommentReplyRow[],
  reactions: readonly ReactionRecord[],
  users: Map<string, UserRecord>,
  viewing: Viewing,
): CommentReply[] {
  const { thread, urls, documents } = viewing;
  const userOf = userLookup(users, urls, viewing.emails);
  const reactionsOf = groupBy(reactions, (reaction) => reaction.reply_id!);
  const permissionsOf = permissionsFor(thread, viewing.userId);
  return rows.map((row) => ({
    object: 'comment-reply',
    id: row.id,
    postedBy: userOf(row.posted_by),
    postedAt: row.posted_at.toISOString(),
    ...(row.edited_at ? { editedAt: row.edited_at.toISOString() } : {}),
    reactions: groupReactions(reactionsOf.get(row.id) ?? [], userOf),
    body: presentBody(row, documents),
    urls: { location: urls.api(...thread.path, row.comment_id, 'replies', row.id) },
    permissions: permissionsOf(row.posted_by),
  }));
}

/**
 * A commenter who has left the organization, as the spec's OrganizationMember:
 * no role, disabled (the membership reaches nothing), in no team, space or site.
 * When they joined is no longer known; the first post in the thread, when they
 * surely were a member, stands for it. The e-mail shows only where `emails`
 * allows it: leaving must not show it to anyone who could not see it before.
 */
export function presentFormerMember(row: CommenterRow, urls: Urls, emails: EmailVisibility): Member {
  return {
    object: 'member',
    id: row.user_id,
    role: null,
    user: presentUser(
      { id: row.user_id, email: row.email, displayName: row.display_name, photoUrl: row.photo_url },
      urls,
      emails,
    ),
    disabled: true,
    joinedAt: row.first_posted_at.toISOString(),
    sso: false,
    spaces: 0,
    teams: 0,
    sites: 0,
  };
}
