import type { Seeded } from './seed.js';
import { COMMENTS_IN_SPACE } from './seed-comments.js';
import { MEMBER_SEARCH, MEMBER_SEARCH_MATCHES } from './seed-members.js';
import {
  BIG_SITE_GROUPS,
  BIG_SITE_SPACES,
  SECTIONS_PER_GROUP,
  SITES_IN_ORGANIZATION,
  SPACES_PER_SECTION,
} from './seed-sites.js';
import { SPACES_IN_BIG_ORGANIZATION } from './seed-spaces.js';
import { SEARCH_PAGES, SEARCH_QUERY, SEARCH_SPACES } from './seed-search.js';
import { INTEGRATIONS_FILTERED_SCENARIO, INTEGRATIONS_SCENARIO } from './seed-integrations.js';
import { GRANTS_SCENARIOS } from './seed-grants.js';

/**
 * One endpoint under load. To benchmark another endpoint, add an entry to
 * SCENARIOS (and, if it needs data, to seed.ts).
 */
export interface Scenario {
  name: string;
  /** Path and query string, from the seeded ids. */
  path: (seed: Seeded) => string;
  headers: (seed: Seeded) => Record<string, string>;
  /**
   * The least share of its floor's requests/s this endpoint should reach: a
   * route that answers the very same bytes after one primary-key query.
   * Null for the baseline itself.
   */
  aim: number | null;
  /** The most the 99th percentile latency should take, in ms. */
  p99AimMs?: number;
  /** Bodies of megabytes: loaded by bench/http-load.ts rather than autocannon, whose parsing would be what is measured. */
  largeBody?: boolean;
  /**
   * Sent with If-None-Match naming the ETag of its first answer, so what is
   * measured is the 304 of a client revalidating what it holds, against the
   * floor of the full answer.
   */
  revalidate?: boolean;
  /** Checked on one response before the load starts: a message when the body is not what the scenario is meant to measure. */
  check?: (body: unknown, seed: Seeded) => string | undefined;
}

/** Issue 39's aim for every read: 0.8 of its floor; a 304 revalidation, 1.5 times the floor of the full answer. */
const READ_AIM = 0.8;

const authorized = (seed: Seeded) => ({ authorization: seed.authorization });

export const BASELINE: Scenario = {
  name: 'baseline',
  // Served by the floor process (floor-server.ts): one primary-key query and its row, nothing else.
  path: (seed) => `/baseline/${seed.memberOrganizationIds[0]!}`,
  headers: () => ({}),
  aim: null,
};

