import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../access/auth.js';
import type { Scope } from '../access/scopes.js';
import { ApiError } from '../core/errors.js';
import { IdParam } from '../core/schemas.js';
import { mergeChangeRequest, updateChangeRequest } from '../change-requests/actions.js';
import { submitChangeRequestReview } from '../reviews/actions.js';
import { postComment, quotedBlock, updateComment } from '../comments/actions.js';
import { postReply } from '../comments/reply-actions.js';
import { requestReviewers } from '../reviewers/actions.js';
import { findEditableSpace } from '../access/spaces.js';
import { findMemberByEmail, spaceOrganization } from './queries.js';
import { changeRequestAddress } from './change-request-addresses.js';
import { MAX_EMAIL_LENGTH } from './home-pages.js';
import { appHome, appPathOrHome, formCaller } from './session.js';

const hidden = { hide: true } as const;
const Params = Type.Object({ organizationId: IdParam, spaceId: IdParam, changeRequest: IdParam });
type Params = { organizationId: string; spaceId: string; changeRequest: string };
const CommentParams = Type.Object({
  organizationId: IdParam,
  spaceId: IdParam,
  changeRequest: IdParam,
  commentId: IdParam,
});
/** The longest comment or reply, as the API takes them. */
const MAX_COMMENT = 10_000;
/** The longest selection a comment names: more than a block's worth. */
const MAX_QUOTE = 2_000;

/** What a person wrote, trimmed; nothing but spaces is refused. */
function said(text: string, what: string): string {
  const markdown = text.trim();
  if (!markdown) throw new ApiError(400, `${what} says something: write it, then post it`);
  return markdown;
}

/**
 * Taking a change request through review in the browser, as the API does it
 * and with the same rules: asking for review (draft to open), a review that
 * approves or requests changes, comments on its pages, and the merge, which
 * the space's merge rules may refuse. Each answers with the change request's
 * page again.
 */
