import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, NotFoundError } from '../../core/errors.js';
import { messagePage, MESSAGE_PAGE_POLICY } from '../../reader/error-page.js';
import type { OpenSite } from '../reader/site-reader.js';
import { MAX_COMMENT_LENGTH } from './page-parts.js';
import { postedFromSite, recordFeedback } from './reader.js';

type ReaderApp = Parameters<FastifyPluginAsyncTypebox>[0];
type WithSite = (
  request: FastifyRequest,
  reply: FastifyReply,
  serve: (open: OpenSite) => Promise<unknown>,
) => Promise<unknown>;

const FeedbackParams = Type.Object({ site: Type.String({ minLength: 1, maxLength: 100 }) });
const FeedbackBody = Type.Object({
  space: Type.String({ minLength: 1, maxLength: 64 }),
  page: Type.String({ minLength: 1, maxLength: 64 }),
  rating: Type.Union([Type.Literal('good'), Type.Literal('ok'), Type.Literal('bad')]),
  comment: Type.Optional(Type.String({ maxLength: MAX_COMMENT_LENGTH })),
});

/**
 * `POST /s/{site}/~/feedback`: the form under a reader page (when the site's
 * `feedback` setting is on), posted as browsers post forms. Only from the
 * site's own pages (Origin or Sec-Fetch-Site), a few per visitor in ten
 * minutes; recorded as the site's insights record page views.
 */
export function feedbackRoute(app: ReaderApp, withSite: WithSite): void {
  // The form posts as browsers do; only the reader's routes read such bodies.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.post(
    '/s/:site/~/feedback',
    { schema: { hide: true, params: FeedbackParams, body: FeedbackBody } },
    (request, reply) =>
      withSite(request, reply, async (open) => {
        if (!postedFromSite(app.context, request))
          throw new ApiError(403, 'Feedback is sent from the site’s own pages');
        if (!open.settings.feedback.enabled) throw new NotFoundError('This site takes no feedback');
        const outcome = await recordFeedback(app.context, request, open, request.body);
        if (outcome === 'not-found') throw new NotFoundError('There is no such page on this site');
        if (outcome === 'limited')
          throw new ApiError(429, 'You sent a lot of feedback just now: try again in a few minutes');
        return reply
          .code(200)
          .header('content-security-policy', MESSAGE_PAGE_POLICY)
          .header('x-robots-tag', 'noindex')
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(messagePage(200, 'Thank you', 'Your feedback on this page was sent to its authors.'));
      }),
  );
}
