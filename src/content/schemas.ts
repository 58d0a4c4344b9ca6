import { Type } from '@sinclair/typebox';
import { IdParam, ListQuery, StringEnum, ShareKeyQuery } from '../core/schemas.js';

export const ContentQuery = Type.Object({
  metadata: Type.Boolean({ default: true, description: 'false leaves out git metadata (this service keeps none)' }),
  computed: Type.Boolean({ default: true, description: 'false leaves computed pages without generated content' }),
  shareKey: ShareKeyQuery.properties.shareKey,
});

export const PageQuery = Type.Object({
  format: StringEnum(['document', 'markdown'] as const, {
    default: 'document',
    description: 'The form of the page’s content',
  }),
  evaluated: Type.Boolean({
    default: false,
    description: 'true replaces {{ space.vars.X }} and {{ page.vars.X }} by their values',
  }),
  dereferenced: StringEnum(['true', 'false', 'reusable-contents'] as const, {
    default: 'false',
    description:
      'true or reusable-contents replaces each included reusable content of the space by its content ' +
      '(the only references here whose content lives elsewhere)',
  }),
  metadata: ContentQuery.properties.metadata,
  computed: ContentQuery.properties.computed,
  shareKey: ContentQuery.properties.shareKey,
});

export const FilesQuery = Type.Object({ ...ListQuery, ...ContentQuery.properties });

const ChangeRequestIdParam = Type.String({ minLength: 1, maxLength: 128 });
const FileIdParam = Type.String({ minLength: 1, maxLength: 128 });
const PageIdParam = Type.String({ minLength: 1, maxLength: 128 });

export const SpaceContentParams = Type.Object({ spaceId: IdParam });
export const SpaceFileParams = Type.Object({ spaceId: IdParam, fileId: FileIdParam });
export const SpacePageParams = Type.Object({ spaceId: IdParam, pageId: PageIdParam });

export const ChangeRequestContentParams = Type.Object({ spaceId: IdParam, changeRequestId: ChangeRequestIdParam });
export const ChangeRequestFileParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: ChangeRequestIdParam,
  fileId: FileIdParam,
});
export const ChangeRequestPageParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: ChangeRequestIdParam,
  pageId: PageIdParam,
});

export const RevisionParams = Type.Object({ spaceId: IdParam, revisionId: IdParam });

/** A page's complete path in its revision (slugs joined by `/`), as the route's wildcard. */
const PagePathParam = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'The path of the page in the revision',
});
export const SpacePagePathParams = Type.Object({ spaceId: IdParam, '*': PagePathParam });
export const ChangeRequestPagePathParams = Type.Object({
  spaceId: IdParam,
  changeRequestId: ChangeRequestIdParam,
  '*': PagePathParam,
});
export const RevisionPagePathParams = Type.Object({ spaceId: IdParam, revisionId: IdParam, '*': PagePathParam });
export const RevisionFileParams = Type.Object({ spaceId: IdParam, revisionId: IdParam, fileId: FileIdParam });
export const RevisionPageParams = Type.Object({ spaceId: IdParam, revisionId: IdParam, pageId: PageIdParam });

/** Documentation of the content answers; they are written as JSON text, so these only describe them. */
export const RevisionPageResponse = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    type: Type.String(),
    path: Type.String(),
    pages: Type.Array(Type.Unknown()),
  },
  {
    additionalProperties: true,
    description: 'A page as the GitBook spec’s RevisionPage, with its subpages in `pages`',
  },
);
export const PageTreeResponse = Type.Object({ pages: Type.Array(RevisionPageResponse) });
export const RevisionResponse = Type.Object(
  { object: Type.Literal('revision'), id: Type.String(), type: Type.String(), pages: Type.Array(RevisionPageResponse) },
  { additionalProperties: true, description: 'A revision as the GitBook spec’s Revision' },
);
export const RevisionFileResponse = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    contentType: Type.String(),
    downloadURL: Type.String(),
    size: Type.Integer(),
  },
  {
    additionalProperties: true,
    description: 'A file as the GitBook spec’s RevisionFile; downloadURL is signed and expires',
  },
);
