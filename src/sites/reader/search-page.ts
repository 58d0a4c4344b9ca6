import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Context } from '../../context.js';
import { searchSpacesPage } from '../../search/pages.js';
import { allSiteSpaces } from '../structure/tree.js';
import type { ThemeChoice } from '../../reader/layout.js';
import { addressIn, answerPage, pageAddress, type OpenSite, type ReaderAnswer } from './site-reader.js';

/** Longest query the reader's search takes, as the API's search does. */
export const MAX_QUERY_LENGTH = 512;
const RESULT_SPACES = 20;

/**
 * The site's search as a page: what the site search of the API finds in the
 * site spaces this visitor sees (their spaces' current content), each hit a
 * link to the page or its section.
 */
export async function searchPage(
  context: Context,
  open: OpenSite,
  query: string,
  theme: ThemeChoice | undefined,
): Promise<ReaderAnswer> {
  const siteSpaces = allSiteSpaces(open.structure);
  const spaceIds = [...new Set(siteSpaces.map((siteSpace) => siteSpace.space.id))].sort();
  const trimmed = query.trim().slice(0, MAX_QUERY_LENGTH);
  const results: ElementContent[] = [];
  if (trimmed !== '' && spaceIds.length > 0) {
    const found = await searchSpacesPage(
      context,
      { kind: 'spaces', organizationId: open.site.organization_id, spaceIds },
      `reader:${open.site.id}:${spaceIds.join(',')}`,
      { query: trimmed, limit: RESULT_SPACES },
    );
    for (const space of found.items) {
      const siteSpace = siteSpaces.find((candidate) => candidate.space.id === space.id);
      if (!siteSpace) continue;
      for (const page of space.pages) {
        const address = pageAddress(context, open, siteSpace, page.path);
        const section = page.sections[0];
        results.push(
          h('li', [
            h('a', { href: address }, page.title),
            h('div.where', siteSpace.space.title),
            ...(section?.body ? [h('p', section.body)] : []),
          ]),
        );
      }
    }
  }
  const heading = trimmed === '' ? 'Search' : `Results for “${trimmed}”`;
  return answerPage(context, open, theme, 200, {
    title: heading,
    noIndex: true,
    back: `${addressIn(context, open, '~', 'search')}?q=${encodeURIComponent(trimmed)}`,
    sidebar: [],
    main: [
      h('h1', heading),
      trimmed === ''
        ? h('p', 'Type words to look for in the search box above.')
        : results.length === 0
          ? h('p', 'Nothing in this site matches.')
          : h('ol.search-results', results),
    ],
    toc: [],
    sectionId: undefined,
    query: trimmed,
  });
}
