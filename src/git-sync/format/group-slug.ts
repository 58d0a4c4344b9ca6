import { slugify } from '../../core/slug.js';
import type { RepositoryGroup } from './model.js';

/** A slug the service takes: no slashes or spaces, at most 100 characters. */
export const isValidSlug = (slug: string) => slug !== '' && slug.length <= 100 && !/[/\s]/.test(slug);

/**
 * A group's slug: GitBook writes a group's pages in a folder named by it, so
 * it is the first folder its pages share; else (or when that folder's
 * README is one of its pages, whose own slug the folder is) its title's.
 */
export function groupSlugOf(group: RepositoryGroup): string {
  const paths = group.children.flatMap((entry) => (entry.kind === 'page' ? [entry.path] : []));
  const folders = new Set(paths.map((path) => (path.includes('/') ? path.split('/')[0]! : '')));
  const [only] = folders;
  const shared = folders.size === 1 && only && !paths.includes(`${only}/README.md`) && isValidSlug(only);
  return shared ? only : slugify(group.title, 'group');
}