export const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = () => app.context;

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/status',
    {
      schema: {
        ...hidden,
        params: Params,
        body: Type.Object({ status: Type.Union([Type.Literal('open'), Type.Literal('draft')]) }),
      },
    },
    async (request, reply) => {
      const caller = await actor(request, reply, 'space:write');
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { spaceId, changeRequest } = request.params;
      await inOrganization(request.params, () =>
        updateChangeRequest(context(), caller.userId, spaceId, changeRequest, { status: request.body.status }),
      );
      return reply.redirect(changeRequestPage(request.params), 303);
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/review',
    {
      schema: {
        ...hidden,
        params: Params,
        body: Type.Object({
          status: Type.Union([Type.Literal('approved'), Type.Literal('changes-requested')]),
          comment: Type.Optional(Type.String({ maxLength: 10_000 })),
        }),
      },
    },
    async (request, reply) => {
      const caller = await actor(request, reply, 'space:write');
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { spaceId, changeRequest } = request.params;
      const comment = request.body.comment?.trim();
      await inOrganization(request.params, () =>
        submitChangeRequestReview(context(), caller.userId, spaceId, changeRequest, {
          status: request.body.status,
          ...(comment ? { comment: { markdown: comment } } : {}),
        }),
      );
      return reply.redirect(changeRequestPage(request.params), 303);
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/merge',
    { schema: { ...hidden, params: Params } },
    async (request, reply) => {
      const caller = await actor(request, reply, 'change-request:merge');
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { spaceId, changeRequest } = request.params;
      const outcome = await inOrganization(request.params, () =>
        mergeChangeRequest(context(), caller.userId, spaceId, changeRequest),
      );
      if (outcome.result === 'conflicts') {
        throw new ApiError(
          409,
          'The change request conflicts with changes merged since it was opened: update it from the space through the API, resolve the conflicts, and merge again',
        );
      }
      return reply.redirect(context().urls.app('o', request.params.organizationId, 's', spaceId), 303);
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/comment/:pageId',
    {
      schema: {
        ...hidden,
        params: Type.Object({ organizationId: IdParam, spaceId: IdParam, changeRequest: IdParam, pageId: IdParam }),
        body: Type.Object({
          comment: Type.String({ minLength: 1, maxLength: MAX_COMMENT }),
          // Text the person selected on the page: the comment is about the block that holds it.
          quote: Type.Optional(Type.String({ maxLength: MAX_QUOTE })),
          back: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request, reply) => {
      const caller = await actor(request, reply, 'space:write');
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { spaceId, changeRequest, pageId } = request.params;
      const markdown = said(request.body.comment, 'A comment');
      const quote = request.body.quote?.trim();
      const thread = { spaceId, changeRequestId: changeRequest };
      await inOrganization(request.params, async () => {
        const node = quote ? await quotedBlock(context(), caller.userId, thread, pageId, quote) : undefined;
        return postComment(context(), caller.userId, thread, {
          page: pageId,
          ...(node ? { node } : {}),
          body: { markdown },
        });
      });
      return reply.redirect(appPathOrHome(context(), request.body.back), 303);
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/reply/:commentId',
    {
      schema: {
        ...hidden,
        params: CommentParams,
        body: Type.Object({
          reply: Type.String({ minLength: 1, maxLength: MAX_COMMENT }),
          back: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request, reply) => {
      const caller = await actor(request, reply, 'space:write');
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { spaceId, changeRequest, commentId } = request.params;
      const markdown = said(request.body.reply, 'A reply');
      await inOrganization(request.params, () =>
        postReply(
          context(),
          caller.userId,
          { spaceId, changeRequestId: changeRequest, commentId },
          { body: { markdown } },
          'markdown',
        ),
      );
      return reply.redirect(appPathOrHome(context(), request.body.back), 303);
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/resolve/:commentId',
    {
      schema: {
        ...hidden,
        params: CommentParams,
        body: Type.Object({
          resolved: Type.Union([Type.Literal('true'), Type.Literal('false')]),
          back: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
      },
    },
    async (request, reply) => {
      const caller = await actor(request, reply, 'space:write');
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { spaceId, changeRequest, commentId } = request.params;
      await inOrganization(request.params, () =>
        updateComment(
          context(),
          caller.userId,
          { spaceId, changeRequestId: changeRequest, commentId },
          { resolved: request.body.resolved === 'true' },
        ),
      );
      return reply.redirect(appPathOrHome(context(), request.body.back), 303);
    },
  );

  app.post(
    '/app/o/:organizationId/s/:spaceId/change-requests/:changeRequest/~/reviewers',
    {
      schema: {
        ...hidden,
        params: Params,
        body: Type.Object({ email: Type.String({ minLength: 3, maxLength: MAX_EMAIL_LENGTH }) }),
      },
    },
    async (request, reply) => {
      const caller = await actor(request, reply, 'space:write');
      if (!caller) return reply.redirect(appHome(context()), 303);
      const { organizationId, spaceId, changeRequest } = request.params;
      await inOrganization(request.params, async () => {
        // Who may not ask learns nothing of the organization's addresses: refused first, as the API refuses them.
        await findEditableSpace(context(), spaceId, caller.userId, 'Requesting reviewers');
        // The same answer for an address no one has and for one outside the organization.
        const reviewer = await findMemberByEmail(context().db, organizationId, request.body.email);
        if (!reviewer)
          throw new ApiError(400, 'No member of this organization has that address: ask a member with the review role');
        return requestReviewers(context(), caller.userId, spaceId, changeRequest, { users: [reviewer] });
      });
      return reply.redirect(changeRequestPage(request.params), 303);
    },
  );

  /** The caller of a form that acts: posted from this service's pages, by a session with the scope. */
  function actor(request: FastifyRequest, reply: FastifyReply, scope: Scope): Promise<Caller | undefined> {
    return formCaller(app, request, reply, scope, 'Act from this service’s own pages');
  }

  /** Runs the action when the space is the organization's the address names; another's is a 404, as the app reads it. */
  async function inOrganization<T>(params: Params, action: () => Promise<T>): Promise<T> {
    if ((await spaceOrganization(context().db, params.spaceId)) !== params.organizationId) {
      throw new ApiError(404, 'No space with this id is visible to you');
    }
    return action();
  }

  function changeRequestPage(params: Params): string {
    return changeRequestAddress(context(), params);
  }
};
