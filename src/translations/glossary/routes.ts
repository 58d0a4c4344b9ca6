import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { getGlossaryEntry, listGlossary, updateGlossary } from './actions.js';
import { GlossaryEntryParams, GlossaryEntrySchema, ListGlossaryQuery, UpdateGlossaryBody } from './schemas.js';

const STORED_ONLY =
  'No machine translation runs here (GitBook’s is a hosted AI service), so the glossary is stored and served ' +
  'for the tools and people who translate.';

/** An organization's translation glossary: members with a role read it, admins change it. */
export const glossaryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/translations-glossary',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listGlossaryEntries',
        tags: ['glossary'],
        summary: 'List the entries of the translation glossary (members)',
        description: `Members with a role (guests get 403). Newest first; \`orderBy\` a language code sorts by the term in that language, any case, entries without it last. ${STORED_ONLY}`,
        params: OrganizationParams,
        querystring: ListGlossaryQuery,
        response: { 200: ListEnvelope(GlossaryEntrySchema), ...errorResponses },
      },
    },
    async (request) =>
      listGlossary(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.put(
    '/orgs/:organizationId/translations-glossary',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'updateGlossaryEntries',
        tags: ['glossary'],
        summary: 'Insert, update and delete glossary entries in one batch (admins)',
        description:
          'Admins of the organization. Up to 100 operations, applied all or none: `insert` adds an entry, ' +
          '`update` replaces an entry’s translations, `delete` removes it; an id the glossary lacks, or named ' +
          'twice, is a 400 and nothing changes. Terms are one line of 1 to 255 characters, keyed by language ' +
          `code. At most 2000 entries (409). ${STORED_ONLY}`,
        params: OrganizationParams,
        body: UpdateGlossaryBody,
        response: { 204: Type.Null({ description: 'Updated' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await updateGlossary(app.context, callerOf(request).userId, request.params.organizationId, request.body);
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/translations-glossary/:glossaryEntryId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getGlossaryEntry',
        tags: ['glossary'],
        summary: 'Get a glossary entry (members)',
        description: 'Members with a role; to guests and non-members, 404.',
        params: GlossaryEntryParams,
        response: { 200: GlossaryEntrySchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, glossaryEntryId } = request.params;
      return getGlossaryEntry(app.context, callerOf(request).userId, organizationId, glossaryEntryId);
    },
  );
};
