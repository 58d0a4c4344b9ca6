import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import { perContext, type Context } from '../../context.js';
import type { PageState } from '../../content/tree.js';
import { safeUrl } from '../../html/document-html.js';
import { siteAddress } from '../addresses.js';
import { declaredClaims } from '../adaptive/claims.js';
import { claimsKey, conditionHolds } from '../adaptive/evaluate.js';
import { siteCustomization } from '../customization/settings.js';
import type { SiteCustomizationSettings } from '../customization/schemas.js';
import { footerSocialLinks } from '../customization/social-accounts.js';
import { withOverride } from '../site-spaces/customization-overrides.js';
import type { SiteRow } from '../queries.js';
import { allSiteSpaces, siteSpacesIn, type Entry, type SiteSpaceRow, type Structure } from '../structure/tree.js';
import type { Visitor } from './audience.js';
import type { ReaderSite } from './site-cache.js';
import {
  renderReaderPage,
  trustedHtml,
  type HeaderLink,
  type PageParts,
  type SectionTab,
  type ThemeChoice,
} from '../../reader/layout.js';
import { pageTree, spaceSwitcher } from '../../reader/navigation.js';
import {
  isReadable,
  pagesInOrder,
  renderedPage,
  spaceContent,
  type LinkAddresses,
  type SpaceContent,
} from '../../reader/page-content.js';
import { locate, siteSpacePaths, visibleStructure, type ReaderPlace } from './place.js';
import type { ComputedView } from '../../content/computed.js';
import {
  computedView,
  generatedChildren,
  shownPage,
  shownPageAt,
  type ShownPage,
} from '../../reader/computed-pages.js';
import { READER_CSS_ETAG } from '../../reader/styles.js';
import { siteCss } from './theme-css.js';
import { feedbackForm, type ViewedPlace } from '../insights/page-parts.js';
import { namesCustomFont } from '../../fonts/site-css.js';

/** A site opened for one visitor: what they may see of it, and its look. */
export interface OpenSite {
  site: SiteRow;
  visitor: Visitor;
  structure: Structure;
  settings: SiteCustomizationSettings;
  /** The site space whose customization overrides `settings` carry, if any: its stylesheet is its own. */
  siteSpaceId?: string;
  /** Whether search engines may index it: a public site, to a visitor without claims. */
  indexable: boolean;
  /** The site's generation in the structure cache when it was read (see ReaderSite). */
  generation: number;
}

export function openSite(read: ReaderSite, visitor: Visitor): OpenSite {
  const { site, stored, generation } = read;
  // Conditions read only the claims the schema declares: one dropped from it counts as absent, as on write.
  const declared = declaredClaims(site.adaptive_schema);
  const only = (names: ReadonlyMap<string, unknown> | undefined, from: Record<string, unknown>) =>
    Object.fromEntries(
      [...(names?.keys() ?? [])].filter((name) => Object.hasOwn(from, name)).map((name) => [name, from[name]]),
    );
  visitor = {
    ...visitor,
    claims: {
      signed: only(declared?.signed, visitor.claims.signed),
      unsigned: only(declared?.unsigned, visitor.claims.unsigned),
    },
  };
  return {
    site,
    visitor,
    generation,
    structure: visibleStructure(stored, visitor.claims, { drafts: visitor.preview?.drafts ?? false }),
    settings: settingsOf(site),
    // A preview is nobody's published page.
    indexable: site.visibility === 'public' && visitor.preview === undefined,
  };
}

/** Each site row's settings, worked out once: a cached site serves many visits. */
const settingsBySite = new WeakMap<SiteRow, SiteCustomizationSettings>();
function settingsOf(site: SiteRow): SiteCustomizationSettings {
  let settings = settingsBySite.get(site);
  if (!settings) {
    settings = siteCustomization(site.customization, site);
    settingsBySite.set(site, settings);
  }
  return settings;
}

/**
 * The site opened on one of its site spaces: the site's settings with the
 * site space's overrides over them, worked out once per row and site settings.
 */
