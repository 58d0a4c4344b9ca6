import { BadRequestError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { findSiteAsAdmin, findSiteAsMember, lockSite } from '../access.js';
import { declaredClaims } from './claims.js';
import { presentAdaptiveSchema } from './present.js';
import { setAdaptiveSchema } from './queries.js';
import {
  MAX_CLAIMS,
  type SiteAdaptiveSchema,
  type SiteAdaptiveTemplateConditions,
  type UpdateSiteAdaptiveSchemaBody,
} from './schemas.js';
import { templateConditions } from './templates.js';

export async function getAdaptiveSchema(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
): Promise<SiteAdaptiveSchema> {
  const { site } = await findSiteAsMember(context, organizationId, siteId, callerId);
  return presentAdaptiveSchema(site);
}

/** Replaces the site's adaptive schema (admins); the request schema has checked its shape and sizes. */
export async function updateAdaptiveSchema(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  body: UpdateSiteAdaptiveSchemaBody,
): Promise<SiteAdaptiveSchema> {
  const { jsonSchema } = body;
  const { unsigned, ...signed } = jsonSchema.properties;
  const claimCount = Object.keys(signed).length + Object.keys(unsigned?.properties ?? {}).length;
  if (claimCount > MAX_CLAIMS) {
    throw new BadRequestError(
      `body/jsonSchema declares ${claimCount} claims, signed and unsigned together; at most ${MAX_CLAIMS} are allowed`,
    );
  }
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Changing the adaptive schema of a site');
  const updatedAt = context.clock.now();
  const site = await context.db.transaction().execute(async (tx) => {
    const locked = await lockSite(tx, organizationId, siteId);
    await setAdaptiveSchema(tx, organizationId, siteId, jsonSchema, updatedAt);
    return locked;
  });
  return presentAdaptiveSchema({ ...site, adaptive_schema: jsonSchema, adaptive_schema_updated_at: updatedAt });
}

export async function listTemplateConditions(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
): Promise<SiteAdaptiveTemplateConditions> {
  const { site } = await findSiteAsMember(context, organizationId, siteId, callerId);
  return { items: templateConditions(declaredClaims(site.adaptive_schema)) };
}
