import { Type } from '@sinclair/typebox';

/** The results of every search, as the spec shapes them. */
const AppUrls = Type.Object({ app: Type.String({ format: 'uri' }) });
const Score = Type.Number({ minimum: 0, description: 'How well it matches: higher is better, unbounded' });

export const SearchSectionResult = Type.Object({
  id: Type.String({ description: 'The heading’s anchor; the page’s id for the text before its first heading' }),
  title: Type.String(),
  path: Type.String(),
  score: Score,
  body: Type.String({ description: 'An excerpt of the section around the words' }),
  urls: AppUrls,
});

export const SearchPageResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String({ description: 'The page’s description; empty when it has none' }),
  path: Type.String(),
  score: Score,
  rank: Type.Integer({
    minimum: 1,
    description:
      'The page’s position among the pages of the results, from 1, kept across pages of results: in an ' +
      'organization’s search, in the order shown (spaces best first, their best pages within each)',
  }),
  ancestors: Type.Array(Type.Object({ title: Type.String() }), {
    description: 'The titles of the pages above it, from the top level down to its parent',
  }),
  sections: Type.Array(SearchSectionResult),
  urls: AppUrls,
});

export const SearchSpaceResult = Type.Object({
  type: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  score: Score,
  pages: Type.Array(SearchPageResult),
});
