import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import type { RenderedHeading } from '../html/document-html.js';

export type ThemeChoice = 'light' | 'dark' | 'auto';

export interface HeaderLink {
  title: string;
  href: string;
}

export interface SectionTab {
  title: string;
  href: string;
  current: boolean;
  /** The title of the section group it sits in, shown before the group's first section. */
  group?: string;
  /** An address outside the site (a site's external link): opened without giving it this page or a referrer. */
  external?: boolean;
}

/** Everything a reader page is made of; the content is HTML the renderer made and sanitized. */
export interface PageParts {
  lang: string;
  theme: ThemeChoice;
  /** Whether the visitor may switch themes (the site's `themes.toggeable`). */
  themeToggle: boolean;
  title: string;
  siteTitle: string;
  description?: string | undefined;
  noIndex: boolean;
  canonical?: string | undefined;
  markdownUrl?: string | undefined;
  stylesheets: string[];
  /** Scripts of the service's own origin, deferred; pages work without them. */
  scripts?: string[];
  /** The nonce the page's Content-Security-Policy gives its scripts for the styles they add (a script reads it as `document.currentScript.nonce`). */
  scriptNonce?: string;
  /** The site's icon: an address, or a data: URL (an emoji drawn in SVG, or nothing so browsers ask for none). */
  favicon: string;
  home: string;
  logo?: { light: string; dark: string } | undefined;
  sections: SectionTab[];
  headerLinks: HeaderLink[];
  announcement?: { message: string; href?: string | undefined } | undefined;
  /** Where the search box sends its query; no box without it. */
  searchAction?: string | undefined;
  query?: string | undefined;
  /** The signed-in person of the app reader, with where signing out posts. */
  account?: { name: string; signOutAction: string } | undefined;
  themeAction: string;
  /** Where the theme switch sends the visitor back to: this page's address. */
  back: string;
  sidebar: ElementContent[];
  main: ElementContent[];
  toc: RenderedHeading[];
  footer: { groups: Array<{ title: string; links: HeaderLink[] }>; copyright?: string | undefined; trademark: boolean };
}

/** A whole reader page. Pages work without script: search and the theme switch are forms, tabs are radio buttons. */
export function renderReaderPage(parts: PageParts): string {
  const tree: Root = {
    type: 'root',
    children: [
      { type: 'doctype' },
      h('html', { lang: parts.lang, dataTheme: parts.theme }, [head(parts), body(parts)]),
    ],
  };
  return toHtml(tree, { allowDangerousHtml: true });
}

/** HTML the renderer already made and sanitized, put in as it is. */
export function trustedHtml(html: string): ElementContent {
  return { type: 'raw', value: html } as unknown as ElementContent;
}

function head(parts: PageParts): Element {
  return h('head', [
    h('meta', { charset: 'utf-8' }),
    h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    h('title', parts.title === parts.siteTitle ? parts.title : `${parts.title} | ${parts.siteTitle}`),
    ...(parts.description ? [h('meta', { name: 'description', content: parts.description })] : []),
    ...(parts.noIndex ? [h('meta', { name: 'robots', content: 'noindex' })] : []),
    ...(parts.canonical ? [h('link', { rel: 'canonical', href: parts.canonical })] : []),
    ...(parts.markdownUrl ? [h('link', { rel: 'alternate', type: 'text/markdown', href: parts.markdownUrl })] : []),
    h('link', { rel: 'icon', href: parts.favicon }),
    ...parts.stylesheets.map((href) => h('link', { rel: 'stylesheet', href })),
    ...(parts.scripts ?? []).map((src) =>
      h('script', { src, defer: true, ...(parts.scriptNonce ? { nonce: parts.scriptNonce } : {}) }),
    ),
  ]);
}

function body(parts: PageParts): Element {
  return h('body', [
    h('a.skip-link', { href: '#quire-content' }, 'Skip to content'),
    header(parts),
    h('div.layout', [
      ...(parts.sidebar.length > 0 ? [h('nav.sidebar', { ariaLabel: 'Pages' }, parts.sidebar)] : [h('div')]),
      h('main.content', { id: 'quire-content' }, parts.main),
      tableOfContents(parts.toc),
    ]),
    footer(parts),
  ]);
}

