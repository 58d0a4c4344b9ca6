import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { getCustomHostname, removeCustomHostname, revalidateCustomHostname } from './actions.js';
import { CustomHostname, CustomHostnameParams } from './schemas.js';

/** A site's custom hostname as a claim: what proves it, looking again, letting it go. */
export const customHostnameRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/custom-hostnames/:hostname',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'getCustomHostname',
        tags: ['custom-hostnames'],
        summary: 'Get a custom hostname and the DNS record that proves it (admins of its site’s organization)',
        description:
          'Admins of the organization whose site claims the hostname; to anyone else, 404. A hostname set on a ' +
          'site is pending and routes nothing until a TXT record at `verification.name` ' +
          '(`_quire-challenge.<hostname>`) holds `verification.value` (an extension); the service looks on ' +
          'revalidation and every few minutes.',
        params: CustomHostnameParams,
        response: { 200: CustomHostname, ...errorResponses },
      },
    },
    async (request) => getCustomHostname(app.context, callerOf(request).userId, request.params.hostname),
  );

  app.patch(
    '/custom-hostnames/:hostname',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'dnsRevalidateCustomHostname',
        tags: ['custom-hostnames'],
        summary: 'Look up a pending custom hostname’s DNS record now (admins)',
        description:
          'Admins of the organization whose site claims it; to anyone else, 404. Looks the TXT record up at ' +
          'once (GET then tells what it found); 409 when the hostname is already live. A hostname another ' +
          'site holds live goes over only when the record holds this claim’s value and no longer the other’s.',
        params: CustomHostnameParams,
        response: { 204: Type.Null({ description: 'Looked up' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await revalidateCustomHostname(app.context, callerOf(request).userId, request.params.hostname);
      return noContent(reply, 204);
    },
  );

  app.delete(
    '/custom-hostnames/:hostname',
    {
      config: { scope: 'site:write' },
      schema: {
        operationId: 'removeCustomHostname',
        tags: ['custom-hostnames'],
        summary: 'Take a custom hostname off its site (admins)',
        description:
          'Removes the claim of a site of an organization the caller administers (205); when they have none ' +
          'by this name, 204, whether or not others claim it: theirs are never touched.',
        params: CustomHostnameParams,
        response: {
          204: Type.Null({ description: 'No claim of yours by this name' }),
          205: Type.Null({ description: 'Removed' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const removed = await removeCustomHostname(app.context, callerOf(request).userId, request.params.hostname);
      return noContent(reply, removed ? 205 : 204);
    },
  );
};
