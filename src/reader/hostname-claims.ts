import type { Updateable } from 'kysely';
import { BadRequestError } from '../core/errors.js';
import { normalizeHostname, ReservedHostnames } from '../core/hostname-rules.js';
import { randomString } from '../core/ids.js';
import type { SitesTable } from '../db/types.js';
import type { Context } from '../context.js';

function reservedHostnames(context: Context): ReservedHostnames {
  return new ReservedHostnames(context.config.publicUrl, context.config.hostnames?.reserved ?? []);
}

/**
 * What setting a site's `hostname` writes: nothing when it is the one the
 * site already claims, else a pending claim with a new token (the site's
 * previous hostname, live or not, stops at once); `null` drops the claim.
 * 400 naming the rule for a name that is not a DNS name, an IP address, or
 * a reserved host.
 */
export function hostnameClaimChanges(
  context: Context,
  current: string | null,
  input: string | null,
): Updateable<SitesTable> {
  if (input === null) {
    return {
      hostname: null,
      hostname_token: null,
      hostname_status: null,
      hostname_checked_at: null,
      hostname_verified_at: null,
    };
  }
  const normalized = normalizeHostname(input);
  if ('problem' in normalized) throw new BadRequestError(`body/hostname ${normalized.problem}`);
  const { hostname } = normalized;
  const reserved = reservedHostnames(context).reason(hostname);
  if (reserved !== undefined) throw new BadRequestError(`body/hostname "${hostname}" ${reserved}`);
  if (hostname === current) return {};
  return {
    hostname,
    hostname_token: `quire-site-verification=${randomString(32)}`,
    hostname_status: 'pending',
    hostname_checked_at: null,
    hostname_verified_at: null,
  };
}
