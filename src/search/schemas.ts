import { Type } from '@sinclair/typebox';
import { IdParam, ListEnvelope, ListQuery, ShareKeyQuery } from '../core/schemas.js';
import { SearchPageResult, SearchSpaceResult } from './result-schemas.js';

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

export const SpaceSearchResponse = ListEnvelope(SearchPageResult);
export const OrganizationSearchResponse = ListEnvelope(SearchSpaceResult);