function header(parts: PageParts): Element {
  const logo = parts.logo
    ? [h('img.logo-light', { src: parts.logo.light, alt: '' }), h('img.logo-dark', { src: parts.logo.dark, alt: '' })]
    : [];
  return h('header.site-header', [
    ...(parts.announcement
      ? [
          h(
            'div.announcement',
            { role: 'note' },
            parts.announcement.href
              ? h('a', { href: parts.announcement.href }, parts.announcement.message)
              : parts.announcement.message,
          ),
        ]
      : []),
    h('div.header-bar', [
      h('a.site-title', { href: parts.home }, [...logo, h('span', parts.siteTitle)]),
      ...(parts.headerLinks.length > 0
        ? [
            h(
              'nav',
              { ariaLabel: 'Site links' },
              h(
                'ul.header-links',
                parts.headerLinks.map((link) => h('li', h('a', { href: link.href }, link.title))),
              ),
            ),
          ]
        : []),
      ...(parts.searchAction ? [searchForm(parts, parts.searchAction)] : []),
      ...(parts.themeToggle ? [themeForm(parts)] : []),
      ...(parts.account ? [accountForm(parts.account)] : []),
    ]),
    ...(parts.sections.length > 0 ? [sectionTabs(parts.sections)] : []),
  ]);
}

function searchForm(parts: PageParts, action: string): Element {
  return h('form.search-form', { role: 'search', action, method: 'get' }, [
    h('label.visually-hidden', { htmlFor: 'quire-search' }, `Search ${parts.siteTitle}`),
    h('input', {
      id: 'quire-search',
      type: 'search',
      name: 'q',
      placeholder: 'Search…',
      value: parts.query ?? '',
      maxLength: 512,
    }),
    h('button', { type: 'submit' }, 'Search'),
  ]);
}

function accountForm(account: { name: string; signOutAction: string }): Element {
  return h('form.account-form', { action: account.signOutAction, method: 'post' }, [
    h('span.account-name', account.name),
    h('button', { type: 'submit' }, 'Sign out'),
  ]);
}

function themeForm(parts: PageParts): Element {
  const choices: Array<[ThemeChoice, string]> = [
    ['light', 'Light'],
    ['dark', 'Dark'],
    ['auto', 'System'],
  ];
  return h('form.theme-form', { action: parts.themeAction, method: 'get', ariaLabel: 'Theme' }, [
    h('input', { type: 'hidden', name: 'back', value: parts.back }),
    ...choices.map(([value, label]) =>
      h('button', { type: 'submit', name: 'set', value, ariaPressed: String(parts.theme === value) }, label),
    ),
  ]);
}

function sectionTabs(sections: SectionTab[]): Element {
  const items: ElementContent[] = [];
  let group: string | undefined;
  for (const section of sections) {
    if (section.group !== undefined && section.group !== group) items.push(h('span.group-title', section.group));
    group = section.group;
    const attributes = section.external
      ? { rel: 'external nofollow noopener noreferrer', target: '_blank' }
      : section.current
        ? { ariaCurrent: 'page' }
        : {};
    items.push(h('a', { href: section.href, ...attributes }, section.title));
  }
  return h('nav.sections', { ariaLabel: 'Sections' }, items);
}

function tableOfContents(headings: RenderedHeading[]): Element {
  if (headings.length === 0) return h('div');
  // A page whose headings start at level 2 lists them flush, not indented under a level that is not there.
  const top = Math.min(...headings.map((heading) => heading.depth));
  return h('aside.toc', { ariaLabelledBy: 'quire-toc-title' }, [
    h('h2', { id: 'quire-toc-title' }, 'On this page'),
    h(
      'ul',
      headings.map((heading) =>
        h(`li.depth-${heading.depth - top + 1}`, h('a', { href: `#${heading.id}` }, heading.title)),
      ),
    ),
  ]);
}

function footer(parts: PageParts): Element {
  const { groups, copyright, trademark } = parts.footer;
  return h('footer.site-footer', [
    h('div.footer-inner', [
      ...groups.map((group) =>
        h('div', [
          h('h2', group.title),
          h(
            'ul',
            group.links.map((link) => h('li', h('a', { href: link.href }, link.title))),
          ),
        ]),
      ),
      ...(copyright ? [h('p', copyright)] : []),
      ...(trademark ? [h('p', 'Published with Quire')] : []),
    ]),
  ]);
}
