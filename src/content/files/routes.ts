import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendBytes } from '../../core/replies.js';
import { errorResponses, IdParam } from '../../core/schemas.js';
import { downloadFile } from './actions.js';
import { storageUploadBytesRoutes } from './storage/routes.js';

export const fileDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The upload's PUT reads its body as a stream: its own plugin keeps that parser to it.
  await app.register(storageUploadBytesRoutes);
  app.get(
    '/files/:versionId/:name',
    {
      schema: {
        hide: true,
        params: Type.Object({ versionId: IdParam, name: Type.String({ minLength: 1, maxLength: 256 }) }),
        querystring: Type.Object({
          expires: Type.Integer({ minimum: 0 }),
          signature: Type.String({ minLength: 1, maxLength: 100 }),
        }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { expires, signature } = request.query;
      const file = await downloadFile(app.context, request.params.versionId, expires, signature);
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', `${file.disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', `private, max-age=${file.maxAgeSeconds}`)
        .header('etag', `"${file.sha256}"`);
      return sendBytes(reply, file.bytes);
    },
  );
};
