import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const specRoutes: FastifyPluginAsyncTypebox = async () => {};
