import { Type, type Static } from '@sinclair/typebox';
import { IdParam, StringEnum, Emoji } from '../core/schemas.js';
import { ChangeRequestSubject } from '../content/change-request-schemas.js';
import { VARIABLE_LIMITS } from '../content/variables.js';

/** A description as the specs send it: a JSON document, turned into markdown for storage. */
const DescriptionDocument = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Optional(Type.Object({})),
    nodes: Type.Array(Type.Object({ object: Type.String(), type: Type.String() }), { maxItems: 1000 }),
  },
  { description: 'A JSON document; null (on an update) removes the description' },
);

export const CreateChangeRequestBody = Type.Object(
  { subject: Type.Optional(ChangeRequestSubject), description: Type.Optional(DescriptionDocument) },
  { additionalProperties: false, examples: [{ subject: 'Document the setup' }] },
);
export type CreateChangeRequestInput = Static<typeof CreateChangeRequestBody>;

export const UpdateChangeRequestBody = Type.Object(
  {
    subject: Type.Optional(ChangeRequestSubject),
    description: Type.Optional(Type.Union([DescriptionDocument, Type.Null()])),
    status: Type.Optional(
      StringEnum(['draft', 'open', 'archived'] as const, { description: 'Merging is done by the merge operation' }),
    ),
  },
  { minProperties: 1, additionalProperties: false, examples: [{ subject: 'Document the setup', status: 'open' }] },
);
export type UpdateChangeRequestInput = Static<typeof UpdateChangeRequestBody>;

export const MergeResult = Type.Object({
  revision: Type.String({ description: 'The space revision after the merge; unchanged on conflicts' }),
  result: StringEnum(['merge', 'conflicts'] as const),
});

export const UpdateFromSpaceResult = Type.Object({
  revision: Type.String({ description: 'The change request’s revision after the update; unchanged on conflicts' }),
  result: StringEnum(['update', 'conflicts'] as const),
});

// Content changes, as the newest GitBook spec's updateChangeRequestContent takes them.

const closed = { additionalProperties: false };

const PageSlug = Type.String({
  maxLength: 100,
  pattern: '^[^/\\s]*$',
  description: 'The page’s path segment in its parent',
});
const PageTitle = Type.String({ minLength: 1, maxLength: 255 });
const PageIcon = Type.String({ maxLength: 50, pattern: '^[a-z0-9-]*$', description: 'An icon name; empty removes it' });
const PageEmoji = Type.Union([Emoji, Type.Literal('')], { description: 'An emoji; empty removes it' });
const PageId = Type.String({ minLength: 1, maxLength: 128 });
const BatchRef = Type.String({ minLength: 1, maxLength: 256, pattern: '^[^\\s]+$' });

/** The markdown limit of one page: the body limit bounds a whole batch. */
export const MAX_MARKDOWN_LENGTH = 1024 * 1024;

const PageDocument = Type.Union(
  [
    Type.Object({ markdown: Type.String({ maxLength: MAX_MARKDOWN_LENGTH }) }, closed),
    Type.Object(
      {
        document: Type.Object({
          object: Type.Literal('document'),
          data: Type.Optional(Type.Object({})),
          nodes: Type.Array(Type.Object({ object: Type.String(), type: Type.String() }), { maxItems: 10_000 }),
        }),
      },
      closed,
    ),
    Type.Object({}, closed),
  ],
  { description: 'Markdown, a JSON document, or {} for an empty page' },
);

/**
 * The source of a computed page: GitBook's ComputedContentSourceRevision of
 * type `builtin:openapi`, which names an OpenAPI spec of the organization by
 * its slug. Reads with `computed=true` show the spec's operations in its place.
 */
const ComputedPageSource = Type.Object(
  {
    type: Type.Literal('builtin:openapi'),
    props: Type.Object(
      {
        models: Type.Boolean({ description: 'Also a page of the spec’s schemas' }),
        grouping: Type.Optional(StringEnum(['by-tag', 'by-operation'] as const)),
        downloadLink: Type.Optional(Type.Boolean()),
      },
      closed,
    ),
    dependencies: Type.Object(
      {
        spec: Type.Object(
          {
            ref: Type.Object(
              {
                kind: Type.Literal('openapi'),
                spec: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }),
              },
              closed,
            ),
          },
          closed,
        ),
      },
      closed,
    ),
  },
  closed,
);

/**
 * Where a link page points: GitBook's ContentRef, of the kinds a page of the
 * navigation can lead to. A page, file or anchor without `space` is in this
 * space; targets are checked against the content when the batch is applied.
 */
export const LinkTarget = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('url'),
      url: Type.String({ maxLength: 2048, pattern: '^(https?://[^\\s]+|mailto:[^\\s]+)$' }),
    },
    closed,
  ),
  Type.Object({ kind: Type.Literal('page'), page: PageId, space: Type.Optional(IdParam) }, closed),
  Type.Object({ kind: Type.Literal('file'), file: PageId, space: Type.Optional(IdParam) }, closed),
  Type.Object(
    {
      kind: Type.Literal('anchor'),
      anchor: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\s#]+$' }),
      page: PageId,
      space: Type.Optional(IdParam),
    },
    closed,
  ),
  Type.Object({ kind: Type.Literal('space'), space: IdParam }, closed),
  Type.Object({ kind: Type.Literal('collection'), collection: IdParam }, closed),
]);
export type LinkTarget = Static<typeof LinkTarget>;

const PageMetadata = {
  title: Type.Optional(PageTitle),
  slug: Type.Optional(PageSlug),
  emoji: Type.Optional(PageEmoji),
  icon: Type.Optional(PageIcon),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
};

