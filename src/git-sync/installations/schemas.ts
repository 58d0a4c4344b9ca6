import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, OrganizationParams, StringEnum } from '../../core/schemas.js';
import { GIT_SYNC_PROVIDERS, GIT_SYNC_STATUSES, GitSyncState } from '../../spaces/git-sync-state.js';

export { GitSyncState };

const Provider = StringEnum(GIT_SYNC_PROVIDERS, {
  description:
    'github or gitlab, through their REST APIs (GitHub Enterprise and self-hosted GitLab by `customInstanceURL`); ' +
    '`git`, this service’s own: any Git host over HTTPS with a token (Gitea, Forgejo, Bitbucket, a bare server)',
});

const Branch = Type.String({
  minLength: 12,
  maxLength: 255,
  pattern: '^refs/heads/.+$',
  description: 'The branch, as `refs/heads/<name>`',
});

const ApiUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^https?://\\S+$',
  description:
    'The REST API of a GitHub Enterprise (`https://<host>/api/v3`) or self-hosted GitLab (`https://<host>/api/v4`)',
});

const Target = Type.Union([
  Type.Object(
    {
      type: Type.Literal('space'),
      spaceId: IdParam,
      siteId: Type.Optional(IdParam),
    },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('site'), siteId: IdParam }, { additionalProperties: false }),
]);

export const InstallGitSyncBody = Type.Object(
  { provider: Provider, target: Target },
  { additionalProperties: false, examples: [{ provider: 'github', target: { type: 'space', spaceId: 'abc' } }] },
);
export type InstallGitSyncInput = Static<typeof InstallGitSyncBody>;

const ProviderConfiguration = Type.Object(
  {
    repositoryId: Type.Optional(Type.Integer({ minimum: 1, description: 'GitHub: the repository’s id' })),
    projectId: Type.Optional(Type.Integer({ minimum: 1, description: 'GitLab: the project’s id' })),
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'git: the HTTPS URL of the repository, without credentials',
      }),
    ),
    username: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'git: the user name sent with the token' }),
    ),
    accessToken: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description: 'The token the service uses at the provider; kept sealed, never shown again',
      }),
    ),
    customInstanceURL: Type.Optional(Type.Union([ApiUrl, Type.Null()])),
    branch: Type.Optional(Branch),
  },
  { additionalProperties: false },
);
export type ProviderConfigurationInput = Static<typeof ProviderConfiguration>;

const setupCommon = {
  projectDirectory: Type.Optional(
    Type.String({
      maxLength: 1000,
      pattern: '^[^\\x00-\\x1f\\\\]*$',
      description: 'The folder of the repository the space lives in (its `.gitbook.yaml`), from the top',
    }),
  ),
  commitMessageTemplate: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
  previewExternalBranches: Type.Optional(Type.Boolean()),
  agentInstructions: Type.Optional(Type.Array(StringEnum(['agents', 'claude'] as const), { maxItems: 2 })),
  priority: Type.Optional(
    StringEnum(['git', 'gitbook'] as const, {
      description: 'The side whose content the first sync keeps: git imports the branch, gitbook exports the space',
    }),
  ),
};

export const UpdateGitSyncInstallationBody = Type.Object(
  {
    provider: Provider,
    providerConfiguration: ProviderConfiguration,
    ...setupCommon,
    childInstallationProjectDirectories: Type.Optional(
      Type.Record(Type.String({ maxLength: 128 }), Type.String({ maxLength: 1000 }), { maxProperties: 0 }),
    ),
    pollingIntervalSeconds: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description:
          'How often the branch is checked for new commits (within GIT_SYNC_POLLING_MIN_SECONDS and GIT_SYNC_POLLING_MAX_SECONDS); null: never',
      }),
    ),
    rotateWebhookSecret: Type.Optional(
      Type.Boolean({ description: 'A new webhook secret, shown once in this answer; the old one stops working' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        provider: 'github',
        providerConfiguration: { repositoryId: 1, branch: 'refs/heads/main', accessToken: 'github_pat_…' },
      },
    ],
  },
);
export type UpdateGitSyncInstallationInput = Static<typeof UpdateGitSyncInstallationBody>;

