import type { PageState } from '../../src/content/tree.js';

/** The time every page the factory makes was created and changed at. */
export const PAGE_TIME = new Date('2026-01-01T00:00:00Z');

/** A page as a revision holds it, for pure tests of trees: a top-level document titled by its slug, unless told otherwise. */
export function pageState(fields: Partial<PageState> & Pick<PageState, 'pageId' | 'slug'>): PageState {
  return {
    versionId: `v-${fields.pageId}`,
    parentId: null,
    position: 'a0',
    type: 'document',
    title: fields.slug,
    emoji: null,
    icon: null,
    description: null,
    documentId: null,
    layout: null,
    cover: null,
    variables: {},
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    target: null,
    href: null,
    computed: null,
    pageCreatedAt: PAGE_TIME.toISOString(),
    updatedAt: PAGE_TIME.toISOString(),
    ...fields,
  };
}