export function inSiteSpace(open: OpenSite, siteSpace: SiteSpaceRow): OpenSite {
  if (!siteSpace.customization) return open;
  let made = settingsBySiteSpace.get(siteSpace);
  if (made?.base !== open.settings) {
    made = { base: open.settings, settings: withOverride(open.settings, siteSpace.customization) };
    settingsBySiteSpace.set(siteSpace, made);
  }
  return { ...open, settings: made.settings, siteSpaceId: siteSpace.id };
}
const settingsBySiteSpace = new WeakMap<
  SiteSpaceRow,
  { base: SiteCustomizationSettings; settings: SiteCustomizationSettings }
>();

/** What the reader answers: a page, or a redirect to where the address leads. */
export type ReaderAnswer =
  // `html` as the bytes sent: a page is composed once and sent many times, and a string is measured and encoded at each send.
  | { kind: 'page'; status: 200 | 404; html: Buffer; etag: string; viewed?: ViewedPlace }
  | { kind: 'redirect'; location: string };

/** The answer, naming the place of the site it shows (for the site's insights). */
function viewedAt(answer: ReaderAnswer, viewed: ViewedPlace): ReaderAnswer {
  return answer.kind === 'page' ? { ...answer, viewed } : answer;
}

/** The address of a place in the site: `/s/{name}/...` under PUBLIC_URL. */
export function addressIn(context: Context, open: OpenSite, ...paths: string[]): string {
  return siteAddress(context.urls, open.site, ...paths.flatMap((path) => (path === '' ? [] : path.split('/'))));
}

export function pageAddress(context: Context, open: OpenSite, siteSpace: SiteSpaceRow, path: string): string {
  return addressIn(context, open, ...siteSpacePaths(open.structure, siteSpace), path);
}

/** The address of a page in another space of the site: the reader finds it there when it is followed. */
function elsewhereAddress(context: Context, open: OpenSite, spaceId: string, pageId: string): string | undefined {
  const inSite = allSiteSpaces(open.structure).some((siteSpace) => siteSpace.space.id === spaceId);
  return inSite ? addressIn(context, open, '~', 'go', spaceId, pageId) : undefined;
}

/** The page a site space opens on: its first readable page, in reading order. */
export function firstPage(content: SpaceContent): PageState | undefined {
  return pagesInOrder(content.tree).find(isReadable);
}

/**
 * The reader's answer for an address inside the site: the page it names, the
 * first page of a space for a space's address, a redirect for a group (to its
 * first page) or a link page, and a 404 page with the site's navigation for
 * anything else.
 */
export async function readPageAt(
  context: Context,
  open: OpenSite,
  segments: readonly string[],
  theme: ThemeChoice | undefined,
): Promise<ReaderAnswer> {
  const place = locate(open.structure, segments);
  if (!place) return notFoundPage(context, open, theme, undefined);
  open = inSiteSpace(open, place.siteSpace);
  const content = await spaceContent(context, place.siteSpace.space);
  const view = await computedView(context, content);
  // Everything a page shows follows from these: the site as read, the visitor's claims, the revision and the address.
  const key = [
    view?.key ?? '',
    open.site.id,
    open.generation,
    open.site.updated_at.getTime(),
    visitorKey(open),
    theme ?? '',
    content.point.id,
    context.fileUrls.expiryOf(context.clock.now()),
    segments.join('/'),
  ].join('|');
  const pages = composedPages(context);
  const hit = pages.get(key);
  if (hit) return hit;
  const answer = await composePage(context, open, place, content, view, theme);
  pages.set(key, answer);
  return answer;
}

/**
 * The claims a page can depend on, as a key: those the site's adaptive
 * schema declares (openSite drops the rest). A token's other claims (`exp`,
 * `iat`, a subject) differ from visitor to visitor and would give each a page
 * of their own.
 */
function visitorKey(open: OpenSite): string {
  // openSite kept only the declared claims, in the schema's order of names. A preview may show drafts.
  return claimsKey(open.visitor.claims, open.visitor.preview?.drafts ?? null);
}

/** Whole reader pages by what they follow from (see readPageAt): most visits are of a page already composed. */
const COMPOSED_BYTES = 32 * 1024 * 1024;

const composedPages = perContext(
  () =>
    new LRUCache<string, ReaderAnswer>({
      maxSize: COMPOSED_BYTES,
      sizeCalculation: (answer) => (answer.kind === 'page' ? answer.html.byteLength : 0) + 512,
    }),
);

