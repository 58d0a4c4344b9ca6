import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, StringEnum } from '../core/schemas.js';

export const SPEC_VISIBILITIES = ['private', 'public'] as const;
export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

export const SPEC_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const SpecSlug = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: SPEC_SLUG_PATTERN,
  description: 'Names the spec in its organization: lower-case letters and digits in words joined by hyphens',
});
const SpecVisibility = StringEnum(SPEC_VISIBILITIES, {
  description: '`private`: members of the organization only; `public`: anyone with a public link',
});
const SourceUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description: 'Where the spec’s entry file is fetched from (http or https); its $refs are resolved from there',
});

/**
 * Where a spec comes from: a URL, or its text. The text's bound is the
 * configured SPEC_MAX_BYTES (its length in characters here; in UTF-8 bytes
 * by the action), so the schemas are made for a configuration.
 */
export function specSourceSchema(maxBytes: number) {
  return Type.Union([
    Type.Object({ url: SourceUrl }, { additionalProperties: false }),
    Type.Object(
      {
        text: Type.String({
          minLength: 1,
          maxLength: maxBytes,
          description: `The spec itself, JSON or YAML, at most ${maxBytes} bytes`,
        }),
      },
      { additionalProperties: false },
    ),
  ]);
}
export type SpecSource = Static<ReturnType<typeof specSourceSchema>>;

export function createSpecBodySchema(maxBytes: number) {
  return Type.Object(
    { slug: SpecSlug, source: specSourceSchema(maxBytes) },
    {
      additionalProperties: false,
      examples: [{ slug: 'petstore', source: { url: 'https://api.example.com/openapi.yaml' } }],
    },
  );
}
export type CreateSpecBody = Static<ReturnType<typeof createSpecBodySchema>>;

export function putSpecBodySchema(maxBytes: number) {
  return Type.Object(
    { source: specSourceSchema(maxBytes) },
    { additionalProperties: false, examples: [{ source: { url: 'https://api.example.com/openapi.yaml' } }] },
  );
}
export type PutSpecBody = Static<ReturnType<typeof putSpecBodySchema>>;

export function updateSpecBodySchema(maxBytes: number) {
  return Type.Object(
    { source: Type.Optional(specSourceSchema(maxBytes)), visibility: Type.Optional(SpecVisibility) },
    { additionalProperties: false, minProperties: 1, examples: [{ visibility: 'public' }] },
  );
}
export type UpdateSpecBody = Static<ReturnType<typeof updateSpecBodySchema>>;

// ---- Parameters ----

/** A slug in a path that only reads or changes an existing spec: anything else is a 404, so only the length is bounded. */
const SlugParam = Type.String({ minLength: 1, maxLength: 128 });
export const SpecParams = Type.Object({ organizationId: IdParam, specSlug: SlugParam });
export type SpecParams = Static<typeof SpecParams>;
/** The PUT may create the spec it names: its slug must be one. */
export const PutSpecParams = Type.Object({ organizationId: IdParam, specSlug: SpecSlug });
export const VersionParams = Type.Object({ organizationId: IdParam, specSlug: SlugParam, versionId: IdParam });
export type VersionParams = Static<typeof VersionParams>;

export const ListSpecsQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListSpecsQuery = Static<typeof ListSpecsQuery>;

// ---- Responses ----

const ProcessError = Type.Object({
  message: Type.String(),
  code: Type.Optional(Type.String({ description: 'The rule or step that failed' })),
});

export const OpenAPISpecSchema = Type.Object({
  object: Type.Literal('openapi-spec'),
  id: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  slug: Type.String(),
  sourceURL: Type.Optional(Type.String({ format: 'uri', description: 'The URL of a spec read from a URL' })),
  processingState: StringEnum(PROCESSING_STATES, {
    description:
      '`pending`: waiting to be processed; `progress`: being processed; `complete`: processed, successfully or not',
  }),
  visibility: SpecVisibility,
  lastVersion: Type.Optional(Type.String({ description: 'The id of the newest version' })),
  lastProcessedAt: Type.Optional(DateTime),
  lastProcessErrorCode: Type.Optional(
    StringEnum(PROCESS_ERROR_CODES, { description: 'Why the last processing failed; absent when it succeeded' }),
  ),
  lastProcessedErrors: Type.Optional(
    Type.Array(ProcessError, { description: 'What the last failed processing found wrong (at most 20)' }),
  ),
  lastProcessedErrorCount: Type.Integer({
    minimum: 0,
    description:
      'How many errors the last processing found: those of `lastProcessedErrors`, as processing stops ' +
      'looking at 20; 0 when it succeeded or has not run',
  }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }) }),
});
export type OpenAPISpec = Static<typeof OpenAPISpecSchema>;

export const OpenAPISpecVersionSchema = Type.Object({
  object: Type.Literal('openapi-spec-version'),
  id: Type.String(),
  createdAt: DateTime,
  url: Type.String({
    format: 'uri',
    description:
      'Where the version’s entry file can be read: the URL it was fetched from, or, for a spec given as ' +
      'text, this service’s copy of it (…/versions/{versionId}/raw)',
  }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type OpenAPISpecVersion = Static<typeof OpenAPISpecVersionSchema>;

export const OpenAPISpecContentSchema = Type.Object({
  filesystem: Type.Object(
    {
      entrypoint: Type.String({ description: 'The path of the entry file' }),
      files: Type.Array(
        Type.Object({
          path: Type.String({
            description: 'The URL the file was read from; for a spec given as text, openapi.json or openapi.yaml',
          }),
          isEntrypoint: Type.Boolean(),
          specification: Type.Unknown({ description: 'The file, parsed from JSON or YAML, as written' }),
        }),
      ),
    },
    { description: 'Every file of the version: the entry file and the files its $refs reach' },
  ),
  url: Type.String({ format: 'uri', description: 'As the version’s url' }),
});
