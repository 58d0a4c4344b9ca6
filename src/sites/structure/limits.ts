import { ConflictError } from '../../core/errors.js';

/**
 * A site's structure is read whole for every published view and every
 * change to it, so it is bounded: these are the most a site may hold.
 */
export const SITE_LIMITS = {
  sections: 100,
  groups: 50,
  siteSpacesPerList: 100,
  siteSpaces: 500,
} as const;

export function requireRoom(count: number, limit: number, what: string): void {
  if (count >= limit) throw new ConflictError(`A site holds at most ${limit} ${what}; remove one first`);
}
