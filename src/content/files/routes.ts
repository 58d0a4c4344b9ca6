import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '../../core/errors.js';
import { sendBytes } from '../../core/replies.js';
import { errorResponses, IdParam } from '../../core/schemas.js';

/** Types a browser may show inline; anything else downloads, so no upload runs as a page of this origin. */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif)|application\/pdf|text\/plain|video\/mp4)$/;

export const fileDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/files/:versionId/:name',
    {
      schema: {
        hide: true,
        params: Type.Object({ versionId: IdParam, name: Type.String({ minLength: 1, maxLength: 256 }) }),
        querystring: Type.Object({ expires: Type.Integer({ minimum: 0 }), signature: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { versionId } = request.params;
      const { expires, signature } = request.query;
      const gone = new NotFoundError('This download link is unknown or has expired; read the file again for a fresh one');
      if (!app.fileUrls.verify(versionId, expires, signature, app.clock.now())) throw gone;
      const file = await app.db
        .selectFrom('file_versions as f')
        .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
        .select(['f.name', 'f.content_type', 'f.sha256', 'b.bytes'])
        .where('f.id', '=', versionId)
        .executeTakeFirst();
      if (!file) throw gone;
      const disposition = INLINE_TYPES.test(file.content_type) ? 'inline' : 'attachment';
      reply
        .header('content-type', file.content_type)
        .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', `private, max-age=${Math.max(0, expires - Math.floor(app.clock.now().getTime() / 1000))}`)
        .header('etag', `"${file.sha256}"`);
      return sendBytes(reply, file.bytes);
    },
  );
};