async function composePage(
  context: Context,
  open: OpenSite,
  place: ReaderPlace,
  content: SpaceContent,
  view: ComputedView | undefined,
  theme: ThemeChoice | undefined,
): Promise<ReaderAnswer> {
  const { tree } = content;
  const first = place.pagePath === '' ? firstPage(content) : undefined;
  const shown = first ? shownPage(first, view, tree) : shownPageAt(tree, view, place.pagePath);
  if (!shown) return notFoundPage(context, open, theme, { place, content, view });
  if (shown.kind === 'page') {
    const { page } = shown;
    if (page.type === 'link') {
      const href = safeUrl(page.href ?? undefined);
      return href ? { kind: 'redirect', location: href } : notFoundPage(context, open, theme, { place, content, view });
    }
    if (!isReadable(page)) {
      const inside = tree.subtreeOf(page.pageId).find((candidate) => candidate !== page && isReadable(candidate));
      if (!inside) return notFoundPage(context, open, theme, { place, content, view });
      return { kind: 'redirect', location: pageAddress(context, open, place.siteSpace, tree.pathOf(inside.pageId)) };
    }
  }
  const links: LinkAddresses = {
    pageInSpace: (target) => pageAddress(context, open, place.siteSpace, tree.pathOf(target.pageId)),
    pageElsewhere: (spaceId, pageId) => elsewhereAddress(context, open, spaceId, pageId),
  };
  const placeKey = `${open.site.id}|${siteSpacePaths(open.structure, place.siteSpace).join('/')}`;
  // Adaptive blocks are shown as the visitor's claims decide (conditions read only those).
  const adaptive = {
    key: visitorKey(open),
    holds: (expression: string) => conditionHolds(expression, open.visitor.claims),
  };
  const rendered = await renderedPage(context, content, shown, links, placeKey, view, adaptive);

  // The page a reader is on in the tree: a page a computed page made counts as that page's.
  const page = shown.kind === 'page' ? shown.page : shown.origin;
  const title = shown.kind === 'page' ? page.title : shown.generated.title;
  const description =
    shown.kind === 'page' || shown.generated === view?.expansions.get(page.pageId) ? page.description : null;
  const readable = pagesInOrder(content.tree).filter(isReadable);
  const index = readable.findIndex((candidate) => candidate.pageId === page.pageId);
  const previous = index > 0 ? readable[index - 1] : undefined;
  const next = index >= 0 ? readable[index + 1] : undefined;
  const address = (target: PageState) => links.pageInSpace(target);
  const main: ElementContent[] = [
    h('article', [
      h('h1', title),
      ...(description ? [h('p.page-description', description)] : []),
      trustedHtml(rendered.html),
    ]),
    ...(open.settings.pagination.enabled && (previous || next)
      ? [
          h('nav.pagination', { ariaLabel: 'Previous and next pages' }, [
            ...(previous
              ? [h('a.previous', { href: address(previous) }, [h('span.label', 'Previous'), previous.title])]
              : []),
            ...(next ? [h('a.next', { href: address(next) }, [h('span.label', 'Next'), next.title])] : []),
          ]),
        ]
      : []),
    ...(open.settings.feedback.enabled
      ? [feedbackForm(addressIn(context, open, '~', 'feedback'), content.point.spaceId, page.pageId)]
      : []),
  ];
  const pageAddressNow = pageAddress(
    context,
    open,
    place.siteSpace,
    shown.kind === 'page' ? tree.pathOf(page.pageId) : shown.path,
  );
  const answer = answerPage(context, open, theme, 200, {
    title,
    description: description ?? undefined,
    noIndex: !open.indexable || page.noIndex || page.noRobotsIndex,
    canonical: page === first ? pageAddress(context, open, place.siteSpace, '') : pageAddressNow,
    markdownUrl: `${pageAddressNow}.md`,
    back: pageAddressNow,
    sidebar: sidebarFor(context, open, place, content, view, shown),
    main,
    toc: rendered.headings,
    sectionId: place.section?.id,
  });
  return viewedAt(answer, { ...viewedPlace(place, content), page: page.pageId });
}

function viewedPlace(place: ReaderPlace, content: SpaceContent): ViewedPlace {
  return {
    siteSection: place.section?.id ?? null,
    siteSpace: place.siteSpace.id,
    space: place.siteSpace.space.id,
    revision: content.point.id,
    page: null,
  };
}

