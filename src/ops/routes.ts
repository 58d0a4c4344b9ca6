import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { ServiceUnavailableError } from '../core/errors.js';
import { errorResponses } from '../core/schemas.js';
import { landingRoute } from './landing.js';

const Status = Type.Object({ status: Type.Literal('ok') });

/** Probes for load balancers and orchestrators, and the service's own API description. */
export const operationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const probe = { config: { rateLimit: false }, schema: { hide: true, response: { 200: Status, ...errorResponses } } };

  // Liveness: answered even while the instance sheds load (src/core/load-shedding.ts).
  app.get('/healthz', { ...probe, config: { ...probe.config, loadShedding: false } }, async () => ({
    status: 'ok' as const,
  }));

  // Readiness: a 503 with Retry-After while the instance sheds load (refused before this handler), else the database's state.
  app.get('/readyz', probe, async () => {
    try {
      await sql`select 1`.execute(app.context.db);
    } catch {
      throw new ServiceUnavailableError('The database is not reachable');
    }
    return { status: 'ok' as const };
  });

  await app.register(landingRoute);

  app.get('/openapi.json', { config: { rateLimit: false }, schema: { hide: true } }, async () => app.swagger());
};
