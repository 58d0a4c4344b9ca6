import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListEnvelope, ListQuery, StringEnum } from '../core/schemas.js';

/** GitBook's import run statuses; `active` in a filter is `pending` and `in-progress`. */
export const IMPORT_RUN_STATUSES = ['pending', 'in-progress', 'completed', 'failed', 'cancelled'] as const;
export type ImportRunStatus = (typeof IMPORT_RUN_STATUSES)[number];

const closed = { additionalProperties: false };
const Id = Type.String({ minLength: 1, maxLength: 128 });

const WebsiteSource = Type.Object(
  {
    type: Type.Literal('website'),
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'The page the crawl starts at' }),
  },
  closed,
);

const FileSource = Type.Object(
  {
    type: Type.Literal('file'),
    files: Type.Array(Type.String({ minLength: 1, maxLength: 128, description: 'Key of a storage upload' }), {
      minItems: 1,
      maxItems: 50,
      description:
        'Keys of completed storage uploads (kind `import_file`): zips of markdown, in GitBook’s Git Sync format or as Outline and Docmost export them, imported one after the other',
    }),
  },
  closed,
);

/** Not GitBook's: a branch of a Git repository in GitBook's Git Sync format, as importGitRepository reads it. */
const GitSource = Type.Object(
  {
    type: Type.Literal('git'),
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'The HTTPS URL of the repository; basic-auth credentials in it are kept sealed until the run ends (this service’s own source type)',
    }),
    ref: Type.String({ minLength: 12, maxLength: 255, pattern: '^refs/heads/', description: 'The branch' }),
    repoProjectDirectory: Type.Optional(
      Type.String({ maxLength: 1000, pattern: '^[^\\x00-\\x1f\\\\]*$', description: 'The folder of `.gitbook.yaml`' }),
    ),
  },
  closed,
);

export const StartImportRunBody = Type.Object(
  {
    source: Type.Union([WebsiteSource, FileSource, GitSource]),
    target: Type.Object(
      {
        space: Id,
        changeRequest: Type.Optional(Id),
        page: Type.Optional(Id),
      },
      closed,
    ),
    site: Type.Optional(Id),
    enhance: Type.Optional(Type.Boolean({ description: 'Accepted; no content is rewritten by a model here' })),
  },
  {
    ...closed,
    examples: [{ source: { type: 'website', url: 'https://docs.example.com/' }, target: { space: 'aBcD…' } }],
  },
);
export type StartImportRunInput = Static<typeof StartImportRunBody>;

const ImportedPage = Type.Object({
  id: Type.String(),
  sourceURL: Type.Optional(Type.String()),
  type: StringEnum(['page', 'folder'] as const),
  status: StringEnum(['complete', 'pending'] as const),
});
export type ImportedPageItem = Static<typeof ImportedPage>;

/** GitBook's ContentImportRun; `progress` and, for a Git source, `git` are this service's. */
export const ContentImportRunSchema = Type.Object(
  {
    object: Type.Literal('import-run'),
    id: Type.String(),
    status: StringEnum(IMPORT_RUN_STATUSES),
    reason: Type.Optional(Type.String()),
    createdAt: DateTime,
    updatedAt: DateTime,
    startedAt: Type.Optional(DateTime),
    completedAt: Type.Optional(DateTime),
    source: Type.Optional(
      Type.Union([
        Type.Object({ type: Type.Literal('website'), url: Type.String() }),
        Type.Object({ type: Type.Literal('file'), files: Type.Array(Type.String()) }),
      ]),
    ),
    git: Type.Optional(
      Type.Object(
        { url: Type.String(), ref: Type.String(), repoProjectDirectory: Type.String() },
        {
          description: 'The branch a Git run imports (GitBook’s source has no Git type: `source` is left out)',
        },
      ),
    ),
    target: Type.Object({
      space: Type.String(),
      changeRequest: Type.Optional(Type.String()),
      page: Type.Optional(Type.String()),
    }),
    site: Type.Optional(Type.String()),
    createdBy: Type.String(),
    progress: Type.Object(
      {
        stepsDone: Type.Integer({ description: 'Writes done' }),
        stepsTotal: Type.Optional(Type.Integer({ description: 'Writes the run makes, once its source is read' })),
        changeRequest: Type.Optional(
          Type.String({ description: 'The change request the run writes into, merged at its end' }),
        ),
      },
      { description: 'How far the run is' },
    ),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
    pages: Type.Array(ImportedPage),
  },
  { title: 'ContentImportRun' },
);
export type ContentImportRun = Static<typeof ContentImportRunSchema>;

export const ImportRunParams = Type.Object({ organizationId: IdParam, importRunId: IdParam });

export const ListImportRunsQuery = Type.Object(
  {
    ...ListQuery,
    space: Type.Optional(Id),
    changeRequest: Type.Optional(Id),
    site: Type.Optional(Id),
    status: Type.Optional(StringEnum(['active', ...IMPORT_RUN_STATUSES] as const)),
  },
  closed,
);
export type ListImportRunsInput = Static<typeof ListImportRunsQuery>;

export const ImportRunList = ListEnvelope(ContentImportRunSchema);
