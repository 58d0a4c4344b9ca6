import type { Element, ElementContent } from 'hast';
import { h } from 'hastscript';
import type { ContentTree, PageState } from '../content/tree.js';
import { safeUrl } from '../html/document-html.js';

/** Past this many pages a space's navigation opens only the way to the current page, so a page stays small. */
const FULLY_OPEN_PAGES = 200;

/**
 * The sidebar's page tree: every page but hidden ones, groups as headings,
 * links to where they lead. A large space shows its top level and opens the
 * branches on the way to the current page, with that page's children.
 */
export function pageTree(
  tree: ContentTree,
  currentPageId: string | undefined,
  addressOf: (page: PageState) => string,
  /** A change request's mark on a page it adds or changes, shown beside the page's title. */
  markOf: (page: PageState) => PageMark | undefined = () => undefined,
  /** The pages a computed page makes below itself, listed as its children. */
  madeBy: (page: PageState) => Array<{ title: string; href: string; current: boolean }> = () => [],
  /**
   * Where a page may be dragged to be moved (the app, in a change request a
   * writer edits): each page is a place to drop on, and a page with a move
   * address may be dragged. Without it, the tree is for reading only.
   */
  moveOf?: (page: PageState) => string | undefined,
): ElementContent[] {
  const open = new Set<string>();
  for (let page = currentPageId ? tree.pages.get(currentPageId) : undefined; page;) {
    open.add(page.pageId);
    page = page.parentId ? tree.pages.get(page.parentId) : undefined;
  }
  const openAll = tree.pages.size <= FULLY_OPEN_PAGES;
  const list = (parentId: string | null): Element | undefined => {
    const items = tree
      .childrenOf(parentId)
      .filter((page) => !page.hidden)
      .map((page) => {
        const children = openAll || open.has(page.pageId) ? list(page.pageId) : undefined;
        const made = madeBy(page);
        const madeList =
          made.length > 0 && (openAll || open.has(page.pageId))
            ? [
                h(
                  'ul',
                  made.map((item) =>
                    h('li', h('a', { href: item.href, ...(item.current ? { ariaCurrent: 'page' } : {}) }, item.title)),
                  ),
                ),
              ]
            : [];
        const move = moveOf?.(page);
        const drag = moveOf ? { dataPage: page.pageId, ...(move ? { dataMove: move, draggable: 'true' } : {}) } : {};
        return h('li', drag, [entry(page), ...(children ? [children] : []), ...madeList]);
      });
    return items.length > 0 ? h('ul', items) : undefined;
  };
  const entry = (page: PageState): Element => {
    if (page.type === 'group') return h('div.group', page.title);
    if (page.type === 'link') {
      const href = safeUrl(page.href ?? undefined);
      return href ? h('a', { href }, page.title) : h('span', page.title);
    }
    const current = page.pageId === currentPageId;
    const mark = markOf(page);
    return h('a', { href: addressOf(page), ...(current ? { ariaCurrent: 'page' } : {}) }, [
      page.title,
      ...(mark ? [changeMark(mark)] : []),
    ]);
  };
  const root = list(null);
  return root ? [root] : [];
}

export type PageMark = 'added' | 'changed';

/** A badge saying what a change request does to a page. */
export function changeMark(mark: PageMark): Element {
  return h(`span.change-mark.change-${mark}`, mark === 'added' ? 'new' : 'changed');
}

/** The other site spaces of the section (variants, versions, languages): a list the visitor can open without script. */
export function spaceSwitcher(choices: Array<{ title: string; href: string; current: boolean }>): ElementContent[] {
  if (choices.length < 2) return [];
  const current = choices.find((choice) => choice.current);
  return [
    h('details.space-switcher', [
      h('summary', current?.title ?? 'Choose a space'),
      h(
        'ul',
        choices.map((choice) =>
          h('li', h('a', { href: choice.href, ...(choice.current ? { ariaCurrent: 'true' } : {}) }, choice.title)),
        ),
      ),
    ]),
  ];
}
