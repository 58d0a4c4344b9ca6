import type { Context } from '../../context.js';
import type { OpenSite } from '../reader/site-reader.js';
import { redirectTarget } from './present.js';
import { matchRedirect } from './queries.js';
import { MAX_SOURCE_LENGTH } from './schemas.js';

/**
 * The sources that may answer `path`: itself, and each of its prefixes with
 * `*` (`/docs/*` and `/docs*` both answer `/docs/intro`), no longer than a
 * source may be.
 */
export function candidateSources(path: string): string[] {
  const candidates = path.length <= MAX_SOURCE_LENGTH ? [path] : [];
  for (let end = 2; end <= Math.min(path.length, MAX_SOURCE_LENGTH - 1); end += 1)
    candidates.push(`${path.slice(0, end)}*`);
  return candidates;
}

/**
 * Where a live redirect of the site sends a visitor who asked for `path` (the
 * address's path inside the site, as sent, percent-encoding kept), with its
 * status: 308 when permanent, else 307, as GitBook serves them. Undefined
 * when none answers it. Asked only when no page does: a redirect never
 * shadows a page.
 */
export async function redirectAt(
  context: Context,
  open: OpenSite,
  path: string,
): Promise<{ location: string; status: 307 | 308 } | undefined> {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end -= 1;
  const normalized = path.slice(0, end);
  if (normalized.length < 2) return undefined;
  const row = await matchRedirect(context.db, open.site.organization_id, open.site.id, candidateSources(normalized));
  if (!row) return undefined;
  return {
    location: redirectTarget(context.urls, open.site, open.structure, row, normalized),
    status: row.permanent ? 308 : 307,
  };
}
