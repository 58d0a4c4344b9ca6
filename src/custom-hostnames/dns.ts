import { Resolver } from 'node:dns/promises';
import { challengeName } from '../core/hostname-rules.js';

/** What the challenge name holds: its TXT strings, or that the lookup failed (which proves and disproves nothing). */
export type ChallengeRecords = { records: string[] } | { failed: string };

/** No answer within this is a failed lookup; the resolver tries twice. */
const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Reads the TXT records at `_quire-challenge.<hostname>` through the system's
 * resolvers, or the servers named (`ip` or `ip:port`). A name that does not
 * exist or holds no TXT record holds no records; any other failure is one.
 */
export async function readChallenge(
  hostname: string,
  servers: readonly string[] | undefined,
): Promise<ChallengeRecords> {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 2 });
  if (servers && servers.length > 0) resolver.setServers([...servers]);
  try {
    // A TXT record is a list of strings of 255 bytes at most, read as one value.
    const answers = await resolver.resolveTxt(challengeName(hostname));
    return { records: answers.map((chunks) => chunks.join('')) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { records: [] };
    return { failed: code ?? 'lookup failed' };
  }
}
