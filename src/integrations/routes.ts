import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const integrationRoutes: FastifyPluginAsyncTypebox = async () => {};
