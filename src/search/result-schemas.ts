import { Type } from '@sinclair/typebox';

/** The results of every search, as the spec shapes them. */
const AppUrls = Type.Object({ app: Type.String({ format: 'uri' }) });

export const SearchSectionResult = Type.Object({
  id: Type.String({ description: 'The heading’s anchor; the page’s id for the text before its first heading' }),
  title: Type.String(),
  path: Type.String(),
  body: Type.String({ description: 'An excerpt of the section around the words' }),
  urls: AppUrls,
});

export const SearchPageResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  sections: Type.Array(SearchSectionResult),
  urls: AppUrls,
});

export const SearchSpaceResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  pages: Type.Array(SearchPageResult),
});
