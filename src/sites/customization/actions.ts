import type { Context } from '../../context.js';
import { findSiteAsAdmin, findSiteAsMember, lockSite } from '../access.js';
import { checkCondition } from '../adaptive/conditions.js';
import { storeSiteCustomization } from './queries.js';
import type { SiteCustomizationSettings } from './schemas.js';
import { siteCustomization } from './settings.js';

export async function getCustomization(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
): Promise<SiteCustomizationSettings> {
  const { site } = await findSiteAsMember(context, organizationId, siteId, callerId);
  return siteCustomization(site.customization, site);
}

/**
 * Replaces a site's customization settings (admins). Header links' conditions
 * must be valid expressions over the site's adaptive schema, read under the
 * site's lock so that it cannot change between the check and the write; an
 * empty condition means none.
 */
export async function replaceCustomization(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  settings: SiteCustomizationSettings,
): Promise<SiteCustomizationSettings> {
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Customizing a site');
  const site = await context.db.transaction().execute(async (tx) => {
    const locked = await lockSite(tx, organizationId, siteId);
    for (const [index, link] of settings.header.links.entries()) {
      if (link.condition) {
        await checkCondition(context, link.condition, locked.adaptive_schema, `body/header/links/${index}/condition`);
      }
    }
    await storeSiteCustomization(tx, organizationId, siteId, settings, context.clock.now());
    return locked;
  });
  // The published site carries its customization.
  context.siteStructures.invalidate(siteId);
  return siteCustomization(settings, site);
}
