import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { callerOf } from '../../access/auth.js';
import { noContent } from '../../core/replies.js';
import { errorResponses, SpaceParams } from '../../core/schemas.js';
import { getInstallation, installGitSync, uninstallGitSync, updateGitSyncInstallation } from './actions.js';
import { getSpaceGitInfo, listSiteInstallations } from './git-info.js';
import {
  getGitHubRepoFile,
  getGitLabProjectFile,
  listGitHubRepoBranches,
  listGitLabProjectBranches,
  listRepositories,
} from './listings.js';
import {
  GitHubRepoParams,
  GitLabProjectParams,
  GitSyncBranch,
  GitSyncInstallationSchema,
  GitSyncRepository,
  GitSyncRepositoryFile,
  GitSyncState,
  InstallationParams,
  InstallGitSyncBody,
  RepositoryFileQuery,
  SiteInstallationsParams,
  UpdateGitSyncInstallationBody,
} from './schemas.js';

const items = <T extends Parameters<typeof Type.Array>[0]>(item: T) => Type.Object({ items: Type.Array(item) });

const providerRules =
  'Asks the provider’s REST API (the installation’s customInstanceURL, else GIT_SYNC_GITHUB_API_URL or ' +
  'GIT_SYNC_GITLAB_API_URL) with the installation’s token, through the guarded fetcher; a token the provider ' +
  'refuses is a 409 and marks the installation unauthenticated; a provider that fails is a 502. Needs the admin ' +
  'role on the installation’s space.';

