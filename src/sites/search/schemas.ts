import { Type, type Static } from '@sinclair/typebox';
import { IdParam, StringEnum } from '../../core/schemas.js';

const Query = Type.String({ minLength: 1, maxLength: 512, description: 'What to look for' });
const SiteSpaceId = Type.String({ minLength: 1, maxLength: 128 });
const SiteSpaceIds = Type.Array(SiteSpaceId, { minItems: 1, maxItems: 1000 });

const Scope = Type.Union([
  Type.Object(
    {
      mode: Type.Literal('default', {
        description: 'The default site space of each section, and `currentSiteSpace` besides',
      }),
      currentSiteSpace: Type.Optional(SiteSpaceId),
      includedSiteSpaces: Type.Optional(SiteSpaceIds),
      restrictTo: Type.Optional(
        StringEnum(['currentSiteSpace', 'otherSiteSpaces'] as const, {
          description: 'Only `currentSiteSpace` (which it needs), or the rest of the default scope without it',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { mode: Type.Literal('specific', { description: 'Only the given site spaces' }), siteSpaceIds: SiteSpaceIds },
    { additionalProperties: false },
  ),
  Type.Object(
    { mode: Type.Literal('all', { description: 'Every site space of every section' }) },
    { additionalProperties: false },
  ),
]);

/** The spec's body: a `scope`, or one of the deprecated forms it replaces. */
export const SiteSearchBody = Type.Union(
  [
    Type.Object({ query: Query, scope: Scope }, { additionalProperties: false }),
    Type.Object(
      { query: Query, mode: Type.Optional(Type.Literal('specific')), siteSpaceIds: SiteSpaceIds },
      { additionalProperties: false },
    ),
    Type.Object(
      { query: Query, mode: Type.Literal('current'), siteSpaceId: SiteSpaceId },
      { additionalProperties: false },
    ),
    Type.Object({ query: Query, mode: Type.Literal('all') }, { additionalProperties: false }),
  ],
  { examples: [{ query: 'api token', scope: { mode: 'default', currentSiteSpace: 'ss5Jk8RwD2nX7QvM3tLb' } }] },
);
export type SiteSearchBody = Static<typeof SiteSearchBody>;

export const SiteSearchParams = Type.Object({ organizationId: IdParam, siteId: IdParam });
