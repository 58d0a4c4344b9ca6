import { Type } from '@sinclair/typebox';
import { IdParam, StringEnum } from '../../core/schemas.js';
import { ContentQuery, RevisionPageParams } from '../schemas.js';

const DocumentIdParam = Type.String({ minLength: 1, maxLength: 128, description: 'ID of the document in the space' });

export const DocumentParams = Type.Object({ spaceId: IdParam, documentId: DocumentIdParam });

/** The spec's documentSchema: both name the one schema this service writes. */
export const DocumentSchemaVersion = StringEnum(['current', 'next'] as const, {
  description: 'Version of the schema used for the document; both are the one schema written here',
});

export const DocumentQuery = Type.Object({
  schema: Type.Optional(DocumentSchemaVersion),
  shareKey: ContentQuery.properties.shareKey,
});

/** The spec's documentDereferenced, as a query string holds it. */
export const DereferencedQuery = StringEnum(['true', 'false', 'reusable-contents'] as const, {
  default: 'false',
  description:
    'true or reusable-contents replaces each included reusable content of the space by its content ' +
    '(the only references here whose content lives elsewhere)',
});

export const PageDocumentParams = RevisionPageParams;

export const PageDocumentQuery = Type.Object({
  // The spec's documentEvaluated: variables are the only expressions here, and they are deterministic.
  evaluated: StringEnum(['true', 'false', 'deterministic-only'] as const, {
    default: 'false',
    description: 'true or deterministic-only replaces {{ space.vars.X }} and {{ page.vars.X }} by their values',
  }),
  dereferenced: DereferencedQuery,
  shareKey: ContentQuery.properties.shareKey,
});

/** Documentation of the answer; it is written as JSON text, so this only describes it. */
export const DocumentResponse = Type.Object(
  { object: Type.Literal('document'), nodes: Type.Array(Type.Unknown()) },
  { additionalProperties: true, description: 'The content as the GitBook spec’s JSONDocument' },
);