export const InstallationParams = Type.Object({ installationId: IdParam });
export const SiteInstallationsParams = Type.Object({ ...OrganizationParams.properties, siteId: IdParam });
export const GitHubRepoParams = Type.Object({
  installationId: IdParam,
  accountName: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$' }),
  repositoryName: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$' }),
});
export const GitLabProjectParams = Type.Object({
  installationId: IdParam,
  projectId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});
export const RepositoryFileQuery = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 1000, pattern: '^[^\\x00-\\x1f\\\\]*$' }),
  ref: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\x00-\\x20~^:?*\\[\\\\]+$' }),
});

const Setup = {
  provider: Provider,
  providerConfiguration: Type.Object({
    repositoryId: Type.Optional(Type.Number()),
    projectId: Type.Optional(Type.Number()),
    url: Type.Optional(Type.String()),
    customInstanceURL: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    branch: Type.Optional(Type.String()),
  }),
  projectDirectory: Type.Optional(Type.String()),
  commitMessageTemplate: Type.Optional(Type.String()),
  previewExternalBranches: Type.Optional(Type.Boolean()),
  priority: Type.Optional(StringEnum(['git', 'gitbook'] as const)),
};

export const GitSyncInstallationSchema = Type.Object({
  object: Type.Literal('git-sync-installation'),
  id: Type.String(),
  ...Setup,
  target: Type.Object({ type: Type.Literal('space'), spaceId: Type.String() }),
  status: StringEnum(GIT_SYNC_STATUSES),
  repositoryConnection: Type.Optional(
    Type.Object({
      object: Type.Literal('git-repository-connection'),
      id: Type.String(),
      provider: Provider,
      repositoryId: Type.String(),
      repositoryName: Type.String(),
      repositoryUrl: Type.String({ format: 'uri' }),
      defaultBranch: Type.Optional(Type.String()),
      authState: StringEnum(GIT_SYNC_STATUSES),
      capabilities: Type.Object({ pullRequests: Type.Boolean(), commitStatuses: Type.Boolean() }),
      createdAt: DateTime,
      updatedAt: DateTime,
    }),
  ),
  pollingIntervalSeconds: Type.Union([Type.Integer(), Type.Null()]),
  polling: Type.Optional(
    Type.Object(
      {
        nextAt: DateTime,
        lastAt: Type.Optional(DateTime),
        error: Type.Optional(Type.String({ description: 'Why the last poll could not read the branch' })),
      },
      { description: 'When the branch is next read, when it last was, and why that failed if it did' },
    ),
  ),
  webhook: Type.Object({
    url: Type.String({ format: 'uri', description: 'Where the provider sends its push events' }),
    secret: Type.Optional(
      Type.String({ description: 'The secret the provider signs with: shown when made, at install or rotation' }),
    ),
  }),
  createdAt: DateTime,
  createdBy: Type.String(),
  updatedAt: DateTime,
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type GitSyncInstallation = Static<typeof GitSyncInstallationSchema>;

const Listed = {
  id: Type.Number(),
  accountName: Type.String(),
  repositoryName: Type.String(),
  fullName: Type.String(),
  defaultBranch: Type.Union([Type.String(), Type.Null()]),
};
export const GitSyncRepository = Type.Object(Listed);
export type GitSyncRepository = Static<typeof GitSyncRepository>;
export const GitSyncBranch = Type.Object({ name: Type.String(), ref: Type.String() });
export type GitSyncBranch = Static<typeof GitSyncBranch>;
export const GitSyncRepositoryFile = Type.Object({
  name: Type.String(),
  path: Type.String(),
  sha: Type.String(),
  size: Type.Number(),
});
export type GitSyncRepositoryFile = Static<typeof GitSyncRepositoryFile>;
