import type { FastifyInstance } from 'fastify';
import { newId } from '../src/core/ids.js';
import type { Insertable } from 'kysely';
import type { CommentStatus, CommentsTable, Role } from '../src/db/types.js';
import { random, seedContentSpace, type ContentShape } from './seed-content.js';

/** Comments on the space itself (no change request), newest first in the list. */
export const COMMENTS_IN_SPACE = 100_000;
/** Where the deep page starts, in comments from the newest. */
export const DEEP_COMMENTS_OFFSET = 90_000;
const AUTHORS = 40;
const REPLIES = 20_000;
/** Posting times are spread over this window, about six months. */
const SPREAD_MS = 180 * 86_400_000;
/** The pages commented on: 200, a documentation space of an ordinary size. */
const COMMENTED_SPACE: ContentShape = { sections: 10, pagesPerSection: 20 };
/** Share of the comments on the space as a whole rather than on a page: a few thousand. */
const WITHOUT_PAGE = 0.03;
/** Share of the comments that have replies; the replies are spread over them, some threads long. */
const DISCUSSED = 0.08;
/** Rows per INSERT: 18 columns × 1,000 stays well under PostgreSQL's 65,535 parameters. */
const BATCH = 1_000;
/** Comments per request while walking to the deep page: the list's maximum, so about 90 requests. */
const WALK_LIMIT = 1_000;

const EMOJIS = ['👍', '🎉', '❤️', '👀', '🚀', '😄'];

/** The space with its comments, and what the scenarios' checks expect of its lists. */
export interface SeededComments {
  spaceId: string;
  /** Open comments: the count of `?status=open`, and the space's `comments_open_count`. */
  open: number;
  /** The two authors of the `authors` scenario, and how many comments they posted together. */
  authorIds: [string, string];
  byAuthors: number;
  /** The newest comment, first on the first page. */
  newestId: string;
  /** The `page` cursor that starts DEEP_COMMENTS_OFFSET comments in, and the comment it starts with. */
  deepPage: string;
  deepPageFirstId: string;
}

const WORDS = (
  'this the page section example step link table heading code snippet paragraph sentence screenshot diagram list wording ' +
  'reads says shows explains misses needs repeats contradicts assumes mentions links describes covers ' +
  'outdated unclear confusing wrong correct missing longer shorter newer older current previous public internal ' +
  'api token endpoint request response field parameter header error limit default version release setting permission ' +
  'users readers customers admins members teams after before since when here there again still already'
).split(' ');
const OPENINGS = [
  'Should this mention',
  'I think we need to update',
  'Nit: can we reword',
  'Is this still true for',
  'Could we add an example of',
  'This contradicts',
  'Small typo in',
  'Can someone from the API team confirm',
];

function words(next: () => number, count: number): string {
  return Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
}

/**
 * A review comment of 150 to 600 characters of markdown: a question, then
 * sometimes inline code, a link, a quoted suggestion or a short list.
 */
function commentMarkdown(next: () => number): string {
  const parts = [`${OPENINGS[Math.floor(next() * OPENINGS.length)]} ${words(next, 6 + Math.floor(next() * 8))}?`];
  const extras = Math.floor(next() * 4);
  for (let e = 0; e < extras; e++) {
    const kind = Math.floor(next() * 4);
    if (kind === 0)
      parts.push(
        `The \`${words(next, 1)}\` ${words(next, 10)}, see [the reference](https://docs.example.com/reference/${words(next, 1)}).`,
      );
    else if (kind === 1) parts.push(`Suggestion:\n\n> ${words(next, 14 + Math.floor(next() * 10))}.`);
    else if (kind === 2)
      parts.push(
        [`- ${words(next, 6)}`, `- ${words(next, 8)}`, `- **${words(next, 2)}** ${words(next, 5)}`].join('\n'),
      );
    else parts.push(`${words(next, 12 + Math.floor(next() * 12))}.`);
  }
  const body = parts.join('\n\n');
  return body.length >= 150 ? body : `${body}\n\n${words(next, 20)}.`;
}

/** A reply: a sentence or two. */
function replyMarkdown(next: () => number): string {
  return next() < 0.3
    ? `Done, ${words(next, 5)}.`
    : `Agreed, ${words(next, 8 + Math.floor(next() * 10))}. ${words(next, 6)}.`;
}

/** A comment as inserted; its replies are counted as they are made. */
type CommentRow = Omit<Insertable<CommentsTable>, 'replies_count' | 'posted_at' | 'status'> & {
  replies_count: number;
  posted_at: Date;
  status: CommentStatus;
};

