import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../core/schemas.js';
import { SERVICE_VERSION } from './landing.js';

/**
 * When this code was built: the time its compiled module was written (dist/
 * after `npm run build`, the source file where it runs from TypeScript).
 */
const BUILD_DATE = statSync(fileURLToPath(import.meta.url)).mtime.toISOString();

/** The spec's ApiInformation. */
const ApiInformation = Type.Object({
  version: Type.String({ description: 'The service’s release, from its package.json' }),
  build: Type.String({ description: 'When the running code was built, ISO 8601' }),
});

/** GET /v1/: which release answers, as GitBook's getApiInformation; registered beside the /v1 plugin, as its root. */
export const apiInformationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/',
    {
      // Beside the /v1 plugin, whose own root this is: authenticated as its routes are.
      onRequest: (request) => app.authenticate(request),
      // What answers, read with the caller's own token: `user:read`, as reading the caller's profile is.
      config: { scope: 'user:read' },
      schema: {
        operationId: 'getApiInformation',
        tags: ['system'],
        summary: 'The release of this service and when it was built',
        description:
          '`version` is the service’s release (its package.json); `build` the time its running code was ' +
          'compiled. Any token with `user:read` may call it.',
        response: { 200: ApiInformation, ...errorResponses },
      },
    },
    async () => ({ version: SERVICE_VERSION, build: BUILD_DATE }),
  );
};