async function notFoundPage(
  context: Context,
  open: OpenSite,
  theme: ThemeChoice | undefined,
  where: { place: ReaderPlace; content: SpaceContent; view: ComputedView | undefined } | undefined,
): Promise<ReaderAnswer> {
  const answer = answerPage(context, open, theme, 404, {
    title: 'Page not found',
    noIndex: true,
    back: addressIn(context, open),
    sidebar: where ? sidebarFor(context, open, where.place, where.content, where.view, undefined) : [],
    main: [
      h('div.message', [
        h('h1', 'Page not found'),
        h('p', [
          'There is no page at this address. ',
          h('a', { href: addressIn(context, open) }, 'Go to the home page'),
        ]),
      ]),
    ],
    toc: [],
    sectionId: where?.place.section?.id,
  });
  return where ? viewedAt(answer, viewedPlace(where.place, where.content)) : answer;
}

function sidebarFor(
  context: Context,
  open: OpenSite,
  place: ReaderPlace,
  content: SpaceContent,
  view: ComputedView | undefined,
  shown: ShownPage | undefined,
): ElementContent[] {
  // A hidden site space is reached by its address only: the switcher lists it while it is the one read.
  const siblings = siteSpacesIn(open.structure, place.section?.id ?? null).filter(
    (siteSpace) => !siteSpace.hidden || siteSpace.id === place.siteSpace.id,
  );
  const { tree } = content;
  const addressOf = (path: string) => pageAddress(context, open, place.siteSpace, path);
  const currentPageId = shown ? (shown.kind === 'page' ? shown.page.pageId : shown.origin.pageId) : undefined;
  return [
    ...spaceSwitcher(
      siblings.map((siteSpace) => ({
        title: siteSpace.space.title,
        href: pageAddress(context, open, siteSpace, ''),
        current: siteSpace.id === place.siteSpace.id,
      })),
    ),
    ...pageTree(
      tree,
      currentPageId,
      (page) => addressOf(tree.pathOf(page.pageId)),
      undefined,
      (page) =>
        generatedChildren(view, tree, page).map(({ generated, path }) => ({
          title: generated.title,
          href: addressOf(path),
          current: shown?.kind === 'generated' && shown.generated === generated,
        })),
    ),
  ];
}

/** What differs from one reader page to the next; the rest comes from the site. */
export interface PageBody {
  title: string;
  description?: string | undefined;
  noIndex: boolean;
  canonical?: string | undefined;
  markdownUrl?: string | undefined;
  back: string;
  sidebar: ElementContent[];
  main: PageParts['main'];
  toc: PageParts['toc'];
  sectionId: string | undefined;
  query?: string | undefined;
}

/** A reader page with the site's header, sections, footer and look around `body`. */
export function answerPage(
  context: Context,
  open: OpenSite,
  theme: ThemeChoice | undefined,
  status: 200 | 404,
  body: PageBody,
): ReaderAnswer {
  const { settings } = open;
  const siteTitle = settings.title ?? open.site.title;
  const ref = (to: unknown) => refAddress(context, open, to);
  const text = renderReaderPage({
    lang: settings.internationalization.locale,
    theme: themeFor(settings, theme),
    themeToggle: settings.themes.toggeable,
    title: body.title,
    siteTitle,
    description: body.description,
    noIndex: body.noIndex,
    canonical: body.canonical,
    markdownUrl: body.markdownUrl,
    stylesheets: [
      `${addressIn(context, open, '~', 'reader.css')}?v=${READER_CSS_ETAG.slice(1, 13)}`,
      `${addressIn(context, open, '~', 'site.css')}?v=${siteCss(settings).etag.slice(1, 13)}${
        open.siteSpaceId ? `&siteSpace=${open.siteSpaceId}` : ''
      }`,
      ...(namesCustomFont(settings.styling)
        ? [`${addressIn(context, open, '~', 'fonts.css')}${open.siteSpaceId ? `?siteSpace=${open.siteSpaceId}` : ''}`]
        : []),
    ],
    favicon: faviconOf(settings),
    home: addressIn(context, open),
    logo: settings.header.logo,
    sections: sectionTabs(context, open, body.sectionId),
    headerLinks: settings.header.links
      .filter((link) => conditionHolds(link.condition ?? null, open.visitor.claims))
      .flatMap((link) => withHref(link.title, ref(link.to))),
    announcement:
      settings.announcement?.enabled === true
        ? { message: settings.announcement.message, href: ref(settings.announcement.link?.to) }
        : undefined,
    searchAction: addressIn(context, open, '~', 'search'),
    query: body.query,
    themeAction: addressIn(context, open, '~', 'theme'),
    back: body.back,
    sidebar: body.sidebar,
    main: body.main,
    toc: body.toc,
    footer: {
      groups: [
        ...settings.footer.groups.map((group) => ({
          title: group.title,
          links: group.links.flatMap((link) => withHref(link.title, ref(link.to))),
        })),
        ...socialGroup(settings),
      ],
      copyright: settings.footer.copyright,
      trademark: settings.trademark.enabled,
    },
  });
  const html = Buffer.from(text);
  const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
  return { kind: 'page', status, html, etag };
}

