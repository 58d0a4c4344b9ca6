import { Type } from '@sinclair/typebox';
import { ContentQuery } from '../schemas.js';

const PageRef = Type.Object({
  kind: Type.Literal('page'),
  page: Type.String(),
  space: Type.String({ description: 'The space the page is in' }),
});

/** The spec's RevisionPageMetaLinks. */
export const RevisionPageMetaLinksSchema = Type.Object({
  canonical: PageRef,
  alternates: Type.Array(PageRef),
  previous: Type.Optional(PageRef),
  next: Type.Optional(PageRef),
  parent: Type.Optional(PageRef),
});

export const MetaLinksQuery = Type.Object({ shareKey: ContentQuery.properties.shareKey });