export const SCENARIOS: Scenario[] = [
  BASELINE,
  {
    name: 'GET /v1/orgs/{id}',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}`,
    headers: authorized,
    aim: READ_AIM,
  },
  {
    name: 'GET /v1/orgs (3 orgs)',
    path: () => '/v1/orgs',
    headers: (seed) => ({ authorization: seed.typicalAuthorization }),
    aim: READ_AIM,
    check: (body) =>
      (body as { items?: unknown[] }).items?.length === 3 ? undefined : 'expected the typical user’s 3 organizations',
  },
  {
    name: 'GET /v1/orgs (50 orgs)',
    path: () => '/v1/orgs',
    headers: authorized,
    aim: READ_AIM,
    // A full default page of 50 organizations: the heaviest answer this list gives.
    check: (body, seed) => {
      const items = (body as { items?: unknown[] }).items;
      const expected = Math.min(seed.memberOrganizationIds.length, 50);
      return items?.length === expected
        ? undefined
        : `expected ${expected} items, got ${items?.length ?? 'no items array'}`;
    },
  },
  {
    name: 'GET /v1/spaces/{id}',
    path: (seed) => `/v1/spaces/${seed.spaces.spaceId}`,
    headers: authorized,
    aim: READ_AIM,
  },
  {
    name: 'GET /v1/spaces/{id} (304, If-None-Match)',
    path: (seed) => `/v1/spaces/${seed.spaces.spaceId}`,
    headers: authorized,
    revalidate: true,
    aim: 1.5,
  },
  {
    name: 'GET /v1/user',
    path: () => '/v1/user',
    headers: authorized,
    aim: READ_AIM,
  },
  {
    name: 'GET /v1/collections/{id}',
    path: (seed) => `/v1/collections/${seed.spaces.collectionId}`,
    headers: authorized,
    aim: READ_AIM,
  },
  {
    name: 'GET /v1/spaces/{id}/change-requests/{id}',
    path: (seed) =>
      `/v1/spaces/${seed.content.small.spaceId}/change-requests/${seed.content.small.mergedChangeRequestId}`,
    headers: authorized,
    aim: READ_AIM,
  },
  {
    name: 'GET /v1/spaces/{id}/comments/{id}',
    path: (seed) => `/v1/spaces/${seed.comments.spaceId}/comments/${seed.comments.newestId}`,
    headers: authorized,
    aim: READ_AIM,
  },
  {
    name: 'GET /v1/orgs/{id}/sites/{id}',
    path: (seed) => `/v1/orgs/${seed.sites.big.organizationId}/sites/${seed.sites.big.siteId}`,
    headers: authorized,
    aim: READ_AIM,
  },
  // Short lists: what is left of a list's cost once its rows are few is its access check, count and envelope.
  {
    name: 'GET /v1/orgs/{id}/members (1 member)',
    path: (seed) => `/v1/orgs/${seed.content.organizationId}/members`,
    headers: authorized,
    aim: READ_AIM,
    check: (body) => listOf(body, 1),
  },
  {
    name: 'GET /v1/spaces/{id}/change-requests?status=merged (1 item)',
    path: (seed) => `/v1/spaces/${seed.content.small.spaceId}/change-requests?status=merged`,
    headers: authorized,
    aim: READ_AIM,
    check: (body) => listOf(body, 1),
  },
  {
    name: 'GET /v1/orgs/{id}/teams (5 teams)',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/teams`,
    headers: authorized,
    aim: READ_AIM,
    check: (body) => listOf(body, 5),
  },
  {
    name: 'GET /v1/orgs/{id}/collections',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/collections`,
    headers: authorized,
    aim: READ_AIM,
    check: (body) => listOf(body, 1),
  },
  {
    name: 'GET /v1/orgs/{id}/members (first page of 50,000)',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/members`,
    headers: authorized,
    aim: READ_AIM,
    check: (body) => {
      const page = body as { items?: unknown[] };
      return page.items?.length === 50 ? undefined : `expected 50 members, got ${page.items?.length ?? 'no items'}`;
    },
  },
  {
    name: 'GET /v1/orgs/{id}/spaces (first page)',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/spaces`,
    headers: authorized,
    aim: READ_AIM,
    check: (body) => fullSpacesPage(body),
  },
  {
    name: 'GET /v1/orgs/{id}/spaces (19,000 in)',
    path: (seed) =>
      `/v1/orgs/${seed.memberOrganizationIds[0]!}/spaces?page=${encodeURIComponent(seed.spaces.deepPage)}`,
    headers: authorized,
    aim: READ_AIM,
    check: (body) => fullSpacesPage(body),
  },
  {
    name: 'GET /v1/collections/{id}/spaces',
    path: (seed) => `/v1/collections/${seed.spaces.collectionId}/spaces`,
    headers: authorized,
    aim: READ_AIM,
    check: (body) => fullSpacesPage(body, 200),
  },
  {
    name: 'GET /v1/orgs/{id}/members?search (50,000 members)',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/members?search=${MEMBER_SEARCH}`,
    headers: authorized,
    aim: null,
    p99AimMs: 50,
    check: (body) => {
      const count = (body as { count?: number }).count;
      return count === MEMBER_SEARCH_MATCHES
        ? undefined
        : `expected ${MEMBER_SEARCH_MATCHES} matching members, got ${count}`;
    },
  },
  // Comments: 50 of a space's 100,000, each with its author and reactions.
  // The deep page must be as fast as the first, so both have the same aims.
  {
    name: 'GET /v1/spaces/{id}/comments (first page)',
    path: (seed) => `/v1/spaces/${seed.comments.spaceId}/comments`,
    headers: authorized,
    aim: READ_AIM,
    p99AimMs: 30,
    check: (body, seed) => commentsPage(body, { count: COMMENTS_IN_SPACE, firstId: seed.comments.newestId }),
  },
  {
    name: 'GET /v1/spaces/{id}/comments (90,000 in)',
    path: (seed) => `/v1/spaces/${seed.comments.spaceId}/comments?page=${encodeURIComponent(seed.comments.deepPage)}`,
    headers: authorized,
    aim: READ_AIM,
    p99AimMs: 30,
    check: (body, seed) => commentsPage(body, { count: COMMENTS_IN_SPACE, firstId: seed.comments.deepPageFirstId }),
  },
  {
    name: 'GET /v1/spaces/{id}/comments?status=open',
    path: (seed) => `/v1/spaces/${seed.comments.spaceId}/comments?status=open`,
    headers: authorized,
    aim: READ_AIM,
    p99AimMs: 30,
    check: (body, seed) =>
      commentsPage(body, {
        count: seed.comments.open,
        every: (comment) => comment.status === 'open' || `comment ${comment.id} is ${comment.status}`,
      }),
  },
  {
    name: 'GET /v1/spaces/{id}/comments?authors (2 authors)',
    path: (seed) =>
      `/v1/spaces/${seed.comments.spaceId}/comments?${seed.comments.authorIds.map((id) => `authors=${id}`).join('&')}`,
    headers: authorized,
    aim: READ_AIM,
    p99AimMs: 30,
    check: (body, seed) =>
      commentsPage(body, {
        count: seed.comments.byAuthors,
        every: (comment) =>
          seed.comments.authorIds.includes(comment.postedBy?.id ?? '') ||
          `comment ${comment.id} is by ${comment.postedBy?.id}`,
      }),
  },
  {
    name: 'GET /v1/spaces/{id}/content/pages (5,000 pages)',
    path: (seed) => `/v1/spaces/${seed.content.big.spaceId}/content/pages`,
    // As every HTTP client sends it (fetch, the official client, browsers).
    headers: (seed) => ({ ...authorized(seed), 'accept-encoding': 'gzip, deflate, br' }),
    // Every page with its markdown: an 11 MB body, about 1.5 MB gzip. The
    // body is made once per revision, so this measures the reads of the
    // space and its revision and moving the prepared bytes.
    largeBody: true,
    aim: READ_AIM,
    p99AimMs: 100,
    check: (body, seed) => {
      const pages = (body as { pages?: PresentedPage[] }).pages;
      if (!Array.isArray(pages)) return 'expected a pages array';
      const all = flatten(pages);
      if (all.length !== seed.content.big.pages)
        return `expected ${seed.content.big.pages} pages in the tree, got ${all.length}`;
      const bare = all.filter((page) => typeof page.markdown !== 'string' || page.markdown.length === 0).length;
      return bare === 0 ? undefined : `${bare} pages came without their markdown`;
    },
  },
  {
    name: 'GET /v1/spaces/{id}/content/page/{id}?format=markdown',
    path: (seed) =>
      `/v1/spaces/${seed.content.big.spaceId}/content/page/${seed.content.big.leafPageId}?format=markdown`,
    headers: authorized,
    // One query (the space with the caller's access; revisions are cached) and one page's JSON, its markdown cached.
    aim: READ_AIM,
    p99AimMs: 10,
    check: (body, seed) => {
      const page = body as PresentedPage;
      if (page.id !== seed.content.big.leafPageId)
        return `expected page ${seed.content.big.leafPageId}, got ${page.id}`;
      if (typeof page.markdown !== 'string' || page.markdown.length < 1000)
        return 'expected the page’s markdown, over 1,000 characters';
      return page.pages?.length === 0 ? undefined : 'expected a page without subpages';
    },
  },
  {
    name: 'GET /v1/spaces/{id}/content/page/{id}?format=document',
    path: (seed) =>
      `/v1/spaces/${seed.content.big.spaceId}/content/page/${seed.content.big.leafPageId}?format=document`,
    headers: authorized,
    // The document is converted once per stored document and cached; each request serialises it.
    aim: READ_AIM,
    p99AimMs: 10,
    check: (body, seed) => {
      const page = body as PresentedPage & { document?: { object?: string; nodes?: unknown[] } };
      if (page.id !== seed.content.big.leafPageId)
        return `expected page ${seed.content.big.leafPageId}, got ${page.id}`;
      if ('markdown' in page) return 'expected the document in place of the markdown';
      const nodes = page.document?.object === 'document' ? page.document.nodes : undefined;
      return Array.isArray(nodes) && nodes.length > 5 ? undefined : 'expected a document object with the page’s blocks';
    },
  },
  // Sites: a site's whole structure, 20 sections in 4 groups publishing 200
  // spaces, each site space with its space (a body of about 430 KB); and a
  // list of 50 of an organization's 1,000 sites with their site-space counts.
  {
    name: 'GET /v1/orgs/{id}/sites/{id}/published (200 site spaces)',
    path: (seed) => `/v1/orgs/${seed.sites.big.organizationId}/sites/${seed.sites.big.siteId}/published`,
    headers: authorized,
    largeBody: true,
    aim: READ_AIM,
    p99AimMs: 20,
    check: (body) => {
      const published = body as { object?: string; site?: { published?: boolean; siteSpaces?: number } };
      if (published.object !== 'published-content-site') return 'expected a published-content-site';
      if (published.site?.published !== true) return 'expected a published site';
      if (published.site.siteSpaces !== BIG_SITE_SPACES)
        return `expected ${BIG_SITE_SPACES} site spaces, got ${published.site.siteSpaces}`;
      return bigSiteStructure((body as { structure?: unknown }).structure);
    },
  },
  {
    name: 'GET /v1/orgs/{id}/sites/{id}/structure (200 site spaces)',
    path: (seed) => `/v1/orgs/${seed.sites.big.organizationId}/sites/${seed.sites.big.siteId}/structure`,
    headers: authorized,
    largeBody: true,
    aim: READ_AIM,
    p99AimMs: 20,
    check: (body) => bigSiteStructure(body),
  },
  // The published reader: a page of a public site as HTML, no token, as a visitor's browser asks for it.
  {
    name: 'GET /s/{site}/{page} (reader, 50-page space)',
    path: (seed) => seed.reader.smallLeafPath,
    headers: () => ({ accept: 'text/html' }),
    aim: READ_AIM,
    p99AimMs: 30,
    check: readerPage,
  },
  {
    name: 'GET /s/{site}/{page} (reader, 5,000-page space)',
    path: (seed) => seed.reader.bigLeafPath,
    headers: () => ({ accept: 'text/html' }),
    aim: READ_AIM,
    p99AimMs: 30,
    check: readerPage,
  },
  appScenario('50-page space', (seed) => seed.appReader.smallLeafPath),
  appScenario('5,000-page space', (seed) => seed.appReader.bigLeafPath),
  {
    name: 'GET /v1/orgs/{id}/sites (first page of 1,000)',
    path: (seed) => `/v1/orgs/${seed.sites.many.organizationId}/sites`,
    headers: authorized,
    aim: READ_AIM,
    check: (body, seed) => sitesPage(body, seed, seed.sites.many.newestId),
  },
  {
    name: 'GET /v1/orgs/{id}/sites (900 in)',
    path: (seed) =>
      `/v1/orgs/${seed.sites.many.organizationId}/sites?page=${encodeURIComponent(seed.sites.many.deepPage)}`,
    headers: authorized,
    aim: READ_AIM,
    check: (body, seed) => sitesPage(body, seed, seed.sites.many.deepPageFirstId),
  },
  {
    name: `GET /v1/spaces/{id}/search (${SEARCH_PAGES.toLocaleString('en')} pages indexed)`,
    path: (seed) => `/v1/spaces/${seed.search.spaceId}/search?query=${SEARCH_QUERY}`,
    headers: authorized,
    aim: READ_AIM,
    p99AimMs: 50,
    check: (body) => searchPages(body, 1),
  },
  {
    name: `GET /v1/orgs/{id}/search (${SEARCH_SPACES} spaces)`,
    path: (seed) => `/v1/orgs/${seed.search.organizationId}/search?query=${SEARCH_QUERY}`,
    headers: authorized,
    aim: READ_AIM,
    p99AimMs: 100,
    check: (body) => searchPages(body, SEARCH_SPACES),
  },
  INTEGRATIONS_SCENARIO,
  ...GRANTS_SCENARIOS,
  INTEGRATIONS_FILTERED_SCENARIO,
];

