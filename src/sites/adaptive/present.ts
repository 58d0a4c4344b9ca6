import type { SiteRow } from '../queries.js';
import { EMPTY_ADAPTIVE_SCHEMA } from './claims.js';
import type { SiteAdaptiveJSONSchema, SiteAdaptiveSchema } from './schemas.js';

/**
 * The site's adaptive schema. A site that never had one answers the empty
 * schema, dated from the site's creation: it has had no claims since then.
 */
export function presentAdaptiveSchema(
  site: Pick<SiteRow, 'adaptive_schema' | 'adaptive_schema_updated_at' | 'created_at'>,
): SiteAdaptiveSchema {
  const stored = site.adaptive_schema as SiteAdaptiveJSONSchema | null;
  return {
    object: 'site-adaptive-schema',
    jsonSchema: stored ?? { ...EMPTY_ADAPTIVE_SCHEMA, properties: {} },
    updatedAt: (stored ? (site.adaptive_schema_updated_at ?? site.created_at) : site.created_at).toISOString(),
  };
}
