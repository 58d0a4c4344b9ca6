import { ConflictError, NotFoundError } from '../core/errors.js';
import { normalizeHostname } from '../core/hostname-rules.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { readChallenge } from './dns.js';
import { presentCustomHostname } from './present.js';
import {
  findAdministeredClaim,
  lockClaim,
  lockHostname,
  lockLiveHolder,
  removeClaim,
  setClaimStatus,
  takeClaimsToCheck,
  type HostnameClaim,
} from './queries.js';
import type { CustomHostname } from './schemas.js';

const hostnameNotFound = () => new NotFoundError('No custom hostname by this name is yours to manage');

/** The caller's claim of the hostname (as written in the path), or 404. */
async function administeredClaim(context: Context, userId: string, input: string): Promise<HostnameClaim> {
  const normalized = normalizeHostname(input);
  if ('problem' in normalized) throw hostnameNotFound();
  const claim = await findAdministeredClaim(context.db, normalized.hostname, userId);
  if (!claim) throw hostnameNotFound();
  return claim;
}

export async function getCustomHostname(context: Context, userId: string, hostname: string): Promise<CustomHostname> {
  return presentCustomHostname(await administeredClaim(context, userId, hostname), context.urls);
}

/**
 * Looks the caller's pending claim up in DNS now (204 whatever it found;
 * GET tells). 409 when it is already live: the periodic check keeps a live
 * one honest.
 */
export async function revalidateCustomHostname(context: Context, userId: string, hostname: string): Promise<void> {
  const claim = await administeredClaim(context, userId, hostname);
  if (claim.status === 'live') {
    throw new ConflictError(`"${claim.hostname}" is live: there is nothing to revalidate until its record goes`);
  }
  if (await proveClaim(context, claim)) await context.siteHostnames.refresh();
}

/** Drops the caller's claim (true), or says there was none of theirs (false): another's claim is never touched. */
export async function removeCustomHostname(context: Context, userId: string, hostname: string): Promise<boolean> {
  const normalized = normalizeHostname(hostname);
  if ('problem' in normalized) return false;
  const claim = await findAdministeredClaim(context.db, normalized.hostname, userId);
  if (!claim) return false;
  const now = context.clock.now();
  const removed = await context.db.transaction().execute(async (tx) => {
    if (!(await removeClaim(tx, claim, now))) return false;
    await recordAuditEvent(tx, {
      organizationId: claim.organization_id,
      action: 'custom_hostname.removed',
      actorId: userId,
      target: { type: 'custom-hostname', id: claim.hostname },
      at: now,
      details: { siteId: claim.site_id },
    });
    return true;
  });
  if (removed) {
    context.siteStructures.invalidate(claim.site_id);
    await context.siteHostnames.refresh();
  }
  return removed;
}

/**
 * Looks the claim's challenge record up and records what it proves. The
 * token there makes the claim live, unless another site holds the hostname
 * live and its token is there too: the record must name one claimant. A
 * live claim whose token is gone stops at once (the record is the proof, and
 * whoever controls the DNS now has removed it); a failed look-up changes
 * nothing live. Returns whether the set of live hostnames changed.
 */
export async function proveClaim(context: Context, claim: HostnameClaim): Promise<boolean> {
  const found = await readChallenge(claim.hostname, context.config.hostnames?.dnsServers);
  const now = context.clock.now();
  return context.db.transaction().execute(async (tx) => {
    await lockHostname(tx, claim.hostname);
    const current = await lockClaim(tx, claim.organization_id, claim.site_id, claim.hostname);
    // Changed meanwhile (a new token, or the hostname removed): this look-up proves nothing about it.
    if (!current || current.token !== claim.token) return false;
    if ('failed' in found) {
      context.log.warn(
        { hostname: claim.hostname, cause: found.failed },
        'looking up a custom hostname’s record failed',
      );
      if (current.status !== 'live') await setClaimStatus(tx, current, 'dns-error', now);
      return false;
    }
    const wasLive = current.status === 'live';
    if (!found.records.includes(current.token)) {
      await setClaimStatus(tx, current, found.records.length > 0 ? 'mismatch' : 'missing', now);
      return wasLive;
    }
    const holder = await lockLiveHolder(tx, claim.hostname, claim.site_id);
    if (holder && found.records.includes(holder.token)) {
      await setClaimStatus(tx, current, 'contested', now);
      return wasLive;
    }
    if (holder) await setClaimStatus(tx, holder, 'mismatch', now);
    await setClaimStatus(tx, current, 'live', now);
    if (!wasLive || holder) {
      context.log.info({ hostname: claim.hostname, site: claim.site_id }, 'a custom hostname was proven and is live');
    }
    return !wasLive || holder !== undefined;
  });
}

/**
 * The periodic check: looks up the `batchSize` claims checked longest ago,
 * one after another, and reloads the routing when a live one came or went.
 */
export async function checkCustomHostnames(context: Context, batchSize: number): Promise<number> {
  const due = await takeClaimsToCheck(context.db, batchSize, context.clock.now());
  let changed = false;
  for (const claim of due) {
    if (await proveClaim(context, claim)) changed = true;
  }
  if (changed) await context.siteHostnames.refresh();
  return due.length;
}