/** A list of exactly `count` items, all on one page. */
function listOf(body: unknown, count: number): string | undefined {
  const page = body as { items?: unknown[]; count?: number };
  return page.items?.length === count && page.count === count
    ? undefined
    : `expected ${count} items, got ${page.items?.length ?? 'no items array'} of ${page.count}`;
}

interface PresentedPage {
  id?: string;
  markdown?: unknown;
  pages?: PresentedPage[];
}

/** The pages of a tree and all their subpages. */
function flatten(pages: PresentedPage[]): PresentedPage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}

interface PresentedComment {
  id?: string;
  status?: string;
  postedBy?: { id?: string };
}

/**
 * A full default page of 50 comments out of `count`: starting with `firstId`
 * if given (the page's position in the list), every item passing `every`
 * (true, or what is wrong with it).
 */
function commentsPage(
  body: unknown,
  expected: { count: number; firstId?: string; every?: (comment: PresentedComment) => true | string },
): string | undefined {
  const page = body as { items?: PresentedComment[]; count?: number };
  if (page.items?.length !== 50) return `expected 50 comments, got ${page.items?.length ?? 'no items array'}`;
  if (page.count !== expected.count) return `expected a count of ${expected.count}, got ${page.count}`;
  if (expected.firstId !== undefined && page.items[0]!.id !== expected.firstId) {
    return `expected the page to start with comment ${expected.firstId}, got ${page.items[0]!.id}`;
  }
  for (const comment of page.items) {
    const verdict = expected.every?.(comment) ?? true;
    if (verdict !== true) return verdict;
  }
  return undefined;
}

