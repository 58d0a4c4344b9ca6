import { Type, type TSchema } from '@sinclair/typebox';
import { IdParam, StringEnum } from '../../core/schemas.js';
import {
  ChangeRequestContentParams,
  ChangeRequestPageParams,
  RevisionPageParams,
  RevisionParams,
} from '../../content/schemas.js';

export { ChangeRequestContentParams, ChangeRequestPageParams, RevisionPageParams, RevisionParams };

/** Changes an answer lists at most; `more` counts those left out. */
export const MAX_CHANGES_LIMIT = 1000;

const Limit = Type.Integer({
  minimum: 0,
  maximum: MAX_CHANGES_LIMIT,
  default: 10,
  description: 'How many changes to list, in their order (default 10); `more` counts the others',
});

export const ChangeRequestChangesQuery = Type.Object({ limit: Type.Optional(Limit) });

export const RevisionChangesQuery = Type.Object({
  limit: Type.Optional(Limit),
  // The spec's options of revision reads: a diff holds no Git metadata, and names computed pages by their source.
  metadata: Type.Optional(Type.Boolean({ description: 'Accepted as GitBook has it; changes carry no Git metadata' })),
  computed: Type.Optional(
    Type.Boolean({ description: 'Accepted as GitBook has it; a computed page is compared by its source' }),
  ),
});

/** Documentation of the answers: they are written as JSON text, so these only describe them. */
const Open = <T extends Record<string, TSchema>>(properties: T, description: string) =>
  Type.Object(properties, { additionalProperties: true, description });

const ChangedPage = Open(
  { id: Type.String(), type: Type.String(), title: Type.String(), path: Type.Optional(Type.String()) },
  'The spec’s ChangedRevisionPage: its path as it was before a deletion, after any other change',
);

const Change = Open(
  {
    type: StringEnum([
      'page_created',
      'page_edited',
      'page_deleted',
      'page_moved',
      'file_created',
      'file_edited',
      'file_deleted',
      'variables_edited',
      'reusable_content_created',
      'reusable_content_edited',
      'reusable_content_deleted',
    ] as const),
    page: Type.Optional(ChangedPage),
  },
  'One of the spec’s RevisionSemanticChange objects',
);

export const RevisionSemanticChangesResponse = Type.Object(
  {
    changes: Type.Array(Change),
    more: Type.Optional(Type.Integer({ description: 'How many changes past `limit` were left out' })),
    mergedFrom: Type.Optional(Type.Unknown({ description: 'The change request a merge revision merged' })),
  },
  { description: 'The spec’s RevisionSemanticChanges' },
);

const Block = Type.Unknown({ description: 'A block of the JSON document, as the page reads' });
const LineChange = Type.Object({
  change: StringEnum(['unchanged', 'inserted', 'deleted'] as const),
  text: Type.String(),
});
const Cells = Type.Array(Type.String());
const RowChange = Type.Union([
  Type.Object({ change: StringEnum(['unchanged', 'inserted', 'deleted'] as const), cells: Cells }),
  Type.Object({ change: Type.Literal('edited'), before: Cells, after: Cells }),
]);
const BlockChange = Type.Union([
  Type.Object({ change: StringEnum(['unchanged', 'inserted', 'deleted'] as const), block: Block }),
  Type.Object({
    change: Type.Literal('edited'),
    before: Block,
    after: Block,
    lines: Type.Optional(Type.Array(LineChange, { description: 'A code block’s lines' })),
    rows: Type.Optional(Type.Array(RowChange, { description: 'A table’s rows, each its cells’ text by column' })),
  }),
]);

export const PageDiffResponse = Type.Object(
  {
    object: Type.Literal('page-diff'),
    page: IdParam,
    from: Type.Union([Type.String(), Type.Null()], { description: 'The revision compared from; null: none' }),
    to: Type.String({ description: 'The revision compared to' }),
    tooLarge: Type.Optional(Type.Boolean({ description: 'The documents were too large to diff block by block' })),
    blocks: Type.Optional(Type.Array(BlockChange)),
  },
  { description: 'A page’s document diffed block by block: Quire’s own, as GitBook’s spec has no place for it' },
);