/**
 * Creates a space of 200 pages in `organizationId` through the API, then,
 * in one transaction of batched inserts, gives it 40 commenters (members of
 * the organization) and COMMENTS_IN_SPACE comments on the space itself:
 * posted over six months at distinct times, a few authors posting most of
 * them, about a third resolved (older ones more often), most on a page and
 * about half of those on a block of it, with 20,000 replies and some
 * reactions. The space's `comments_open_count` and `comments_total_count` are set to what is inserted.
 * The deep page's cursor comes later, from findCommentsPage.
 */
export async function seedComments(
  app: FastifyInstance,
  authorization: string,
  organizationId: string,
): Promise<Omit<SeededComments, 'deepPage'>> {
  const { db } = app.context;
  const { spaceId } = await seedContentSpace(
    app,
    authorization,
    organizationId,
    COMMENTED_SPACE,
    'Bench reviews (100,000 comments)',
  );
  const { revision_id: revisionId } = await db
    .selectFrom('spaces')
    .select('revision_id')
    .where('id', '=', spaceId)
    .executeTakeFirstOrThrow();
  const versions = await db
    .selectFrom('tree_entries as t')
    .innerJoin('page_versions as v', 'v.id', 't.version_id')
    .select(['t.item_id as pageId', 'v.id as versionId', 'v.parent_page_id as parentId', 'v.slug'])
    .where('t.space_id', '=', spaceId)
    .where('t.change_request_id', 'is', null)
    .where('t.to_seq', 'is', null)
    .where('t.kind', '=', 'page')
    .orderBy('t.item_id')
    .execute();
  // Stored with each comment as the service stores it, for when the page is gone: its slug under its parents'.
  const byId = new Map(versions.map((version) => [version.pageId, version]));
  const pathOf = (pageId: string): string => {
    const { parentId, slug } = byId.get(pageId)!;
    return parentId !== null && byId.has(parentId) ? `${pathOf(parentId)}/${slug}` : slug;
  };
  const pages = versions.map((version) => ({ ...version, path: pathOf(version.pageId) }));

  const next = random(20_251_201);
  const now = Date.now();
  const start = now - SPREAD_MS;
  const later = (from: Date, maxMs: number) =>
    new Date(Math.min(now, from.getTime() + 60_000 + Math.floor(next() ** 2 * maxMs)));

  const authors = Array.from({ length: AUTHORS }, (_, i) => {
    const at = new Date(start - (AUTHORS - i) * 86_400_000);
    return {
      id: newId(),
      email: `commenter-${i}@bench.example`,
      display_name: `Bench Commenter ${i}`,
      photo_url: null,
      created_at: at,
      updated_at: at,
    };
  });
  // The most active commenters are the space's editors, and they resolve the threads.
  const roleOf = (i: number): Role => (i < 8 ? 'edit' : i < 16 ? 'review' : 'comment');
  const editors = authors.slice(0, 8);
  // A few authors post most comments: author k's share falls as 1 / (k + 1).
  let totalWeight = 0;
  const cumulative = authors.map((_, k) => (totalWeight += 1 / (k + 1)));
  const pickAuthor = () => {
    const r = next() * totalWeight;
    return authors[cumulative.findIndex((bound) => r < bound)] ?? authors[AUTHORS - 1]!;
  };

  const step = Math.floor(SPREAD_MS / COMMENTS_IN_SPACE);
  const comments: CommentRow[] = [];
  for (let i = 0; i < COMMENTS_IN_SPACE; i++) {
    // Strictly increasing: each comment falls in its own `step`-wide slot.
    const postedAt = new Date(start + i * step + Math.floor(next() * step));
    // Half of the oldest comments are resolved, 15% of the newest: a third over all.
    const resolved = next() < 0.5 - (0.35 * i) / COMMENTS_IN_SPACE;
    const page = next() < WITHOUT_PAGE ? undefined : pages[Math.floor(next() ** 2 * pages.length)]!;
    const onBlock = page !== undefined && next() < 0.5;
    comments.push({
      id: newId(),
      organization_id: organizationId,
      space_id: spaceId,
      change_request_id: null,
      revision_id: revisionId,
      page_id: page?.pageId ?? null,
      page_version_id: page?.versionId ?? null,
      page_path: page?.path ?? null,
      node_id: onBlock ? newId() : null,
      node_preview: onBlock ? `${words(next, 8)}.` : null,
      posted_by: pickAuthor().id,
      posted_at: postedAt,
      edited_at: next() < 0.06 ? later(postedAt, 3_600_000) : null,
      body: commentMarkdown(next),
      status: resolved ? 'resolved' : 'open',
      resolved_at: resolved ? later(postedAt, 21 * 86_400_000) : null,
      resolved_by: resolved ? editors[Math.floor(next() * editors.length)]!.id : null,
      replies_count: 0,
    });
  }

  const discussed = comments.filter(() => next() < DISCUSSED);
  const replies = Array.from({ length: REPLIES }, () => {
    // Squared, so that a few threads run long.
    const comment = discussed[Math.floor(next() ** 2 * discussed.length)]!;
    comment.replies_count++;
    return {
      id: newId(),
      organization_id: organizationId,
      space_id: spaceId,
      comment_id: comment.id,
      posted_by: pickAuthor().id,
      posted_at: later(comment.posted_at, 3 * 86_400_000),
      edited_at: null,
      body: replyMarkdown(next),
    };
  });

  // Distinct users per comment or reply (7 is prime to 40), so no (comment, reply, emoji, user) repeats.
  const reactionsOn = (commentId: string, replyId: string | null, postedAt: Date, count: number) => {
    const first = Math.floor(next() * AUTHORS);
    return Array.from({ length: count }, (_, j) => ({
      organization_id: organizationId,
      space_id: spaceId,
      comment_id: commentId,
      reply_id: replyId,
      emoji: EMOJIS[Math.floor(next() ** 2 * EMOJIS.length)]!,
      user_id: authors[(first + j * 7) % AUTHORS]!.id,
      reacted_at: later(postedAt, 2 * 86_400_000),
    }));
  };
  const reactions = [
    ...comments.flatMap((comment) =>
      next() < 0.15 ? reactionsOn(comment.id, null, comment.posted_at, 1 + Math.floor(next() * 4)) : [],
    ),
    ...replies.flatMap((reply) =>
      next() < 0.05 ? reactionsOn(reply.comment_id, reply.id, reply.posted_at, 1 + Math.floor(next() * 2)) : [],
    ),
  ];

  const open = comments.filter((comment) => comment.status === 'open').length;
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('users').values(authors).execute();
    await tx
      .insertInto('organization_members')
      .values(
        authors.map((author, i) => ({
          organization_id: organizationId,
          user_id: author.id,
          role: roleOf(i),
          joined_at: author.created_at,
        })),
      )
      .execute();
    for (let i = 0; i < comments.length; i += BATCH)
      await tx
        .insertInto('comments')
        .values(comments.slice(i, i + BATCH))
        .execute();
    for (let i = 0; i < replies.length; i += BATCH)
      await tx
        .insertInto('comment_replies')
        .values(replies.slice(i, i + BATCH))
        .execute();
    for (let i = 0; i < reactions.length; i += BATCH)
      await tx
        .insertInto('comment_reactions')
        .values(reactions.slice(i, i + BATCH))
        .execute();
    await tx
      .updateTable('spaces')
      .set({ comments_open_count: open, comments_total_count: comments.length })
      .where('id', '=', spaceId)
      .execute();
  });

  // Two authors of the middle of the range: a filter that keeps a few thousand comments.
  const authorIds: [string, string] = [authors[4]!.id, authors[19]!.id];
  const newestFirst = comments.slice().reverse();
  return {
    spaceId,
    open,
    authorIds,
    byAuthors: comments.filter((comment) => authorIds.includes(comment.posted_by)).length,
    newestId: newestFirst[0]!.id,
    deepPageFirstId: newestFirst[DEEP_COMMENTS_OFFSET]!.id,
  };
}

