import type { Db } from '../../db/database.js';
import type { Context } from '../../context.js';
import { findSiteAsAdmin, lockSite } from '../access.js';
import { updateSite, type SiteRow } from '../queries.js';
import { memberView } from './view.js';
import type { StructureView } from '../present.js';
import { loadStructure } from './queries.js';
import { buildStructure, type Structure } from './tree.js';
import { requireLiveDefaults } from './drafts.js';

export interface StructureEdit {
  tx: Db;
  site: SiteRow;
  structure: Structure;
}

/**
 * Runs a change to a site's structure: an admin's, in one transaction that
 * holds the site's row, on the structure as it stands under that lock. Then
 * `present` is given the structure as the change left it, as the caller sees it,
 * unless that leaves the site opening on a draft (a 400, nothing kept).
 * The site's `updated_at` moves, and this instance's cached structures of it go.
 */
export async function editStructure<T>(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  action: string,
  change: (edit: StructureEdit) => Promise<void>,
  present: (view: StructureView) => T,
): Promise<T> {
  const { member } = await findSiteAsAdmin(context, organizationId, siteId, userId, action);
  const result = await context.db.transaction().execute(async (tx) => {
    const site = await lockSite(tx, organizationId, siteId);
    await change({ tx, site, structure: buildStructure(await loadStructure(tx, site)) });
    const after = await updateSite(tx, organizationId, site.id, { updated_at: context.clock.now() });
    const view = await memberView({ ...context, db: tx }, after, member, undefined);
    // Checked on the result, whatever the change: a move or a removal can make a draft the default as well.
    requireLiveDefaults(view.structure);
    return present(view);
  });
  // After the commit: a reader that read the rows before it cannot keep what it made (see ScopedCache.set).
  context.siteStructures.invalidate(siteId);
  return result;
}
