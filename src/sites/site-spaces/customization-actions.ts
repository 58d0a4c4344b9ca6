import { NotFoundError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { findSiteAsMember } from '../access.js';
import { checkCondition } from '../adaptive/conditions.js';
import type { SiteCustomizationSettings } from '../customization/schemas.js';
import { siteCustomization } from '../customization/settings.js';
import type { SiteRow } from '../queries.js';
import { editStructure } from '../structure/edit.js';
import { loadStructure } from '../structure/queries.js';
import { allSiteSpaces, buildStructure, type SiteSpaceRow, type Structure } from '../structure/tree.js';
import type { SiteSpaceCustomizationBody } from './customization-schemas.js';
import { patchedOverride, withOverride } from './customization-overrides.js';
import { storeSiteSpaceCustomization } from './customization-queries.js';

const siteSpaceNotFound = () => new NotFoundError('No site space with this id in the site');

function siteSpaceOf(structure: Structure, siteSpaceId: string): SiteSpaceRow {
  const siteSpace = allSiteSpaces(structure).find((s) => s.id === siteSpaceId);
  if (!siteSpace) throw siteSpaceNotFound();
  return siteSpace;
}

/** What the reader shows a site space with: the site's settings, its override over them. */
export function siteSpaceSettings(site: SiteRow, override: Record<string, unknown> | null): SiteCustomizationSettings {
  return withOverride(siteCustomization(site.customization, site), override);
}

/** A site space's customization as the reader applies it (members of any role). */
export async function getSiteSpaceCustomization(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
): Promise<SiteCustomizationSettings> {
  const { site } = await findSiteAsMember(context, organizationId, siteId, userId);
  const siteSpace = siteSpaceOf(buildStructure(await loadStructure(context.db, site)), siteSpaceId);
  return siteSpaceSettings(site, siteSpace.customization);
}

/**
 * Merges a PATCH into a site space's override (admins), under the site's
 * lock as every structure write: header links' conditions are checked against
 * the adaptive schema as it stands under that lock, as the site's are.
 */
export async function overrideSiteSpaceCustomization(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  body: SiteSpaceCustomizationBody,
): Promise<SiteCustomizationSettings> {
  let settings: SiteCustomizationSettings | undefined;
  await editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Customizing a site space',
    async ({ tx, site, structure }) => {
      const siteSpace = siteSpaceOf(structure, siteSpaceId);
      for (const [index, link] of (body.header?.links ?? []).entries()) {
        if (link.condition) {
          await checkCondition(context, link.condition, site.adaptive_schema, `body/header/links/${index}/condition`);
        }
      }
      const override = patchedOverride(siteSpace.customization, body);
      await storeSiteSpaceCustomization(tx, organizationId, siteSpaceId, override);
      settings = siteSpaceSettings(site, override);
    },
    () => undefined,
  );
  return settings!;
}

/** Drops a site space's override (admins): whether there was one, for 205 or 204. */
export async function removeSiteSpaceCustomization(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
): Promise<boolean> {
  let existed = false;
  await editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Customizing a site space',
    async ({ tx, structure }) => {
      existed = siteSpaceOf(structure, siteSpaceId).customization !== null;
      if (existed) await storeSiteSpaceCustomization(tx, organizationId, siteSpaceId, null);
    },
    () => undefined,
  );
  return existed;
}