/** A page of 50 spaces out of `total`: a shorter page would flatter the scenario. */
function fullSpacesPage(body: unknown, total = SPACES_IN_BIG_ORGANIZATION): string | undefined {
  const page = body as { items?: unknown[]; count?: number };
  if (page.items?.length !== 50) return `expected 50 spaces, got ${page.items?.length ?? 'no items array'}`;
  return page.count === total ? undefined : `expected a count of ${total}, got ${page.count}`;
}

interface PresentedSection {
  object?: string;
  title?: string;
  siteSpaces?: unknown[];
  children?: PresentedSection[];
}

/** The big site's structure, whole: its 4 groups in order, each with 5 sections of 10 site spaces. */
function bigSiteStructure(body: unknown): string | undefined {
  const structure = body as { type?: string; structure?: PresentedSection[] };
  if (structure.type !== 'sections') return `expected a structure of sections, got ${structure.type}`;
  const groups = structure.structure ?? [];
  const titles = groups.map((group) => `${group.object}: ${group.title}`).join(', ');
  const expected = BIG_SITE_GROUPS.map((title) => `site-section-group: ${title}`).join(', ');
  if (titles !== expected) return `expected the groups ${expected} in this order, got ${titles}`;
  for (const group of groups) {
    const sections = group.children ?? [];
    if (sections.length !== SECTIONS_PER_GROUP || sections.some((s) => s.siteSpaces?.length !== SPACES_PER_SECTION)) {
      return `expected ${SECTIONS_PER_GROUP} sections of ${SPACES_PER_SECTION} site spaces in ${group.title}`;
    }
  }
  return undefined;
}