export const InsertPageChange = Type.Object(
  {
    operation: Type.Literal('insert_page'),
    ...PageMetadata,
    into: Type.Optional(PageId),
    at: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    ref: Type.Optional(BatchRef),
    type: Type.Optional(
      StringEnum(['document', 'computed', 'link', 'group'] as const, { description: 'Default: document' }),
    ),
    document: Type.Optional(PageDocument),
    computed: Type.Optional(ComputedPageSource),
    target: Type.Optional(LinkTarget),
  },
  closed,
);

export const UpdatePageChange = Type.Object(
  {
    operation: Type.Literal('update_page'),
    page: PageId,
    ...PageMetadata,
    document: Type.Optional(PageDocument),
    computed: Type.Optional(ComputedPageSource),
    target: Type.Optional(LinkTarget),
    into: Type.Optional(Type.Union([PageId, Type.Null()])),
    at: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  },
  closed,
);

export const DeletePageChange = Type.Object({ operation: Type.Literal('delete_page'), page: PageId }, closed);

const FileSource = {
  ref: Type.Optional(BatchRef),
  name: Type.String({ minLength: 1, maxLength: 256, pattern: '^[^/\\\\]+$' }),
  contentType: Type.Optional(Type.String({ minLength: 3, maxLength: 255, pattern: '^[\\w.+-]+/[\\w.+-]+$' })),
};
export const InsertFilesChange = Type.Object(
  {
    operation: Type.Literal('insert_files'),
    files: Type.Array(
      Type.Union([
        Type.Object({ ...FileSource, url: Type.String({ format: 'uri', maxLength: 2048 }) }, closed),
        // The 1 MiB limit on the decoded bytes is checked after decoding, with its own message;
        // the body limit bounds the text.
        Type.Object({ ...FileSource, base64: Type.String({ pattern: '^[A-Za-z0-9+/=\\s]*$' }) }, closed),
      ]),
      { minItems: 1, maxItems: 20 },
    ),
  },
  closed,
);

// Variables and reusable contents: GitBook's spec reads them (Revision.variables, a page's
// variables, RevisionReusableContent) but names no content change that writes them; these
// follow its semantic changes (variables_edited, reusable_content_created/edited/deleted).

/**
 * Sets variables of the space (the change request's revision), or of one page
 * with `page`: each name to its value, or removes it with null. Names are
 * checked when applied, with the rule in the message.
 */
export const UpdateVariablesChange = Type.Object(
  {
    operation: Type.Literal('update_variables'),
    page: Type.Optional(PageId),
    variables: Type.Record(
      Type.String(),
      Type.Union([
        Type.String({ maxLength: VARIABLE_LIMITS.stringLength }),
        Type.Number(),
        Type.Boolean(),
        Type.Null(),
      ]),
      { minProperties: 1, maxProperties: VARIABLE_LIMITS.count },
    ),
  },
  closed,
);

const ReusableContentId = Type.String({ minLength: 1, maxLength: 128 });
export const InsertReusableContentChange = Type.Object(
  { operation: Type.Literal('insert_reusable_content'), title: PageTitle, document: PageDocument },
  closed,
);
export const UpdateReusableContentChange = Type.Object(
  {
    operation: Type.Literal('update_reusable_content'),
    reusableContent: ReusableContentId,
    title: Type.Optional(PageTitle),
    document: Type.Optional(PageDocument),
  },
  closed,
);
export const DeleteReusableContentChange = Type.Object(
  { operation: Type.Literal('delete_reusable_content'), reusableContent: ReusableContentId },
  closed,
);
export type UpdateVariables = Static<typeof UpdateVariablesChange>;
export type ReusableContentChange =
  | Static<typeof InsertReusableContentChange>
  | Static<typeof UpdateReusableContentChange>
  | Static<typeof DeleteReusableContentChange>;

/**
 * Brings a page back to its state in a revision of the space (by default the
 * change request's base): a page added since is removed, a page deleted since
 * is restored, any other page gets back its content and metadata. The spec's
 * `block` (single blocks of the document) is named so that it is refused
 * with its own message: only whole pages are reverted here.
 */
export const RevertPageChange = Type.Object(
  {
    operation: Type.Literal('revert_page'),
    page: PageId,
    revision: Type.Optional(IdParam),
    block: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 1000 })),
  },
  closed,
);
export type RevertPage = Static<typeof RevertPageChange>;

export const ContentChange = Type.Union([
  InsertPageChange,
  UpdatePageChange,
  DeletePageChange,
  RevertPageChange,
  InsertFilesChange,
  UpdateVariablesChange,
  InsertReusableContentChange,
  UpdateReusableContentChange,
  DeleteReusableContentChange,
]);
export type ContentChange = Static<typeof ContentChange>;
export type InsertPage = Static<typeof InsertPageChange>;
export type UpdatePage = Static<typeof UpdatePageChange>;
export type InsertFiles = Static<typeof InsertFilesChange>;

export const UpdateContentBody = Type.Object(
  { changes: Type.Array(ContentChange, { minItems: 1, maxItems: 50 }) },
  {
    ...closed,
    examples: [
      {
        changes: [
          {
            operation: 'insert_page',
            ref: 'intro',
            document: { markdown: '# Introduction\n\nSee [setup](./setup.md).' },
          },
          {
            operation: 'insert_page',
            ref: 'setup',
            into: 'intro',
            title: 'Setup',
            document: { markdown: 'Install it.' },
          },
          { operation: 'update_variables', variables: { product: 'Quire' } },
        ],
      },
    ],
  },
);
export const UpdateContentQuery = Type.Object({
  compat: Type.Boolean({
    default: true,
    description: 'true: answer with the change request; false: also the pages and files the batch touched',
  }),
});

export const MAX_FILE_BYTES = 1024 * 1024;
