import type { Context } from '../../context.js';
import { findSiteAsAdmin, siteNotFound } from '../access.js';
import { newSealedVisitorKey, openVisitorKey } from '../secrets.js';
import { replaceVisitorKey, updatePublishingAuth, type PublishingAuthRow } from './auth-queries.js';
import { presentPublishingAuth } from './present.js';
import type { SitePublishingAuth, SitePublishingAuthUpdate } from './schemas.js';

function present(context: Context, siteId: string, row: PublishingAuthRow | undefined): SitePublishingAuth {
  // The site was deleted between the access check and the write.
  if (!row) throw siteNotFound();
  return presentPublishingAuth(row, openVisitorKey(context, siteId, row.auth_private_key_encrypted));
}

/** How a site's visitors are authenticated, with the key that signs their tokens (admins). */
export async function getPublishingAuth(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
): Promise<SitePublishingAuth> {
  const { site } = await findSiteAsAdmin(
    context,
    organizationId,
    siteId,
    callerId,
    'Reading a site’s visitor authentication',
  );
  return present(context, siteId, site);
}

/** Sets the backend and the fallback and logout addresses (admins); an absent one is left as it was, null removes it. */
export async function updateSitePublishingAuth(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
  body: SitePublishingAuthUpdate,
): Promise<SitePublishingAuth> {
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Changing a site’s visitor authentication');
  const row = await updatePublishingAuth(
    context.db,
    organizationId,
    siteId,
    { backend: body.backend, fallbackUrl: body.fallbackURL, logoutUrl: body.logoutURL },
    context.clock.now(),
  );
  return present(context, siteId, row);
}

/** Replaces the key that signs visitor tokens (admins): tokens signed with the old one stop working. */
export async function regenerateSitePublishingAuth(
  context: Context,
  callerId: string,
  organizationId: string,
  siteId: string,
): Promise<SitePublishingAuth> {
  await findSiteAsAdmin(context, organizationId, siteId, callerId, 'Regenerating a site’s visitor key');
  const row = await replaceVisitorKey(
    context.db,
    organizationId,
    siteId,
    newSealedVisitorKey(context.keyring, siteId),
    context.clock.now(),
  );
  return present(context, siteId, row);
}