/** A full page of 50 of the 1,000 sites, from `firstId` on, each with the count of site spaces it was given. */
function sitesPage(body: unknown, seed: Seeded, firstId: string): string | undefined {
  const page = body as { items?: Array<{ id?: string; siteSpaces?: number }>; count?: number };
  if (page.items?.length !== 50) return `expected 50 sites, got ${page.items?.length ?? 'no items array'}`;
  if (page.count !== SITES_IN_ORGANIZATION) return `expected a count of ${SITES_IN_ORGANIZATION}, got ${page.count}`;
  if (page.items[0]!.id !== firstId) return `expected the page to start with site ${firstId}, got ${page.items[0]!.id}`;
  const wrong = page.items.find((site) => site.siteSpaces !== seed.sites.many.siteSpaces.get(site.id ?? ''));
  return wrong
    ? `site ${wrong.id} counts ${wrong.siteSpaces} site spaces, it has ${seed.sites.many.siteSpaces.get(wrong.id ?? '')}`
    : undefined;
}

/** A search answer that found what the seeded index holds: at least `least` results. */
function searchPages(body: unknown, least: number): string | undefined {
  const page = body as { count?: number; items?: unknown[] };
  return (page.count ?? 0) >= least && (page.items?.length ?? 0) > 0
    ? undefined
    : `expected at least ${least} results for "${SEARCH_QUERY}", got a count of ${page.count}`;
}

/** The app reader: a member's page, signed in, as their browser asks for it (the session's cookie, no token). */
function appScenario(space: string, path: (seed: Seeded) => string): Scenario {
  return {
    name: `GET /app/o/{id}/s/{id}/{page} (app, ${space})`,
    path,
    headers: (seed) => ({ accept: 'text/html', cookie: seed.appReader.cookie }),
    aim: READ_AIM,
    p99AimMs: 30,
    check: appPage,
  };
}

/** An app page: the article is there, for the signed-in member (not the sign-in form). */
function appPage(body: unknown): string | undefined {
  if (typeof body !== 'string' || !body.includes('<article')) return 'expected an HTML page with an article';
  return body.includes('name="token"') ? 'expected the page, got the sign-in form' : undefined;
}

/** A reader page: the article is there, and the page is under the theme's 50 KB before images. */
function readerPage(body: unknown): string | undefined {
  if (typeof body !== 'string' || !body.includes('<article>')) return 'expected an HTML page with an article';
  const bytes = Buffer.byteLength(body);
  return bytes < 50 * 1024 ? undefined : `the page is ${bytes} bytes, over 50 KB`;
}
