import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../core/schemas.js';
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
        summary: 'The organization that holds a subdomain (its hostname)',
        description:
          'Any signed-in caller. GitBook’s subdomain is an organization’s `hostname` here: the answer names ' +
          'the organization’s id and nothing more of it. 404 when no organization holds the name.',
        params: Type.Object({ subdomain: SubdomainName }),
        response: { 200: SubdomainSchema, ...errorResponses },
      },
    },
    async (request) => getSubdomain(app.context, request.params.subdomain),
  );
};
