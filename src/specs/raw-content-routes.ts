import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, StringEnum } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import { getVersionEntry } from './actions.js';
import { SpecParams } from './schemas.js';

/** The spec's OpenAPISpecRawContent. */
const OpenAPISpecRawContent = Type.Object({
  text: Type.String({ description: 'The entry file, exactly as it was fetched or given' }),
  format: StringEnum(['json', 'yaml'] as const, { description: 'Format of the entry file' }),
});

/** The raw entry file of a spec's newest version, as JSON (the `…/raw` of a version by id serves it as a file). */
export const specRawContentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getLatestOpenAPISpecVersionContentRaw',
        tags: ['openapi-versions'],
        summary: 'Get the entry file of the newest version of an OpenAPI spec, as text; 404 while it has none',
        description:
          'Members of any role: `{text, format}`, the text exactly as it was fetched or given, and whether it is ' +
          'JSON or YAML.',
        params: SpecParams,
        response: { 200: OpenAPISpecRawContent, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const entry = await getVersionEntry(app.context, callerOf(request).userId, organizationId, specSlug, 'latest');
      return { text: entry.text, format: entry.mediaType.startsWith('application/json') ? 'json' : 'yaml' } as const;
    },
  );
};
