import type { PublishingAuthRow } from './auth-queries.js';
import type { ShareLinkRow } from './share-link-queries.js';
import type { ShareLink, SitePublishingAuth } from './schemas.js';

/** A share link, with the site's address carrying its key (`published`, made by the caller: opening the key is not pure). */
export function presentShareLink(row: Omit<ShareLinkRow, 'key_encrypted'>, published: string): ShareLink {
  return {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at.toISOString(),
    name: row.name,
    active: row.active,
    urls: { published },
  };
}

/** How the site's visitors are authenticated, with the opened signing key (admins only see this). */
export function presentPublishingAuth(row: PublishingAuthRow, privateKey: string): SitePublishingAuth {
  return {
    object: 'publishing-auth',
    backend: row.auth_backend,
    privateKey,
    ...(row.auth_fallback_url === null ? {} : { fallbackURL: row.auth_fallback_url }),
    ...(row.auth_logout_url === null ? {} : { logoutURL: row.auth_logout_url }),
  };
}