/**
 * The `page` cursor of GET /v1/spaces/{id}/comments that starts `offset`
 * comments in, found as a client would: following `next.page` from the
 * first page, WALK_LIMIT comments at a time.
 */
export async function findCommentsPage(
  app: FastifyInstance,
  authorization: string,
  spaceId: string,
  offset: number,
): Promise<string> {
  let cursor: string | undefined;
  for (let seen = 0; seen < offset;) {
    const limit = Math.min(WALK_LIMIT, offset - seen);
    const response = await app.inject({
      method: 'GET',
      url: `/v1/spaces/${spaceId}/comments`,
      query: { limit: String(limit), ...(cursor === undefined ? {} : { page: cursor }) },
      headers: { authorization },
    });
    if (response.statusCode !== 200) {
      throw new Error(
        `Seeding comments: the page ${seen} comments in answered ${response.statusCode}: ${response.body.slice(0, 500)}`,
      );
    }
    const page = response.json<{ next?: { page: string }; items: unknown[] }>();
    if (page.items.length !== limit || page.next === undefined) {
      throw new Error(
        `Seeding comments: the page ${seen} comments in has ${page.items.length} of ${limit} comments${page.next ? '' : ' and no next page'}`,
      );
    }
    seen += limit;
    cursor = page.next.page;
  }
  if (cursor === undefined) throw new Error('Seeding comments: no page to walk to');
  return cursor;
}
