import type { FastifyInstance } from 'fastify';
import { generateNKeysBetween } from 'fractional-indexing';
import { systemClock } from '../src/core/clock.js';
import { newId, randomString } from '../src/core/ids.js';
import type { Db } from '../src/db/database.js';
import { createSpace } from '../src/spaces/create.js';
import type { Keyring } from '../src/core/keyring.js';
import { newSealedVisitorKey } from '../src/sites/secrets.js';
import { slugify, uniqueSlug } from '../src/core/slug.js';
import { TOPICS } from './seed-content.js';

/** The big site: 4 section groups of 5 sections, each section publishing 10 spaces. */
export const BIG_SITE_GROUPS = ['Guides', 'Reference', 'Platform', 'Administration'] as const;
export const SECTIONS_PER_GROUP = 5;
export const SPACES_PER_SECTION = 10;
export const BIG_SITE_SECTIONS = BIG_SITE_GROUPS.length * SECTIONS_PER_GROUP;
export const BIG_SITE_SPACES = BIG_SITE_SECTIONS * SPACES_PER_SECTION;

export const SITES_IN_ORGANIZATION = 1_000;
/** Where the deep page of GET /v1/orgs/{id}/sites starts. */
export const DEEP_SITES_OFFSET = 900;

export interface SeededSites {
  /** A published, public site of 20 sections in 4 groups, 200 site spaces in all. */
  big: { organizationId: string; siteId: string };
  many: {
    /** An organization with 1,000 sites, each publishing 1 to 3 spaces at its root. */
    organizationId: string;
    /** Each site's site-space count, what the list must answer. */
    siteSpaces: Map<string, number>;
    /** The newest site: the first item of the list. */
    newestId: string;
    /** The `page` cursor of the list that starts DEEP_SITES_OFFSET sites in, and that page's first site. */
    deepPage: string;
    deepPageFirstId: string;
  };
}

const KINDS = [
  'Overview',
  'Quickstart',
  'Concepts',
  'How-to guides',
  'Tutorials',
  'API reference',
  'SDKs',
  'Troubleshooting',
  'FAQ',
  'Changelog',
];
const MANY_SITE_SPACE_KINDS = ['Guide', 'API reference', 'Changelog'];

type Method = 'GET' | 'POST' | 'PATCH';

function injector(app: FastifyInstance, authorization: string) {
  return async <T>(method: Method, url: string, payload?: object): Promise<T> => {
    const response = await app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
    if (response.statusCode < 200 || response.statusCode > 299) {
      throw new Error(
        `Seeding sites: ${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 500)}`,
      );
    }
    return response.json<T>();
  };
}

/**
 * The big site, made through the API as an admin would: the site with the
 * first section's spaces, then each section with its first space and the
 * other nine added one by one, and each group once its five sections exist.
 * The spaces come first, straight through the service's createSpace.
 */
async function seedBigSite(app: FastifyInstance, authorization: string, organizationId: string): Promise<string> {
  const call = injector(app, authorization);
  const spaces: string[][] = [];
  for (const topic of TOPICS.slice(0, BIG_SITE_SECTIONS)) {
    const ids: string[] = [];
    for (const kind of KINDS.slice(0, SPACES_PER_SECTION)) {
      const space = await createSpace(app.context.db, systemClock, {
        organizationId,
        parentId: null,
        title: `${topic}: ${kind}`,
        emoji: null,
        editMode: 'live',
        visibility: 'private',
      });
      ids.push(space.id);
    }
    spaces.push(ids);
  }

  const sites = `/v1/orgs/${organizationId}/sites`;
  const site = await call<{ id: string }>('POST', sites, { title: 'Bench handbook', spaces: spaces[0] });
  const base = `${sites}/${site.id}`;
  const sectionIds: string[] = [];
  for (let s = 1; s < BIG_SITE_SECTIONS; s++) {
    const section = await call<{ id: string }>('POST', `${base}/sections`, {
      spaceId: spaces[s]![0],
      title: TOPICS[s],
    });
    if (s === 1) {
      // The first section gathered the spaces the site had at its root; it is named after its first space.
      const { items } = await call<{ items: Array<{ id: string }> }>('GET', `${base}/sections`);
      sectionIds.push(items[0]!.id);
      await call('PATCH', `${base}/sections/${items[0]!.id}`, { title: TOPICS[0] });
    }
    sectionIds.push(section.id);
    for (const spaceId of spaces[s]!.slice(1)) {
      await call('POST', `${base}/site-spaces`, { spaceId, sectionId: section.id });
    }
    if (sectionIds.length % SECTIONS_PER_GROUP === 0) {
      await call('POST', `${base}/section-groups`, {
        title: BIG_SITE_GROUPS[sectionIds.length / SECTIONS_PER_GROUP - 1],
        sections: sectionIds.slice(-SECTIONS_PER_GROUP),
      });
    }
  }
  await call('POST', `${base}/publish`);
  return site.id;
}

