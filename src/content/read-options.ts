import type { SwaggerTransform } from '@fastify/swagger';
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { errorResponses } from '../core/schemas.js';

/** What the published document says of an operation: a line, then what it does, who may call it and how it behaves. */
export interface OperationText {
  summary: string;
  description: string;
}

/** Who may call a content read, by the way it names the revision. */
const READERS = {
  space:
    'Members with a role on the space read it, and so do visitors of a public or unlisted space ' +
    'and holders of a share-link space’s `shareKey`.',
  changeRequest: 'Needs a role on the space: a change request’s content is never shown to visitors.',
  revision:
    'Needs a role on the space; visitors of a public, unlisted or share-link space read only its current revision.',
};

/** A read's text, its description followed by who may call it. */
export function readText(read: OperationText, reader: keyof typeof READERS): OperationText {
  return { summary: read.summary, description: `${read.description} ${READERS[reader]}` };
}

/**
 * OpenAPI has no wildcard path parameter: the document names a path read's
 * `*` `pagePath`, as GitBook's API does.
 */
const pagePathInDocument: SwaggerTransform = ({ schema, url }) => {
  const { '*': pagePath, ...others } = (schema.params as TObject).properties;
  return {
    url: url.replace(/\*$/, ':pagePath'),
    schema: { ...schema, params: Type.Object({ ...others, pagePath: pagePath! }) },
  };
};

/** The options of a content read (content, links, backlinks): every one needs `space:read` and answers in the spec’s forms. */
export function contentRead<Params extends TObject, Query extends TSchema, Response extends TSchema>(
  operationId: string,
  text: OperationText,
  params: Params,
  querystring: Query,
  response: Response,
) {
  return {
    config: { scope: 'space:read', ...('*' in params.properties ? { swaggerTransform: pagePathInDocument } : {}) },
    schema: {
      operationId,
      tags: ['space-content'],
      ...text,
      params,
      querystring,
      response: { 200: response, ...errorResponses },
    },
  } as const;
}
