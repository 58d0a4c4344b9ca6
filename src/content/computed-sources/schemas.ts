import { Type, type Static } from '@sinclair/typebox';
import { IdParam } from '../../core/schemas.js';
import { DocumentSchemaVersion } from '../documents/schemas.js';

const SpecSlug = Type.String({ minLength: 1, maxLength: 100, description: 'Slug of the OpenAPI spec' });

/** The spec's dependency on an OpenAPI spec: its ref, and the value GitBook resolved, which is resolved again here. */
const SpecDependency = Type.Object({
  ref: Type.Object({ kind: Type.Literal('openapi'), spec: SpecSlug }),
  value: Type.Optional(Type.Unknown()),
});
const SpecDependencies = Type.Object({ spec: SpecDependency });

const TagOrTitle = Type.String({ minLength: 1, maxLength: 1024 });

/** An enum TypeBox's Value can check (StringEnum is for Ajv alone): the sources are checked by the action. */
const Literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

/** The spec's ComputedContentSourceDocumentOpenAPI: one page of what a spec makes. */
export const OpenAPIDocumentSource = Type.Object({
  type: Type.Literal('builtin:openapi'),
  props: Type.Union([
    Type.Object({ doc: Type.Literal('models') }),
    Type.Object({ doc: Literals(['operations', 'info', 'tag'] as const), page: TagOrTitle }),
    Type.Object({
      doc: Type.Literal('operation'),
      page: TagOrTitle,
      method: Literals(['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'trace', 'hook'] as const),
      deprecated: Type.Optional(Type.Boolean()),
    }),
  ]),
  dependencies: SpecDependencies,
});
export type OpenAPIDocumentSource = Static<typeof OpenAPIDocumentSource>;

/** The spec's ComputedContentSourceRevisionOpenAPI: every page a spec makes. */
export const OpenAPIRevisionSource = Type.Object({
  type: Type.Literal('builtin:openapi'),
  props: Type.Object({
    models: Type.Boolean(),
    downloadLink: Type.Optional(Type.Boolean()),
    grouping: Type.Optional(Literals(['by-tag', 'by-operation'] as const)),
  }),
  dependencies: SpecDependencies,
});
export type OpenAPIRevisionSource = Static<typeof OpenAPIRevisionSource>;

/**
 * Any computed source, as the body holds it: its type decides which of the
 * spec's shapes it must have, checked by the action, so that a source this
 * service cannot run is told so rather than refused as malformed.
 */
const AnySource = Type.Object({
  type: Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'builtin:openapi, builtin:translation or integration:…',
  }),
  props: Type.Optional(Type.Record(Type.String({ maxLength: 256 }), Type.Unknown())),
  dependencies: Type.Optional(Type.Record(Type.String({ maxLength: 256 }), Type.Unknown())),
});

const Seed = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'Seed the ids of the generated pages are made from',
});

export const ComputedBody = Type.Object(
  { source: AnySource, seed: Seed },
  {
    examples: [
      {
        source: {
          type: 'builtin:openapi',
          props: { models: true },
          dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
        },
        seed: 'reference',
      },
    ],
  },
);
export type ComputedBody = Static<typeof ComputedBody>;

export const ComputedParams = Type.Object({ spaceId: IdParam });
export const ComputedDocumentQuery = Type.Object({ schema: Type.Optional(DocumentSchemaVersion) });

/** Documentation of the answers; the pages are written as the content reads write them. */
export const ComputedDocumentResponse = Type.Object(
  { object: Type.Literal('document'), nodes: Type.Array(Type.Unknown()) },
  { additionalProperties: true, description: 'The computed content as the GitBook spec’s JSONDocument' },
);
export const ComputedRevisionResponse = Type.Object({
  pages: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'As the GitBook spec’s RevisionPage' }),
  files: Type.Array(Type.Unknown()),
  reusableContents: Type.Array(Type.Unknown()),
});
