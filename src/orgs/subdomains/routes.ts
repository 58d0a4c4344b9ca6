import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { getSubdomain } from './actions.js';

const SubdomainName = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$',
  description: 'The subdomain, such as my-company: an organization’s hostname here',
});

const SubdomainSchema = Type.Object({
  object: Type.Literal('subdomain'),
  subdomain: SubdomainName,
  target: Type.Object({ type: Type.Literal('organization'), organization: Type.String() }),
  isActive: Type.Boolean({ description: 'Always true: a held subdomain is in use' }),
});

/** Subdomains: which organization holds a name. */
export const subdomainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/subdomains/:subdomain',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getSubdomain',
        tags: ['subdomains'],
        summary: 'The organization of yours that holds a subdomain (its hostname)',
        description:
          'GitBook’s subdomain is an organization’s `hostname` here. Members of the organization holding it are ' +
          'told its id; to anyone else, as for a name nobody holds, it is a 404.',
        params: Type.Object({ subdomain: SubdomainName }),
        response: { 200: SubdomainSchema, ...errorResponses },
      },
    },
    async (request) => getSubdomain(app.context, callerOf(request).userId, request.params.subdomain),
  );
};