/**
 * 1,000 sites with 1 to 3 spaces each at their root, in one insert per table of
 * the rows createSite writes: the spaces with their first revisions, the
 * sites (half of them published) and their site spaces.
 */
async function seedManySites(
  db: Db,
  keyring: Keyring,
  organizationId: string,
): Promise<{ newestFirst: string[]; siteSpaces: Map<string, number> }> {
  const start = Date.now() - 180 * 86_400_000;
  const sites = Array.from({ length: SITES_IN_ORGANIZATION }, (_, i) => {
    const createdAt = new Date(start + i * 60_000);
    const id = newId();
    return {
      id,
      organization_id: organizationId,
      type: 'basic' as const,
      title: `Product ${i} docs`,
      visibility: 'public' as const,
      published: i % 2 === 0,
      auth_private_key_encrypted: newSealedVisitorKey(keyring, id),
      created_at: createdAt,
      updated_at: createdAt,
    };
  });
  const spaceCount = (i: number) => 1 + (i % MANY_SITE_SPACE_KINDS.length);
  const published = sites.flatMap((site, i) => {
    const taken = new Set<string>();
    return MANY_SITE_SPACE_KINDS.slice(0, spaceCount(i)).map((kind, k) => {
      // Made a second before its site, in the order the site lists them.
      const createdAt = new Date(site.created_at.getTime() - 1_000 + k);
      const title = `Product ${i} ${kind}`;
      const path = uniqueSlug(slugify(title, 'space'), taken);
      taken.add(path);
      const spaceId = newId();
      const space = {
        id: spaceId,
        organization_id: organizationId,
        parent_id: null,
        title,
        emoji: null,
        visibility: 'private' as const,
        edit_mode: 'live' as const,
        share_key: randomString(32),
        revision_id: newId(),
        created_at: createdAt,
        updated_at: createdAt,
      };
      const siteSpace = {
        id: newId(),
        organization_id: organizationId,
        site_id: site.id,
        section_id: null,
        space_id: spaceId,
        path,
        position: k,
        created_at: site.created_at,
      };
      return { space, siteSpace };
    });
  });
  // Top-level spaces in creation order, as createSpace places them one after another.
  const positions = generateNKeysBetween(null, null, published.length);
  const spaces = published.map(({ space }, n) => ({ ...space, position: positions[n]! }));
  const siteSpaces = published.map(({ siteSpace }) => siteSpace);
  await db.insertInto('spaces').values(spaces).execute();
  await db
    .insertInto('revisions')
    .values(
      spaces.map((space) => ({
        id: space.revision_id,
        organization_id: organizationId,
        space_id: space.id,
        seq: 0,
        created_at: space.created_at,
      })),
    )
    .execute();
  await db.insertInto('sites').values(sites).execute();
  await db.insertInto('site_spaces').values(siteSpaces).execute();
  return {
    newestFirst: sites.map((site) => site.id).reverse(),
    siteSpaces: new Map(sites.map((site, i) => [site.id, spaceCount(i)])),
  };
}

/** The `page` cursor DEEP_SITES_OFFSET sites into the list, as a client gets it: next.page of one long page. */
async function findSitesPage(app: FastifyInstance, authorization: string, organizationId: string): Promise<string> {
  const page = await injector(app, authorization)<{ next?: { page: string }; items: unknown[] }>(
    'GET',
    `/v1/orgs/${organizationId}/sites?limit=${DEEP_SITES_OFFSET}`,
  );
  if (page.items.length !== DEEP_SITES_OFFSET || !page.next) {
    throw new Error(
      `Seeding sites: the first ${DEEP_SITES_OFFSET} sites came as ${page.items.length} and no next page`,
    );
  }
  return page.next.page;
}

export async function seedSites(
  app: FastifyInstance,
  authorization: string,
  bigSiteOrganizationId: string,
  manySitesOrganizationId: string,
): Promise<SeededSites> {
  const siteId = await seedBigSite(app, authorization, bigSiteOrganizationId);
  const { newestFirst, siteSpaces } = await seedManySites(app.context.db, app.context.keyring, manySitesOrganizationId);
  return {
    big: { organizationId: bigSiteOrganizationId, siteId },
    many: {
      organizationId: manySitesOrganizationId,
      siteSpaces,
      newestId: newestFirst[0]!,
      deepPage: await findSitesPage(app, authorization, manySitesOrganizationId),
      deepPageFirstId: newestFirst[DEEP_SITES_OFFSET]!,
    },
  };
}
