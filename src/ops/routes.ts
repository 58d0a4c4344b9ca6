import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { ServiceUnavailableError } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';

const Status = Type.Object({ status: Type.Literal('ok') });

/** Probes for load balancers and orchestrators, and the service's own API description. */
export const operationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const probe = { config: { rateLimit: false }, schema: { hide: true, response: { 200: Status, ...errorResponses } } };

  app.get('/healthz', probe, async () => ({ status: 'ok' as const }));

  app.get('/readyz', probe, async () => {
    try {
      await sql`select 1`.execute(app.db);
    } catch {
      throw new ServiceUnavailableError('The database is not reachable');
    }
    return { status: 'ok' as const };
  });

  app.get('/openapi.json', { config: { rateLimit: false }, schema: { hide: true } }, async () => app.swagger());
};
