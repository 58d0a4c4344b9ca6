import type { TSchema } from '@sinclair/typebox';
import { errorResponses } from '../core/schemas.js';

/** The options of a content read (content, links, backlinks): every one needs `space:read` and answers in the spec’s forms. */
export function contentRead<Params extends TSchema, Query extends TSchema, Response extends TSchema>(
  operationId: string,
  summary: string,
  params: Params,
  querystring: Query,
  response: Response,
) {
  return {
    config: { scope: 'space:read' },
    schema: {
      operationId,
      tags: ['space-content'],
      summary,
      params,
      querystring,
      response: { 200: response, ...errorResponses },
    },
  } as const;
}
