import { h } from 'hastscript';
import type { Caller } from '../access/auth.js';
import { findVisibleCollection } from '../access/collections.js';
import { spaceRolesFor } from '../access/grants.js';
import { findMembership } from '../access/membership.js';
import type { Role } from '../access/roles.js';
import type { SpaceFields } from '../access/space-queries.js';
import type { Context } from '../context.js';
import type { ThemeChoice } from '../reader/layout.js';
import {
  findIntegration,
  findOrganizationTitle,
  findSiteSummary,
  findSpec,
  listedSpaces,
  listSites,
} from './queries.js';
import { appPage, notFound, type AppAnswer } from './shell.js';
import { appHome } from './session.js';

/** The spaces of the list the member may read, as links to their app pages. */
async function spaceCards(
  context: Context,
  caller: Caller,
  organizationId: string,
  spaces: SpaceFields[],
  role: { role: Role | null },
) {
  const roleOf = await spaceRolesFor(context.db, organizationId, { userId: caller.userId, role: role.role }, spaces);
  const readable = spaces.filter((space) => roleOf(space) !== null);
  if (readable.length === 0) return h('p', 'No spaces you can read here yet.');
  return h(
    'ul.card-list',
    readable.map((space) =>
      h(
        'li',
        h('a', { href: context.urls.app('o', organizationId, 's', space.id) }, [
          space.title || 'Untitled',
          h('span.meta', space.visibility),
        ]),
      ),
    ),
  );
}

/** An organization's page: the spaces the member reads there, newest first, and its sites. */
export async function organizationPage(
  context: Context,
  caller: Caller,
  organizationId: string,
  theme: ThemeChoice | undefined,
  back: string,
): Promise<AppAnswer> {
  const [membership, title] = await Promise.all([
    findMembership(context.db, organizationId, caller.userId),
    findOrganizationTitle(context.db, organizationId),
  ]);
  if (!membership || title === undefined) return notFound(context, caller, theme, back);
  const spaces = await listedSpaces(context.db, organizationId, undefined);
  const sites = membership.role ? await listSites(context.db, organizationId) : [];
  return appPage(context, caller, theme, 200, {
    title,
    home: { href: context.urls.app('o', organizationId), title },
    main: [
      h('h1', title),
      h('h2', 'Spaces'),
      await spaceCards(context, caller, organizationId, spaces, membership),
      ...(sites.length > 0
        ? [
            h('h2', 'Sites'),
            h(
              'ul.card-list',
              sites.map((site) =>
                h(
                  'li',
                  h('a', { href: context.urls.app('o', organizationId, 'sites', site.id) }, [
                    site.title,
                    h('span.meta', site.published ? `published, ${site.visibility}` : 'not published'),
                  ]),
                ),
              ),
            ),
          ]
        : []),
    ],
    back,
  });
}

/** A collection's page: its spaces the member reads. */
export async function collectionPage(
  context: Context,
  caller: Caller,
  organizationId: string,
  collectionId: string,
  theme: ThemeChoice | undefined,
  back: string,
): Promise<AppAnswer> {
  const found = await findVisibleCollection(context.db, collectionId, caller.userId).catch(() => undefined);
  const membership = await findMembership(context.db, organizationId, caller.userId);
  if (!found || found.collection.organization_id !== organizationId || !membership) {
    return notFound(context, caller, theme, back);
  }
  const { collection } = found;
  const spaces = await listedSpaces(context.db, organizationId, collection.id);
  return appPage(context, caller, theme, 200, {
    title: collection.title,
    home: { href: context.urls.app('o', organizationId), title: collection.title },
    main: [
      h('h1', collection.title),
      ...(collection.description ? [h('p.page-description', collection.description)] : []),
      await spaceCards(context, caller, organizationId, spaces, membership),
    ],
    back,
  });
}

/** A site's page for members: whether it is published, and where it is read. */
export async function sitePage(
  context: Context,
  caller: Caller,
  organizationId: string,
  siteId: string,
  theme: ThemeChoice | undefined,
  back: string,
): Promise<AppAnswer> {
  const membership = await findMembership(context.db, organizationId, caller.userId);
  const site = membership?.role ? await findSiteSummary(context.db, organizationId, siteId) : undefined;
  if (!site) return notFound(context, caller, theme, back);
  const address = context.urls.site(site.basename ?? site.id);
  return appPage(context, caller, theme, 200, {
    title: site.title,
    home: { href: context.urls.app('o', organizationId), title: site.title },
    main: [
      h('h1', site.title),
      site.published
        ? h('p', ['Published (', site.visibility, ') at ', h('a', { href: address }, address), '.'])
        : h('p', 'Not published: publish it through the API to open it to its audience.'),
    ],
    back,
  });
}

/** An OpenAPI spec's page for members: its source and state. */
export async function specPage(
  context: Context,
  caller: Caller,
  organizationId: string,
  slug: string,
  theme: ThemeChoice | undefined,
  back: string,
): Promise<AppAnswer> {
  const membership = await findMembership(context.db, organizationId, caller.userId);
  const spec = membership?.role ? await findSpec(context.db, organizationId, slug) : undefined;
  if (!spec) return notFound(context, caller, theme, back);
  return appPage(context, caller, theme, 200, {
    title: spec.slug,
    home: { href: context.urls.app('o', organizationId), title: 'OpenAPI' },
    main: [
      h('h1', `OpenAPI spec ${spec.slug}`),
      h(
        'p',
        `Processing: ${spec.processing_state}${spec.last_processed_at ? `, last processed ${spec.last_processed_at.toISOString()}` : ''}.`,
      ),
      ...(spec.source_url ? [h('p', ['Source: ', h('code', spec.source_url)])] : []),
      h('p', ['Its API: ', h('code', context.urls.api('orgs', organizationId, 'openapi', spec.slug))]),
    ],
    back,
  });
}

/** An integration's page: a public one to anyone signed in, another to members of its organization. */
export async function integrationPage(
  context: Context,
  caller: Caller,
  name: string,
  organizationId: string | undefined,
  theme: ThemeChoice | undefined,
  back: string,
): Promise<AppAnswer> {
  const integration = await findIntegration(context.db, name);
  // A private integration is its organization's members' only; under an organization's address, that
  // organization's members' only too.
  const roleIn = async (owner: string) => (await findMembership(context.db, owner, caller.userId))?.role;
  const visible =
    integration !== undefined &&
    (integration.visibility !== 'private' || Boolean(await roleIn(integration.organization_id))) &&
    (organizationId === undefined || (await findMembership(context.db, organizationId, caller.userId)) !== undefined);
  if (!integration || !visible) return notFound(context, caller, theme, back);
  return appPage(context, caller, theme, 200, {
    title: integration.title,
    home: { href: appHome(context), title: 'Integrations' },
    main: [
      h('h1', integration.title),
      ...(integration.summary ? [h('p.page-description', integration.summary)] : []),
      h('p', integration.description),
    ],
    back,
  });
}