/** GitBook's Git Sync installations: a space linked to a branch on GitHub, GitLab or any Git host. */
export const gitSyncInstallationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/git/installations',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'installGitSyncProviderOnTarget',
        tags: ['git'],
        summary: 'Install Git Sync on a space',
        description:
          'A pending installation, configured next with updateGitSyncInstallationById. Its webhook secret is in ' +
          'this answer only (`webhook.secret`). One installation per space (409). Needs the admin role on the ' +
          'space; a site target is a 400 (Git Sync of a whole site is not built).',
        body: InstallGitSyncBody,
        response: { 201: GitSyncInstallationSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return installGitSync(app.context, callerOf(request).userId, request.body);
    },
  );

  app.get(
    '/git/installations/:installationId',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getGitSyncInstallationById',
        tags: ['git'],
        summary: 'Get a Git Sync installation',
        description: 'Members who read its space see it; the token and the webhook secret are never shown.',
        params: InstallationParams,
        response: { 200: GitSyncInstallationSchema, ...errorResponses },
      },
    },
    async (request) => getInstallation(app.context, callerOf(request).userId, request.params.installationId),
  );

  app.patch(
    '/git/installations/:installationId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'updateGitSyncInstallationById',
        tags: ['git'],
        summary: 'Configure a Git Sync installation, then queue a sync with it',
        description:
          'The repository (GitHub repositoryId, GitLab projectId, or a Git host’s url), branch, token and ' +
          'settings. Once it names a repository, a branch and a token, it is active and a sync is queued: an ' +
          'import for priority git, an export for gitbook. pollingIntervalSeconds and rotateWebhookSecret are ' +
          'this service’s own. Needs the admin role on the space.',
        params: InstallationParams,
        body: UpdateGitSyncInstallationBody,
        response: { 200: GitSyncInstallationSchema, ...errorResponses },
      },
    },
    async (request) =>
      updateGitSyncInstallation(app.context, callerOf(request).userId, request.params.installationId, request.body),
  );

  app.delete(
    '/git/installations/:installationId',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'uninstallGitSyncInstallation',
        tags: ['git'],
        summary: 'Uninstall Git Sync from its space',
        description: 'Its token and secret go with it; the space’s content stays. Needs the admin role on the space.',
        params: InstallationParams,
        response: { 205: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await uninstallGitSync(app.context, callerOf(request).userId, request.params.installationId);
      return noContent(reply, 205);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/spaces/git/installations',
    {
      config: { scope: 'site:read' },
      schema: {
        operationId: 'listSiteGitSyncInstallations',
        tags: ['git'],
        summary: 'List the Git Sync installations of a site’s spaces',
        description: 'For the admins of the site’s organization.',
        params: SiteInstallationsParams,
        response: { 200: items(GitSyncInstallationSchema), ...errorResponses },
      },
    },
    async (request) =>
      listSiteInstallations(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.siteId,
      ),
  );

  app.get(
    '/spaces/:spaceId/git/info',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getSpaceGitInfo',
        tags: ['space-git'],
        summary: 'The space’s Git Sync installation and its latest operation',
        description:
          '404 when the space has no installation. The latest operation is the space’s last import or export, ' +
          'whatever asked for it, with why it failed; one waiting its turn shows as running. Members only.',
        params: SpaceParams,
        response: { 200: GitSyncState, ...errorResponses },
      },
    },
    async (request) => getSpaceGitInfo(app.context, callerOf(request).userId, request.params.spaceId),
  );

  app.get(
    '/git/installations/:installationId/github/repos',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'listGitHubRepositoriesForGitSyncInstallation',
        tags: ['git'],
        summary: 'The GitHub repositories the installation’s token reaches',
        description: `Up to ten pages of a hundred. ${providerRules}`,
        params: InstallationParams,
        response: { 200: items(GitSyncRepository), ...errorResponses },
      },
    },
    async (request) => listRepositories(app.context, callerOf(request).userId, request.params.installationId, 'github'),
  );

  app.get(
    '/git/installations/:installationId/github/repos/:accountName/:repositoryName/branches',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'listGitHubRepoBranchesForGitSyncInstallation',
        tags: ['git'],
        summary: 'The branches of a GitHub repository',
        description: `Up to ten pages of a hundred. ${providerRules}`,
        params: GitHubRepoParams,
        response: { 200: items(GitSyncBranch), ...errorResponses },
      },
    },
    async (request) =>
      listGitHubRepoBranches(
        app.context,
        callerOf(request).userId,
        request.params.installationId,
        request.params.accountName,
        request.params.repositoryName,
      ),
  );

  app.get(
    '/git/installations/:installationId/github/repos/:accountName/:repositoryName/file',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'getGitHubRepoFileForGitSyncInstallation',
        tags: ['git'],
        summary: 'A file of a GitHub repository at a ref',
        description: `Its name, path, blob sha and size; a folder is a 404. ${providerRules}`,
        params: GitHubRepoParams,
        querystring: RepositoryFileQuery,
        response: { 200: GitSyncRepositoryFile, ...errorResponses },
      },
    },
    async (request) =>
      getGitHubRepoFile(
        app.context,
        callerOf(request).userId,
        request.params.installationId,
        { owner: request.params.accountName, name: request.params.repositoryName },
        request.query,
      ),
  );

  app.get(
    '/git/installations/:installationId/gitlab/projects',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'listGitLabProjectsForGitSyncInstallation',
        tags: ['git'],
        summary: 'The GitLab projects the installation’s token is a member of',
        description: `Up to ten pages of a hundred. ${providerRules}`,
        params: InstallationParams,
        response: { 200: items(GitSyncRepository), ...errorResponses },
      },
    },
    async (request) => listRepositories(app.context, callerOf(request).userId, request.params.installationId, 'gitlab'),
  );

  app.get(
    '/git/installations/:installationId/gitlab/projects/:projectId/branches',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'listGitLabProjectBranchesForGitSyncInstallation',
        tags: ['git'],
        summary: 'The branches of a GitLab project',
        description: `Up to ten pages of a hundred. ${providerRules}`,
        params: GitLabProjectParams,
        response: { 200: items(GitSyncBranch), ...errorResponses },
      },
    },
    async (request) =>
      listGitLabProjectBranches(
        app.context,
        callerOf(request).userId,
        request.params.installationId,
        request.params.projectId,
      ),
  );

  app.get(
    '/git/installations/:installationId/gitlab/projects/:projectId/file',
    {
      config: { scope: 'space:write' },
      schema: {
        operationId: 'getGitLabProjectFileForGitSyncInstallation',
        tags: ['git'],
        summary: 'A file of a GitLab project at a ref',
        description: `Its name, path, blob id and size. ${providerRules}`,
        params: GitLabProjectParams,
        querystring: RepositoryFileQuery,
        response: { 200: GitSyncRepositoryFile, ...errorResponses },
      },
    },
    async (request) =>
      getGitLabProjectFile(
        app.context,
        callerOf(request).userId,
        request.params.installationId,
        request.params.projectId,
        request.query,
      ),
  );
};
