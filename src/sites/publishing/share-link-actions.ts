import { ConflictError, NotFoundError } from '../../core/errors.js';
import { newId, randomString } from '../../core/ids.js';
import { paginate, type Page } from '../../core/pagination.js';
import { secretHash } from '../../core/sealed.js';
import { containsPattern } from '../../core/text.js';
import type { Context } from '../../context.js';
import { findSiteAsAdmin, lockSite } from '../access.js';
import { siteAddress, withShareKey } from '../addresses.js';
import type { SiteRow } from '../queries.js';
import { openShareKey, sealShareKey } from '../secrets.js';
import { presentShareLink } from './present.js';
import type { CreateShareLinkBody, ListShareLinksQuery, ShareLink, UpdateShareLinkBody } from './schemas.js';
import {
  countShareLinks,
  deleteShareLink as deleteShareLinkRow,
  insertShareLink,
  listShareLinks,
  listShareLinksMatching,
  updateShareLink as updateShareLinkRow,
  type ShareLinkRow,
} from './share-link-queries.js';

/** Share links a site may have: each is listed with its key opened, so the list stays short. */
export const MAX_SHARE_LINKS_PER_SITE = 100;
/** 24 characters of [A-Za-z0-9]: about 143 bits, past guessing. */
const SHARE_KEY_LENGTH = 24;

const shareLinkNotFound = () => new NotFoundError('No share link with this id on the site');

/** Share links show their key in their address, so every operation on them is for admins, reads included. */
async function siteForShareLinks(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  action: string,
): Promise<SiteRow> {
  return (await findSiteAsAdmin(context, organizationId, siteId, callerId, action)).site;
}

function present(context: Context, site: SiteRow, row: ShareLinkRow): ShareLink {
  const key = openShareKey(context, row.id, row.key_encrypted);
  return presentShareLink(row, withShareKey(siteAddress(context.urls, site), key));
}

export async function listSiteShareLinks(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  query: ListShareLinksQuery,
): Promise<Page<ShareLink>> {
  const site = await siteForShareLinks(context, callerId, organizationId, siteId, 'Listing a site’s share links');
  const { search } = query;
  const page = context.cursors.request(`site-share-links:${organizationId}:${siteId}:${search ?? ''}`, query);
  return paginate(context.cursors, page, {
    rows: () =>
      search === undefined
        ? listShareLinks(context.db, page, organizationId, siteId)
        : listShareLinksMatching(context.db, page, organizationId, siteId, containsPattern(search), secretHash(search)),
    count: () => countShareLinks(context.db, organizationId, siteId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => present(context, site, row),
  });
}

/**
 * Creates a share link, whatever the site's visibility: it opens the site only
 * while the visibility is `share-link`. The key is kept hashed, to find the
 * link by it, and sealed, to show it again in the link's address.
 */
export async function createSiteShareLink(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  body: CreateShareLinkBody,
): Promise<ShareLink> {
  await siteForShareLinks(context, callerId, organizationId, siteId, 'Creating a share link');
  const key = randomString(SHARE_KEY_LENGTH);
  return context.db.transaction().execute(async (tx) => {
    // The site's lock makes the count and the insert one step, so concurrent creations cannot pass the limit.
    const site = await lockSite(tx, organizationId, siteId);
    if ((await countShareLinks(tx, organizationId, siteId)) >= MAX_SHARE_LINKS_PER_SITE) {
      throw new ConflictError(
        `A site has at most ${MAX_SHARE_LINKS_PER_SITE} share links; delete one before creating another`,
      );
    }
    const id = newId();
    const row = await insertShareLink(
      tx,
      organizationId,
      {
        id,
        siteId,
        name: body.name,
        keyHash: secretHash(key),
        keyEncrypted: sealShareKey(context.keyring, id, key),
      },
      context.clock.now(),
    );
    return presentShareLink(row, withShareKey(siteAddress(context.urls, site), key));
  });
}

/** Renames a share link or turns it on or off. */
export async function updateSiteShareLink(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
  body: UpdateShareLinkBody,
): Promise<ShareLink> {
  const site = await siteForShareLinks(context, callerId, organizationId, siteId, 'Changing a share link');
  const row = await updateShareLinkRow(context.db, organizationId, siteId, shareLinkId, {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.active === undefined ? {} : { active: body.active }),
  });
  if (!row) throw shareLinkNotFound();
  return present(context, site, row);
}

/** Deletes a share link: its address no longer opens the site. */
export async function deleteSiteShareLink(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
): Promise<void> {
  await siteForShareLinks(context, callerId, organizationId, siteId, 'Deleting a share link');
  if (!(await deleteShareLinkRow(context.db, organizationId, siteId, shareLinkId))) throw shareLinkNotFound();
}
