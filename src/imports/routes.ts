import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../access/auth.js';
import { errorResponses, OrganizationParams } from '../core/schemas.js';
import { cancelImportRun, getImportRun, listImportRuns, startImportRun } from './actions.js';
import {
  ContentImportRunSchema,
  ImportRunList,
  ImportRunParams,
  ListImportRunsQuery,
  StartImportRunBody,
} from './schemas.js';

const runRules =
  'A run goes through the statuses pending, in-progress, then completed, failed (with its reason) or cancelled; ' +
  'an organization’s runs go one at a time, in the order they were started, on any instance.';

/** GitBook's import runs of an organization (note GitBook's singular `org` in these paths). */
export const importRunRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/org/:organizationId/imports',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'startImportRun',
        tags: ['imports'],
        summary: 'Start importing content into a space',
        description:
          'Queues a run that imports the source into the target space (through a change request of its own, merged ' +
          'at its end, so that the space sees the import whole or not at all; left open when it conflicts) or into ' +
          'the target change request, under the target page if one is named. Sources: `website` (crawled as the ' +
          'content import crawls it, within IMPORT_MAX_PAGES, IMPORT_MAX_BYTES and IMPORT_TIMEOUT_MS), `file` ' +
          '(completed storage uploads of zips: GitBook’s Git Sync format where the zip has a SUMMARY.md or ' +
          '.gitbook.yaml, else folders of markdown as Outline and Docmost export them) and this service’s `git` ' +
          '(a branch in GitBook’s format, read as importGitRepository reads it). Needs the edit role on the space. ' +
          runRules,
        params: OrganizationParams,
        body: StartImportRunBody,
        response: { 201: ContentImportRunSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const run = await startImportRun(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.body,
      );
      return reply.code(201).send(run);
    },
  );

  app.get(
    '/org/:organizationId/imports',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'listImportRuns',
        tags: ['imports'],
        summary: 'List the import runs of an organization',
        description:
          'Newest first, for the organization’s members (guests see none); `status=active` is pending and ' +
          'in-progress together. ' +
          runRules,
        params: OrganizationParams,
        querystring: ListImportRunsQuery,
        response: { 200: ImportRunList, ...errorResponses },
      },
    },
    async (request) =>
      listImportRuns(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.get(
    '/org/:organizationId/imports/:importRunId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getImportRun',
        tags: ['imports'],
        summary: 'Get an import run',
        description: `Its status, the writes done of those it makes, and the pages it created. ${runRules}`,
        params: ImportRunParams,
        response: { 200: ContentImportRunSchema, ...errorResponses },
      },
    },
    async (request) =>
      getImportRun(app.context, callerOf(request).userId, request.params.organizationId, request.params.importRunId),
  );

  app.post(
    '/org/:organizationId/imports/:importRunId/cancel',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'cancelImportRun',
        tags: ['imports'],
        summary: 'Cancel an import run',
        description:
          'A pending run never starts; a run in progress stops before its next write and says in its reason how ' +
          'far it got (a run into a space archives its own change request, leaving the space as it was). A run ' +
          'that has ended is a 409. Needs the edit role on the run’s space.',
        params: ImportRunParams,
        response: { 200: ContentImportRunSchema, ...errorResponses },
      },
    },
    async (request) =>
      cancelImportRun(app.context, callerOf(request).userId, request.params.organizationId, request.params.importRunId),
  );
};
