import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Caller } from '../access/auth.js';
import { scopesAllow } from '../access/scopes.js';
import { mayCommentSpace } from '../access/spaces.js';
import type { SpaceWithAccess } from '../access/space-queries.js';
import { listOpenThreadComments } from '../comments/actions.js';
import { firstRepliesOfComments } from '../comments/reply-actions.js';
import { openThread } from '../comments/threads.js';
import type { Comment, CommentReply } from '../comments/schemas.js';
import type { Context } from '../context.js';
import { changeRequestAddress } from './change-request-addresses.js';

/** How many of a page's comments its section shows: the oldest first, as a conversation reads. */
const SHOWN_COMMENTS = 100;

/** How many replies of each comment it shows, the oldest first. */
const SHOWN_REPLIES = 50;

/**
 * The comments on a page of a change request, as the API lists them to the
 * caller, with their first replies; where the caller may comment, a form to
 * add one (about the whole page, or about the block holding text selected on
 * it, which the editor's script names), and to reply, resolve or reopen.
 * Bodies are shown as their markdown, as text.
 */
export async function pageCommentsSection(
  context: Context,
  caller: Caller,
  space: SpaceWithAccess,
  changeRequest: { id: string; number: number },
  page: { pageId: string; url: string },
): Promise<ElementContent> {
  // Opened once for the comments and their replies: opening checks the caller's role and reads the change request.
  const thread = await openThread(context, { spaceId: space.id, changeRequestId: changeRequest.id }, caller.userId);
  const listed = await listOpenThreadComments(context, caller.userId, thread, {
    order: 'asc',
    status: 'all',
    format: 'markdown',
    targetPage: page.pageId,
    limit: SHOWN_COMMENTS,
  });
  const answered = listed.items.filter((comment) => comment.replies > 0).map((comment) => comment.id);
  const replies = await firstRepliesOfComments(context, caller.userId, thread, answered, SHOWN_REPLIES);
  const mayComment = mayCommentSpace(space) && scopesAllow(caller.scopes, 'space:write');
  const place = { organizationId: space.organization_id, spaceId: space.id, changeRequest: changeRequest.number };
  const back = new URL(page.url).pathname;
  const tools = (comment: Comment): ElementContent[] => {
    if (!mayComment) return [];
    const resolved = comment.status === 'resolved';
    const replyId = `quire-reply-${comment.id}`;
    return [
      h('form.reply-form', { action: changeRequestAddress(context, place, 'reply', comment.id), method: 'post' }, [
        h('label', { htmlFor: replyId }, 'Reply'),
        h('textarea', { id: replyId, name: 'reply', rows: 2, required: true, maxLength: 10_000 }),
        h('input', { type: 'hidden', name: 'back', value: back }),
        h('button', { type: 'submit' }, 'Reply'),
      ]),
      h('form.resolve-form', { action: changeRequestAddress(context, place, 'resolve', comment.id), method: 'post' }, [
        h('input', { type: 'hidden', name: 'resolved', value: resolved ? 'false' : 'true' }),
        h('input', { type: 'hidden', name: 'back', value: back }),
        h('button', { type: 'submit' }, resolved ? 'Reopen' : 'Resolve'),
      ]),
    ];
  };
  return h('section.page-comments', { 'aria-labelledby': 'quire-comments-title' }, [
    h('h2#quire-comments-title', 'Comments on this page'),
    listed.items.length === 0
      ? h('p', 'No comments yet.')
      : h(
          'ol.comment-list',
          listed.items.map((comment) => {
            const node = comment.target.node;
            return h(`li${comment.status === 'resolved' ? '.resolved' : ''}`, { id: `comment-${comment.id}` }, [
              posted(comment, comment.status === 'resolved' ? 'resolved' : undefined),
              ...(node?.preview ? [h('blockquote.comment-quote', node.preview)] : []),
              h('p.comment-body', bodyOf(comment)),
              ...((replies.get(comment.id) ?? []).length > 0
                ? [
                    h(
                      'ol.reply-list',
                      { ariaLabel: 'Replies' },
                      replies
                        .get(comment.id)!
                        .map((answer) => h('li', [posted(answer), h('p.comment-body', bodyOf(answer))])),
                    ),
                  ]
                : []),
              ...tools(comment),
            ]);
          }),
        ),
    ...(mayComment
      ? [
          h(
            'form.comment-form',
            { action: changeRequestAddress(context, place, 'comment', page.pageId), method: 'post' },
            [
              h('label', { htmlFor: 'quire-comment' }, 'Add a comment, in markdown'),
              // Shown and filled by the editor's script when text of the page is selected.
              h('p#quire-comment-quote.comment-quote-pick', { hidden: true, ariaLive: 'polite' }),
              h('textarea', { id: 'quire-comment', name: 'comment', rows: 3, required: true, maxLength: 10_000 }),
              h('input', { type: 'hidden', name: 'quote', value: '' }),
              h('input', { type: 'hidden', name: 'back', value: back }),
              h('button', { type: 'submit' }, 'Comment'),
            ],
          ),
        ]
      : []),
  ]);
}

/** Who posted a comment or reply, and when; and a mark such as "resolved". */
function posted(post: Comment | CommentReply, mark?: string): ElementContent {
  const author = (post.postedBy as { displayName?: string }).displayName ?? 'Someone';
  return h('p.comment-meta', [
    h('strong', author),
    ' on ',
    h('time', { dateTime: post.postedAt }, post.postedAt.slice(0, 16).replace('T', ' ')),
    ' UTC',
    ...(mark ? [' · ', h('span.comment-mark', mark)] : []),
  ]);
}

function bodyOf(post: Comment | CommentReply): string {
  return (post.body as { markdown?: string }).markdown ?? '';
}
