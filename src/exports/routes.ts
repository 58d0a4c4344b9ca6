import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { callerOf } from '../access/auth.js';
import { sendBytes } from '../core/replies.js';
import { ChangeRequestParams, errorResponses, IdParam, ShareKeyQuery, SpaceParams } from '../core/schemas.js';
import { changeRequestExportUrl, downloadExport, spaceExportUrl } from './actions.js';

const TemporaryUrl = Type.Object({
  url: Type.String({
    format: 'uri',
    maxLength: 2048,
    description: 'Where the export is fetched, without a token, for 1 hour',
  }),
});

const PdfQuery = Type.Object(
  {
    page: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'A page to export instead of the whole content' }),
    ),
    only: Type.Optional(Type.Boolean({ description: 'The page alone, without its subpages' })),
    ...ShareKeyQuery.properties,
  },
  { additionalProperties: false },
);

const ZipQuery = Type.Object({ ...ShareKeyQuery.properties }, { additionalProperties: false });

const pdfRules =
  'The PDF is drawn from the document model (headings, paragraphs, lists, code, quotes and hints, tables, the ' +
  'space’s PNG and JPEG images) with pdfkit off the event loop, within a deadline, for at most 2,000 pages; it ' +
  'is made when the URL is first fetched and kept a while, since a revision never changes.';
const zipRules =
  'The zip holds the content as GitBook’s Git Sync writes it (SUMMARY.md, a markdown file per page with its ' +
  'frontmatter, the files in .gitbook/assets/), the way importGitRepository and a zip import run read it back.';

/** Exports of a space or a change request, as temporary signed URLs (GitBook's PDF operations, and zips). */
export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/pdf',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getSpacePDF',
        tags: ['space-content'],
        summary: 'Get a temporary URL to download the space or one of its pages as PDF',
        description: `The space’s current revision, for whoever may read the space. ${pdfRules}`,
        params: SpaceParams,
        querystring: PdfQuery,
        response: { 200: TemporaryUrl, ...errorResponses },
      },
    },
    async (request) =>
      spaceExportUrl(app.context, callerOf(request).userId, request.params.spaceId, 'pdf', request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getChangeRequestPDF',
        tags: ['change-requests'],
        summary: 'Get a temporary URL to download a change request’s content as PDF',
        description: `The change request’s newest revision, for members of the space. ${pdfRules}`,
        params: ChangeRequestParams,
        querystring: PdfQuery,
        response: { 200: TemporaryUrl, ...errorResponses },
      },
    },
    async (request) =>
      changeRequestExportUrl(
        app.context,
        callerOf(request).userId,
        request.params.spaceId,
        request.params.changeRequestId,
        'pdf',
        request.query,
      ),
  );

  app.get(
    '/spaces/:spaceId/zip',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getSpaceZip',
        tags: ['space-content'],
        summary: 'Get a temporary URL to download the space as a zip in GitBook’s format',
        description: `Not GitBook’s: the space’s current revision, for whoever may read the space. ${zipRules}`,
        params: SpaceParams,
        querystring: ZipQuery,
        response: { 200: TemporaryUrl, ...errorResponses },
      },
    },
    async (request) =>
      spaceExportUrl(app.context, callerOf(request).userId, request.params.spaceId, 'zip', request.query),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/zip',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getChangeRequestZip',
        tags: ['change-requests'],
        summary: 'Get a temporary URL to download a change request’s content as a zip in GitBook’s format',
        description: `Not GitBook’s: the change request’s newest revision, for members of the space. ${zipRules}`,
        params: ChangeRequestParams,
        querystring: ZipQuery,
        response: { 200: TemporaryUrl, ...errorResponses },
      },
    },
    async (request) =>
      changeRequestExportUrl(
        app.context,
        callerOf(request).userId,
        request.params.spaceId,
        request.params.changeRequestId,
        'zip',
        {},
      ),
  );
};

/** The signed URLs' downloads: the signature is the permission, as for a file's download URL. */
export const exportDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/exports/:spaceId/:revisionId/:file',
    {
      schema: {
        hide: true,
        params: Type.Object({
          spaceId: IdParam,
          revisionId: IdParam,
          file: Type.String({ minLength: 1, maxLength: 300 }),
        }),
        querystring: Type.Object({
          organization: IdParam,
          page: Type.Optional(IdParam),
          only: Type.Optional(Type.Boolean()),
          expires: Type.Integer({ minimum: 0 }),
          signature: Type.String({ minLength: 1, maxLength: 100 }),
        }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { organization, page, only, expires, signature } = request.query;
      const download = await downloadExport(app.context, {
        ...request.params,
        organization,
        ...(page !== undefined ? { page } : {}),
        ...(only !== undefined ? { only } : {}),
        expires,
        signature,
      });
      reply
        .header('content-type', download.contentType)
        .header('content-disposition', `attachment; filename="${download.name}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600');
      return sendBytes(reply, Buffer.from(download.bytes.buffer, download.bytes.byteOffset, download.bytes.byteLength));
    },
  );
};
