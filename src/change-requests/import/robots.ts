import { OutboundError, type OutboundFetcher } from '../../core/outbound.js';
import type { RobotsRules } from './reader.js';

/** RFC 9309 asks crawlers to read at least this much of a robots.txt. */
const MAX_ROBOTS_BYTES = 500 * 1024;

/** A site's robots.txt: its rules (null: there is none, so everything is allowed), or why it could not be read. */
export type SiteRobots = { rules: RobotsRules | null } | { unreadable: string };

/**
 * Fetches the robots.txt of `origin`. As RFC 9309 says: a 4xx means there
 * are no rules; a server error or an unreachable file means the crawler may
 * fetch nothing.
 */
export async function loadRobots(outbound: OutboundFetcher, origin: string): Promise<SiteRobots> {
  const url = `${origin}/robots.txt`;
  try {
    const response = await outbound.fetch(url, { maxBytes: MAX_ROBOTS_BYTES, accept: 'text/plain' });
    if (response.status >= 200 && response.status <= 299)
      return { rules: { url, text: new TextDecoder().decode(response.body) } };
    if (response.status >= 400 && response.status <= 499) return { rules: null };
    return { unreadable: `${url} answered with status ${response.status}, so the site may not be crawled` };
  } catch (error) {
    if (error instanceof OutboundError)
      return { unreadable: `${url} could not be read, so the site may not be crawled: ${error.message}` };
    throw error;
  }
}
