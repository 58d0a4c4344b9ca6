import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Caller } from '../access/auth.js';
import { scopesAllow } from '../access/scopes.js';
import { mayCommentSpace } from '../access/spaces.js';
import type { SpaceWithAccess } from '../access/space-queries.js';
import { listThreadComments } from '../comments/actions.js';
import type { Context } from '../context.js';
import { changeRequestAddress } from './change-request-addresses.js';

/** How many of a page's comments its section shows: the oldest first, as a conversation reads. */
const SHOWN_COMMENTS = 100;

/**
 * The comments on a page of a change request, as the API lists them to the
 * caller, and a form to add one where the caller may comment. Bodies are
 * shown as their markdown, as text.
 */
export async function pageCommentsSection(
  context: Context,
  caller: Caller,
  space: SpaceWithAccess,
  changeRequest: { id: string; number: number },
  page: { pageId: string; url: string },
): Promise<ElementContent> {
  const listed = await listThreadComments(
    context,
    caller.userId,
    { spaceId: space.id, changeRequestId: changeRequest.id },
    { order: 'asc', status: 'all', format: 'markdown', targetPage: page.pageId, limit: SHOWN_COMMENTS },
  );
  const mayComment = mayCommentSpace(space) && scopesAllow(caller.scopes, 'space:write');
  const action = changeRequestAddress(
    context,
    { organizationId: space.organization_id, spaceId: space.id, changeRequest: changeRequest.number },
    'comment',
    page.pageId,
  );
  return h('section.page-comments', { 'aria-labelledby': 'quire-comments-title' }, [
    h('h2#quire-comments-title', 'Comments on this page'),
    listed.items.length === 0
      ? h('p', 'No comments yet.')
      : h(
          'ol.comment-list',
          listed.items.map((comment) => {
            const author = (comment.postedBy as { displayName?: string }).displayName ?? 'Someone';
            const markdown = (comment.body as { markdown?: string }).markdown ?? '';
            return h('li', [
              h('p.comment-meta', [
                h('strong', author),
                ' on ',
                h('time', { dateTime: comment.postedAt }, comment.postedAt.slice(0, 16).replace('T', ' ')),
                ' UTC',
              ]),
              h('p.comment-body', markdown),
            ]);
          }),
        ),
    ...(mayComment
      ? [
          h('form.comment-form', { action, method: 'post' }, [
            h('label', { htmlFor: 'quire-comment' }, 'Add a comment, in markdown'),
            h('textarea', { id: 'quire-comment', name: 'comment', rows: 3, required: true, maxLength: 10_000 }),
            h('input', { type: 'hidden', name: 'back', value: new URL(page.url).pathname }),
            h('button', { type: 'submit' }, 'Comment'),
          ]),
        ]
      : []),
  ]);
}
