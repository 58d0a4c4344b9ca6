import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adaptiveSchemaRoutes } from './adaptive/routes.js';
import { customizationRoutes } from './customization/routes.js';
import { publishingRoutes } from './publishing/routes.js';

/** Docs sites: the sites, their structure, what visitors see of them, and how they look. */
export const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(adaptiveSchemaRoutes);
  await app.register(customizationRoutes);
  await app.register(publishingRoutes);
};
