import type { Context } from '../context.js';
import {
  keptGitRedirects,
  listGitRedirects,
  pagesOfFiles,
  replaceGitRedirects,
} from '../content/path-history/git-redirects.js';
import type { Redirect, RepositoryContent, SpaceRepository } from './format/index.js';

interface SpacePlace {
  organizationId: string;
  spaceId: string;
}

/**
 * Keeps the `redirects` of the repository's `.gitbook.yaml` as the space's,
 * in place of those an earlier import kept: the published reader answers
 * them, and an export writes them back.
 */
export async function keepRepositoryRedirects(
  context: Context,
  place: SpacePlace,
  content: RepositoryContent,
): Promise<void> {
  await replaceGitRedirects(context.db, place, keptGitRedirects(content.redirects));
}

/**
 * The space's content as an export writes it, with the redirects the space
 * keeps: each leads to its page's file as the space now lays it out (a page
 * moved since leads to its new file); one whose page is gone, or has no
 * file, is left out.
 */
export async function withSpaceRedirects(
  context: Context,
  place: SpacePlace,
  repository: SpaceRepository,
): Promise<RepositoryContent> {
  const stored = await listGitRedirects(context.db, place);
  if (stored.length === 0) return repository.content;
  const fileOf = new Map<string, string>();
  for (const [entry, pageId] of repository.ids) if (entry.kind === 'page') fileOf.set(pageId, entry.path);
  const pages = await pagesOfFiles(
    context.db,
    place,
    repository.tree,
    stored.map((redirect) => redirect.target),
  );
  const redirects = stored.flatMap(({ source, target }): Redirect[] => {
    const file = fileOf.get(pages.get(target)?.pageId ?? '');
    return file ? [{ from: source, to: file }] : [];
  });
  return { ...repository.content, redirects };
}
