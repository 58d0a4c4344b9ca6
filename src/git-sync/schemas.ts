import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../core/schemas.js';

/** GitBook's UpdateSpaceGitInfo: kept by GitBook for its UI; accepted and not used here. */
const GitInfo = Type.Object(
  {
    provider: Type.Optional(StringEnum(['github', 'gitlab'] as const)),
    url: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

const common = {
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      'The HTTPS URL of the Git repository; it may carry basic-auth credentials (`https://user:token@host/repo.git`), which are kept sealed until the operation ends',
  }),
  ref: Type.String({ minLength: 12, maxLength: 255, description: 'The branch, as `refs/heads/<name>`' }),
  repoProjectDirectory: Type.Optional(
    Type.String({
      maxLength: 1000,
      pattern: '^[^\\x00-\\x1f\\\\]*$',
      description: 'The folder of the repository the space lives in (its `.gitbook.yaml`), from the top',
    }),
  ),
  repoTreeURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoCacheID: Type.Optional(Type.String({ maxLength: 255 })),
  timestamp: Type.Optional(Type.String({ format: 'date-time', maxLength: 64 })),
  standalone: Type.Optional(Type.Boolean()),
  gitInfo: Type.Optional(GitInfo),
};

export const ImportGitRepositoryBody = Type.Object(
  {
    ...common,
    force: Type.Optional(
      Type.Boolean({ description: 'Import even when the branch is at the commit the space last synced with' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main' }],
  },
);
export type ImportGitRepositoryInput = Static<typeof ImportGitRepositoryBody>;

export const ExportToGitRepositoryBody = Type.Object(
  {
    ...common,
    commitMessage: Type.String({ minLength: 1, maxLength: 10_000, description: 'The message of the commit' }),
    force: Type.Optional(
      Type.Boolean({
        description:
          'Commit on top of a branch the space has never synced with (its files are replaced by the space’s, in a new commit: never a force-push)',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://git.example.com/docs.git', ref: 'refs/heads/main', commitMessage: 'Update docs' }],
  },
);
export type ExportToGitRepositoryInput = Static<typeof ExportToGitRepositoryBody>;
