import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams, ref } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import {
  createSettings,
  deleteSettings,
  getSettings,
  listSettings,
  replaceSettings,
  runTranslation,
} from './actions.js';
import { glossaryRoutes } from './glossary/routes.js';
import {
  ListTranslationSettingsQuery,
  TranslationSettingsBody,
  TranslationSettingsParams,
  TranslationSettingsSchema,
} from './schemas.js';

const TranslationSettings = ref(TranslationSettingsSchema);

/** An organization's translation settings: members of any role read them, admins change them. */
export const translationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(glossaryRoutes);

  app.get(
    '/orgs/:organizationId/translations',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listTranslations',
        tags: ['translations'],
        summary: 'List the translation settings of an organization (members)',
        description: 'Members of any role (guests get 403), newest first.',
        params: OrganizationParams,
        querystring: ListTranslationSettingsQuery,
        response: { 200: ListEnvelope(TranslationSettings), ...errorResponses },
      },
    },
    async (request) =>
      listSettings(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/translations',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'createTranslation',
        tags: ['translations'],
        summary: 'Create translation settings (admins)',
        description:
          'Admins of the organization. `languages` are distinct codes of the GitBook API’s language list ' +
          '(`en`, `fr`, `de`, `pt-br`, … 39 in all; any other is a 400); without them the settings start with ' +
          'none.',
        params: OrganizationParams,
        body: TranslationSettingsBody,
        response: { 201: TranslationSettings, ...errorResponses },
      },
    },
    async (request, reply) => {
      const settings = await createSettings(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.body,
      );
      return reply.code(201).header('location', settings.urls.location).send(settings);
    },
  );

  app.get(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getTranslation',
        tags: ['translations'],
        summary: 'Get translation settings (members)',
        description: 'Members of any role; to guests and non-members, 404. `permissions.edit` is true for admins.',
        params: TranslationSettingsParams,
        response: { 200: TranslationSettings, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, translationSettingsId } = request.params;
      return getSettings(app.context, callerOf(request).userId, organizationId, translationSettingsId);
    },
  );

  app.put(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'updateTranslation',
        tags: ['translations'],
        summary: 'Replace the title (and languages, when given) of translation settings (admins)',
        description:
          'Admins of the organization. The title is replaced, and the languages only when the body names ' + 'them.',
        params: TranslationSettingsParams,
        body: TranslationSettingsBody,
        response: { 200: TranslationSettings, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, translationSettingsId } = request.params;
      return replaceSettings(
        app.context,
        callerOf(request).userId,
        organizationId,
        translationSettingsId,
        request.body,
      );
    },
  );

  app.delete(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'deleteTranslation',
        tags: ['translations'],
        summary: 'Delete translation settings (admins)',
        description: 'Admins of the organization; to guests and non-members, 404.',
        params: TranslationSettingsParams,
        response: { 205: Type.Null({ description: 'Deleted' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, translationSettingsId } = request.params;
      await deleteSettings(app.context, callerOf(request).userId, organizationId, translationSettingsId);
      return noContent(reply, 205);
    },
  );

  app.post(
    '/orgs/:organizationId/translations/:translationSettingsId/run',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'runTranslation',
        tags: ['translations'],
        summary: 'Ask for a translation to run again (admins)',
        description:
          'Admins of the organization; to guests and non-members, 404. No machine translation runs here ' +
          '(GitBook’s is a hosted AI service): the request is recorded in the audit log ' +
          '(`translation.run_requested`, with the languages), where whoever translates the content finds it.',
        params: TranslationSettingsParams,
        response: { 204: Type.Null({ description: 'Run requested' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, translationSettingsId } = request.params;
      await runTranslation(app.context, callerOf(request).userId, organizationId, translationSettingsId);
      return noContent(reply, 204);
    },
  );
};
