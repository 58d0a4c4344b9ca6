import { HEADING_ID, headingAnchor } from '../../core/heading-anchors.js';
import { slugify } from '../../core/slug.js';
import type { NestedEntry } from './model.js';

/** A slug the service takes: no slashes or spaces, at most 100 characters. */
export const isValidSlug = (slug: string) => slug !== '' && slug.length <= 100 && !/[/\s]/.test(slug);

/**
 * The slug of a group whose heading names none: GitBook writes a group's
 * pages in a folder named by it, so it is the first folder its pages share;
 * else (or when that folder's README is one of its pages, whose own slug the
 * folder is) its title's.
 */
export function groupSlugOf({ title, children }: { title: string; children: readonly NestedEntry[] }): string {
  const paths = children.flatMap((entry) => (entry.kind === 'page' ? [entry.path] : []));
  const folders = new Set(paths.map((path) => (path.includes('/') ? path.split('/')[0]! : '')));
  const [only] = folders;
  const shared = folders.size === 1 && only && !paths.includes(`${only}/README.md`) && isValidSlug(only);
  return shared ? only : slugify(title, 'group');
}

/**
 * Whether SUMMARY.md names a group's slug in an anchor on its heading
 * (`## Get started <a href="#getting-started" id="getting-started"></a>`):
 * GitBook writes one where the slug is not the id its heading's title gives,
 * as it does for any heading with an id of its own. A slug the service makes
 * from the title needs none either; one that is no heading id cannot be one.
 */
export function groupNeedsAnchor(title: string, slug: string): boolean {
  return slug !== headingAnchor(title) && slug !== slugify(title, 'group') && HEADING_ID.test(slug);
}
