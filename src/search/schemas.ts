import { Type } from '@sinclair/typebox';
import { IdParam, ListEnvelope, ListQuery, ShareKeyQuery } from '../core/schemas.js';

/** The longest query a search takes (the seeds' limit). */
export const MAX_QUERY = 512;

const Query = Type.String({ minLength: 1, maxLength: MAX_QUERY, description: 'What to look for' });

export const SpaceSearchQuery = Type.Object({
  query: Query,
  ...ListQuery,
  shareKey: ShareKeyQuery.properties.shareKey,
});
export const OrganizationSearchQuery = Type.Object({ query: Query, ...ListQuery });

export const SpaceSearchParams = Type.Object({ spaceId: IdParam });
export const OrganizationSearchParams = Type.Object({ organizationId: IdParam });

const AppUrls = Type.Object({ app: Type.String({ format: 'uri' }) });

export const SearchSectionResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  body: Type.String({ description: 'An excerpt of the section around the match' }),
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

export const SpaceSearchResponse = ListEnvelope(SearchPageResult);
export const OrganizationSearchResponse = ListEnvelope(SearchSpaceResult);
