import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { NotFoundError } from '../core/errors.js';
import { sendBytes } from '../core/replies.js';
import { errorResponses } from '../core/schemas.js';
import { findAsset } from './queries.js';
import { IntegrationName } from './schemas.js';

/** An asset's file name: its id and an extension. */
const ASSET_FILE = /^([A-Za-z0-9]{20})\.(png|jpg|gif|webp)$/;
const assetNotFound = () => new NotFoundError('No such integration image');

/**
 * Integrations' icons and preview images, public as GitBook's are: their
 * URLs are in every Integration response, read by whoever shows it. An
 * asset's id changes with its bytes (each publish writes new ones), so a
 * response may be kept for good.
 */
export const integrationAssetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/integration-assets/:integrationName/:file',
    {
      schema: {
        hide: true,
        params: Type.Object({ integrationName: IntegrationName, file: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const id = ASSET_FILE.exec(request.params.file)?.[1];
      if (!id) throw assetNotFound();
      const asset = await findAsset(app.context.db, request.params.integrationName, id);
      if (!asset) throw assetNotFound();
      const etag = `"${asset.sha256.toString('base64url')}"`;
      reply
        .header('content-type', asset.content_type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', etag);
      // A client holding it already is told so.
      if (request.headers['if-none-match'] === etag) return (reply as FastifyReply).code(304).send();
      return sendBytes(reply, asset.bytes);
    },
  );
};
