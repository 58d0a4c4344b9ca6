import type { Urls } from '../core/urls.js';
import type { HostnameStatus } from '../db/types.js';
import type { HostnameClaim } from './queries.js';
import { challengeName } from '../core/hostname-rules.js';
import type { CustomHostname } from './schemas.js';

/**
 * GitBook's status names are of CNAME and certificate checks; ours are of
 * the TXT record, named alike: no record holding the token is
 * `dns_no_cname`, a record without it or naming the live holder too is
 * `dns_wrong_cname`, a failed look-up `internal_error`.
 */
const STATUS: Record<HostnameStatus, CustomHostname['status']> = {
  pending: 'dns_no_cname',
  missing: 'dns_no_cname',
  mismatch: 'dns_wrong_cname',
  contested: 'dns_wrong_cname',
  'dns-error': 'internal_error',
  live: 'live',
};

export function presentCustomHostname(claim: HostnameClaim, urls: Urls): CustomHostname {
  return {
    object: 'custom-hostname',
    hostname: claim.hostname,
    target: { type: 'site', site: claim.site_id },
    isActive: claim.status === 'live',
    status: STATUS[claim.status],
    verification: {
      type: 'TXT',
      name: challengeName(claim.hostname),
      value: claim.token,
      state: claim.status,
      ...(claim.checked_at ? { checkedAt: claim.checked_at.toISOString() } : {}),
      ...(claim.verified_at ? { verifiedAt: claim.verified_at.toISOString() } : {}),
    },
    urls: { location: urls.api('custom-hostnames', claim.hostname) },
  };
}
