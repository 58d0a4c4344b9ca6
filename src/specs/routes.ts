import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent, sendBytes, sendJsonText } from '../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import {
  createSpec,
  deleteSpec,
  getSpec,
  getVersion,
  getVersionContent,
  getVersionEntry,
  listSpecs,
  listVersions,
  putSpec,
  updateSpec,
} from './actions.js';
import {
  createSpecBodySchema,
  ListSpecsQuery,
  OpenAPISpecContentSchema,
  OpenAPISpecSchema,
  OpenAPISpecVersionSchema,
  putSpecBodySchema,
  PutSpecParams,
  SpecParams,
  updateSpecBodySchema,
  VersionParams,
} from './schemas.js';

const processing =
  'The spec is `pending` until one of the service’s workers processes it: fetches it (and the files its ' +
  '$refs reach), validates it as OpenAPI 3.0/3.1 or Swagger 2.0, and stores a new version when its content ' +
  'changed. `processingState` is then `complete`, with `lastProcessErrorCode` when it failed.';

/** An organization's OpenAPI specs ("API description files") and their versions. */
export const specRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { maxBytes } = app.config.specs;

  app.get(
    '/orgs/:organizationId/openapi',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'listOpenAPISpecs',
        tags: ['openapi'],
        summary: 'List the OpenAPI specs of an organization, newest first',
        description:
          'Members of any role (scope `openapi:read`), each spec with its processing state and last version.',
        params: OrganizationParams,
        querystring: ListSpecsQuery,
        response: { 200: ListEnvelope(OpenAPISpecSchema), ...errorResponses },
      },
    },
    async (request) => listSpecs(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/openapi',
    {
      config: { scope: 'openapi:write' },
      schema: {
        operationId: 'createOpenAPISpec',
        tags: ['openapi'],
        summary: 'Create an OpenAPI spec from a URL or a text (admins)',
        description: processing,
        params: OrganizationParams,
        body: createSpecBodySchema(maxBytes),
        response: { 201: OpenAPISpecSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const spec = await createSpec(app.context, callerOf(request).userId, request.params.organizationId, request.body);
      return reply.code(201).header('location', spec.urls.location).send(spec);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getOpenAPISpecBySlug',
        tags: ['openapi'],
        summary: 'Get an OpenAPI spec by its slug',
        description:
          'Members of any role. `processingState` tells whether the last source is processed; after a ' +
          'failure, `lastProcessErrorCode` and `lastProcessedErrors` say why, and the last good version ' +
          'stays.',
        params: SpecParams,
        response: { 200: OpenAPISpecSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      return getSpec(app.context, callerOf(request).userId, organizationId, specSlug);
    },
  );

  app.put(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      config: { scope: 'openapi:write' },
      schema: {
        operationId: 'createOrUpdateOpenAPISpecBySlug',
        tags: ['openapi'],
        summary: 'Create the OpenAPI spec with this slug, or give it a source, and process it again (admins)',
        description: `${processing} Sending the same source again processes it again: how a build publishes a new release of the file behind a URL. Answers 200 whether the spec was created or updated.`,
        params: PutSpecParams,
        body: putSpecBodySchema(maxBytes),
        response: { 200: OpenAPISpecSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      return putSpec(app.context, callerOf(request).userId, organizationId, specSlug, request.body);
    },
  );

  app.patch(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      config: { scope: 'openapi:write' },
      schema: {
        operationId: 'updateOpenAPISpecBySlug',
        tags: ['openapi'],
        summary: 'Change an OpenAPI spec’s visibility or source (admins); a new source is processed',
        description:
          'Admins of the organization (scope `openapi:write`). A new source marks the spec `pending` and is ' +
          'processed again; `visibility` alone processes nothing. `public` is kept and shown but opens ' +
          'nothing yet to non-members.',
        params: SpecParams,
        body: updateSpecBodySchema(maxBytes),
        response: { 200: OpenAPISpecSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      return updateSpec(app.context, callerOf(request).userId, organizationId, specSlug, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      config: { scope: 'openapi:write' },
      schema: {
        operationId: 'deleteOpenAPISpecBySlug',
        tags: ['openapi'],
        summary: 'Delete an OpenAPI spec with its versions (admins)',
        description:
          'Admins of the organization (scope `openapi:write`); its versions go with it, and its slug is free ' +
          'again.',
        params: SpecParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      await deleteSpec(app.context, callerOf(request).userId, organizationId, specSlug);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'listOpenAPISpecVersions',
        tags: ['openapi-versions'],
        summary: 'List the versions of an OpenAPI spec, newest first',
        description:
          'Members of any role. A version is stored only when processing finds the content changed (key order ' +
          'and formatting do not count).',
        params: SpecParams,
        querystring: ListSpecsQuery,
        response: { 200: ListEnvelope(OpenAPISpecVersionSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      return listVersions(app.context, callerOf(request).userId, organizationId, specSlug, request.query);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getLatestOpenAPISpecVersion',
        tags: ['openapi-versions'],
        summary: 'Get the newest version of an OpenAPI spec; 404 while it has none',
        description: 'Members of any role. The version the last successful processing stored.',
        params: SpecParams,
        response: { 200: OpenAPISpecVersionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      return getVersion(app.context, callerOf(request).userId, organizationId, specSlug, 'latest');
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getLatestOpenAPISpecVersionContent',
        tags: ['openapi-versions'],
        summary: 'Get the files of the newest version of an OpenAPI spec; 404 while it has none',
        description:
          'Members of any role: `{filesystem: {entrypoint, files}, url}`, each file parsed, its path the URL ' +
          'it came from (`openapi.json` or `openapi.yaml` for a text).',
        params: SpecParams,
        response: { 200: OpenAPISpecContentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await getVersionContent(app.context, userId, organizationId, specSlug, 'latest'));
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getOpenAPISpecVersionById',
        tags: ['openapi-versions'],
        summary: 'Get a version of an OpenAPI spec',
        description: 'Members of any role, with the source URL it came from, or the address of its raw text.',
        params: VersionParams,
        response: { 200: OpenAPISpecVersionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, specSlug, versionId } = request.params;
      return getVersion(app.context, callerOf(request).userId, organizationId, specSlug, versionId);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getOpenAPISpecVersionContentById',
        tags: ['openapi-versions'],
        summary: 'Get the files of a version of an OpenAPI spec',
        description:
          'Members of any role: `{filesystem: {entrypoint, files}, url}`, each file parsed, its path the URL ' +
          'it came from (`openapi.json` or `openapi.yaml` for a text).',
        params: VersionParams,
        response: { 200: OpenAPISpecContentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug, versionId } = request.params;
      const userId = callerOf(request).userId;
      return sendJsonText(reply, await getVersionContent(app.context, userId, organizationId, specSlug, versionId));
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/raw',
    {
      config: { scope: 'openapi:read' },
      schema: {
        operationId: 'getOpenAPISpecVersionRawById',
        tags: ['openapi-versions'],
        summary: 'Get the entry file of a version of an OpenAPI spec, exactly as it was fetched or given',
        description:
          'Served as application/json or application/yaml. This is the `url` of the versions of a spec given as text.',
        params: VersionParams,
        response: { 200: Type.String({ description: 'The entry file' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug, versionId } = request.params;
      const userId = callerOf(request).userId;
      const entry = await getVersionEntry(app.context, userId, organizationId, specSlug, versionId);
      return sendBytes(reply.type(entry.mediaType), Buffer.from(entry.text, 'utf8'));
    },
  );
};
