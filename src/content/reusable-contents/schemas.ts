import { Type } from '@sinclair/typebox';
import { IdParam, StringEnum } from '../../core/schemas.js';
import { ContentQuery } from '../schemas.js';

const ReusableContentIdParam = Type.String({ minLength: 1, maxLength: 128 });
const ChangeRequestIdParam = Type.String({ minLength: 1, maxLength: 128 });

export const SpaceReusableContentParams = Type.Object({ spaceId: IdParam, reusableContentId: ReusableContentIdParam });
export const ChangeRequestReusableContentParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: ChangeRequestIdParam,
  reusableContentId: ReusableContentIdParam,
});
export const RevisionReusableContentParams = Type.Object({
  spaceId: IdParam,
  revisionId: IdParam,
  reusableContentId: ReusableContentIdParam,
});

/** The spec's revisionMetadata and revisionComputed, as the other content reads take them. */
export const ReusableContentQuery = ContentQuery;

export const ReusableContentDocumentQuery = Type.Object({
  // The spec's documentEvaluated: a boolean or `deterministic-only`. Variables are the only
  // expressions evaluated here, and they are deterministic, so both evaluate them.
  evaluated: StringEnum(['true', 'false', 'deterministic-only'] as const, {
    default: 'false',
    description: 'true or deterministic-only replaces {{ space.vars.X }} by the space’s variables',
  }),
  shareKey: ContentQuery.properties.shareKey,
});

export const ReusableContentResponse = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    document: Type.Optional(Type.String({ description: 'The id of its document; absent when it is empty' })),
  },
  { description: 'A reusable content as the GitBook spec’s RevisionReusableContent' },
);

/** Documentation of the answer; it is written as JSON text, so this only describes it. */
export const ReusableContentDocumentResponse = Type.Object(
  { object: Type.Literal('document'), nodes: Type.Array(Type.Unknown()) },
  { additionalProperties: true, description: 'The content as the GitBook spec’s JSONDocument' },
);