/** The site's sections and external links, in the order of its structure, each with the title of its group. */
function sectionTabs(context: Context, open: OpenSite, currentId: string | undefined): SectionTab[] {
  const tabs: SectionTab[] = [];
  const walk = (entries: readonly Entry[], group: string | undefined) => {
    for (const entry of entries) {
      const inGroup = group === undefined ? {} : { group };
      if (entry.kind === 'group') walk(entry.children, entry.group.title);
      else if (entry.kind === 'section') {
        const { section } = entry;
        tabs.push({
          title: section.title,
          href: addressIn(context, open, section.path),
          current: section.id === currentId,
          ...inGroup,
        });
      } else {
        const href = safeUrl(entry.link.url);
        if (href) tabs.push({ title: entry.link.title, href, current: false, external: true, ...inGroup });
      }
    }
  };
  // A site without sections shows no tabs, as before links existed: its links have nothing to sit beside.
  if (open.structure.sections.length > 0) walk(open.structure.root, undefined);
  return tabs;
}

/** The site's social accounts shown in the footer, as one more group of links. */
function socialGroup(settings: SiteCustomizationSettings): Array<{ title: string; links: HeaderLink[] }> {
  const links = footerSocialLinks(settings.socialAccounts ?? []);
  return links.length > 0 ? [{ title: 'Social', links }] : [];
}

function withHref(title: string, href: string | undefined): HeaderLink[] {
  return href ? [{ title, href }] : [];
}

/** The visitor's theme: their choice where the site lets them switch, else the site's. */
export function themeFor(settings: SiteCustomizationSettings, chosen: ThemeChoice | undefined): ThemeChoice {
  return settings.themes.toggeable && chosen ? chosen : settings.themes.default;
}

/** Where a customization's link leads: a URL as it is (safe schemes only), a page of the site through the reader. */
function refAddress(context: Context, open: OpenSite, to: unknown): string | undefined {
  const ref = to as { kind?: string; url?: string; page?: string; space?: string } | null | undefined;
  if (!ref) return undefined;
  if (ref.kind === 'url') return safeUrl(ref.url);
  if (ref.kind === 'page' && ref.page) {
    const spaceId = ref.space ?? structureDefaultSpace(open)?.space.id;
    return spaceId ? elsewhereAddress(context, open, spaceId, ref.page) : undefined;
  }
  return undefined;
}

function structureDefaultSpace(open: OpenSite): SiteSpaceRow | undefined {
  const section = open.structure.defaultSection;
  return open.structure.defaultSiteSpace.get(section?.id ?? null);
}

/** The site's favicon: its icon's address, its emoji drawn as SVG, or an empty one so browsers ask for no /favicon.ico. */
function faviconOf(settings: SiteCustomizationSettings): string {
  const favicon = settings.favicon as { icon?: { light: string }; emoji?: string };
  if (favicon.icon) return favicon.icon.light;
  if (favicon.emoji) {
    // The setting is an emoji, or its code points in hex (GitBook's form); it was checked to be one on write.
    const text = /^[0-9a-f]{1,6}(?:-[0-9a-f]{1,6})*$/i.test(favicon.emoji)
      ? String.fromCodePoint(...favicon.emoji.split('-').map((hex) => Math.min(Number.parseInt(hex, 16), 0x10ffff)))
      : favicon.emoji;
    const escaped = text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${escaped}</text></svg>`;
    return `data:image/svg+xml,${encodeURIComponent(svg)}`;
  }
  return 'data:,';
}
