import type { Urls } from '../core/urls.js';
import type { Role } from '../access/roles.js';
import type { SpaceFields } from '../access/space-queries.js';
import { presentSpace } from '../spaces/present.js';
import { serviceSiteAddress, siteAddress, withShareKey } from './addresses.js';
import type { SiteRow, SiteSummary } from './queries.js';
import type { Site, SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure } from './schemas.js';
import {
  allSiteSpaces,
  findGroup,
  hasSections,
  siteSpacesIn,
  type Entry,
  type LinkRow,
  type SectionRow,
  type SiteSpaceRow,
  type Structure,
} from './structure/tree.js';

/** The premium features GitBook names that a site uses; every one is available on this service. */
function featuresOf(site: SiteSummary): Site['features'] {
  const used: string[] = [];
  if (site.adaptive_enabled) used.push('sites-adaptive-content');
  if (site.customization !== null) used.push('sites-basic-customization');
  if (site.proxy !== null) used.push('sites-custom-subdirectory');
  if (site.visibility === 'share-link') used.push('sites-share-links');
  if (site.visibility === 'visitor-auth') used.push('sites-visitor-authentication');
  if (site.visibility === 'unlisted') used.push('sites-unlisted-visibility');
  if (site.visibility === 'public') used.push('sites-public-visibility');
  return used.map((id) => ({ id, plan: site.type, frozen: false }));
}

/** The favicon of the customization, which GitBook also shows as the site's icon. */
function iconOf(site: SiteSummary): Site['icon'] {
  const favicon = (site.customization as { favicon?: unknown } | null)?.favicon;
  if (favicon && typeof favicon === 'object') {
    if ('icon' in favicon) return favicon as { icon: { light: string; dark: string } };
    if ('emoji' in favicon) return favicon as { emoji: string };
  }
  return undefined;
}

/** The caller's rights on a site, from their role on it (null: a visitor, or an integration's publisher). */
function sitePermissions(role: Role | null): Site['permissions'] {
  const member = role !== null;
  const admin = role === 'admin';
  return {
    view: true,
    access: member,
    edit: admin,
    create: admin,
    admin,
    installIntegration: admin,
    viewAdaptiveSchema: member,
    editAdaptiveSchema: admin,
  };
}

export function presentSite(site: SiteSummary, urls: Urls, role: Role | null): Site {
  const presented: Site = {
    object: 'site',
    id: site.id,
    type: site.type,
    appliedType: site.type,
    title: site.title,
    visibility: site.visibility,
    defaultLevel: 'inherit',
    permissions: sitePermissions(role),
    published: site.published,
    siteSpaces: site.site_spaces_count,
    createdAt: site.created_at.toISOString(),
    adaptiveContent: { enabled: site.adaptive_enabled },
    agentsContext: site.agents_context,
    features: featuresOf(site),
    urls: {
      location: urls.api('orgs', site.organization_id, 'sites', site.id),
      app: urls.app('o', site.organization_id, 'sites', site.id),
      preview: urls.api('orgs', site.organization_id, 'sites', site.id, 'published'),
    },
  };
  const icon = iconOf(site);
  if (icon) presented.icon = icon;
  if (site.basename !== null) presented.basename = site.basename;
  if (site.hostname !== null) {
    presented.hostname = site.hostname;
    presented.hostnameStatus = site.hostname_status === 'live' ? 'live' : 'pending';
  }
  if (site.proxy !== null) presented.proxy = { origin: site.proxy, target: serviceSiteAddress(urls, site) };
  if (site.published) presented.urls.published = siteAddress(urls, site);
  return presented;
}

/** What presenting a site's structure needs besides the structure itself. */
export interface StructureView {
  site: SiteRow;
  structure: Structure;
  urls: Urls;
  /** The caller's role on a site space's space, for its `permissions`. */
  roleOn: (space: SpaceFields) => Role | null;
  /** A valid share-link key the caller came with: the published URLs of a share-link site carry it. */
  shareKey?: string | undefined;
}

/** Published URLs exist once the site is published. */
function publishedUrl(view: StructureView, ...paths: string[]): { published?: string } {
  if (!view.site.published) return {};
  const key = view.site.visibility === 'share-link' ? view.shareKey : undefined;
  return { published: withShareKey(siteAddress(view.urls, view.site, ...paths), key) };
}

export function presentSiteSpace(view: StructureView, row: SiteSpaceRow): SiteSpace {
  const section = row.section_id !== null ? view.structure.sections.find((s) => s.id === row.section_id) : undefined;
  const siteSpace: SiteSpace = {
    object: 'site-space',
    id: row.id,
    path: row.path,
    space: presentSpace(row.space, view.roleOn(row.space), view.urls),
    title: row.space.title,
    default: view.structure.defaultSiteSpace.get(row.section_id)?.id === row.id,
    draft: row.draft,
    hidden: row.hidden,
    hasAdvancedCustomizationFeature: false,
    urls: publishedUrl(view, ...(section ? [section.path] : []), row.path),
  };
  if (row.section_id !== null) siteSpace.section = row.section_id;
  if (row.condition !== null) siteSpace.condition = row.condition;
  return siteSpace;
}

export function presentSection(view: StructureView, row: SectionRow): SiteSection {
  const section: SiteSection = {
    object: 'site-section',
    id: row.id,
    title: row.title,
    default: view.structure.defaultSection?.id === row.id,
    draft: row.draft,
    path: row.path,
    siteSpaces: siteSpacesIn(view.structure, row.id).map((siteSpace) => presentSiteSpace(view, siteSpace)),
    urls: publishedUrl(view, row.path),
  };
  if (row.description !== null) section.description = row.description;
  if (row.condition !== null) section.condition = row.condition;
  if (row.group_id !== null && view.structure.groups.has(row.group_id)) section.sectionGroup = row.group_id;
  if (row.icon !== null) section.icon = row.icon;
  return section;
}

export function presentExternalLink(view: StructureView, row: LinkRow): SiteExternalLink {
  const link: SiteExternalLink = {
    object: 'site-external-link',
    id: row.id,
    title: row.title,
    url: row.url,
    draft: row.draft,
  };
  if (row.localized_title !== null) link.localizedTitle = row.localized_title as Record<string, string>;
  if (row.description !== null) link.description = row.description;
  if (row.localized_description !== null) {
    link.localizedDescription = row.localized_description as Record<string, string>;
  }
  if (row.icon !== null) link.icon = row.icon;
  if (row.group_id !== null && view.structure.groups.has(row.group_id)) link.sectionGroup = row.group_id;
  if (row.condition !== null) link.condition = row.condition;
  return link;
}

function presentEntry(view: StructureView, entry: Entry): SiteSection | SiteSectionGroup | SiteExternalLink {
  if (entry.kind === 'section') return presentSection(view, entry.section);
  if (entry.kind === 'link') return presentExternalLink(view, entry.link);
  return presentGroup(view, entry);
}

export function presentGroup(view: StructureView, entry: Extract<Entry, { kind: 'group' }>): SiteSectionGroup {
  const children = entry.children.map((child) => presentEntry(view, child));
  const group = {
    object: 'site-section-group' as const,
    id: entry.group.id,
    title: entry.group.title,
    draft: entry.group.draft,
    sections: children.filter((child): child is SiteSection => child.object === 'site-section'),
    children,
  } as SiteSectionGroup;
  if (entry.group.icon !== null) group.icon = entry.group.icon;
  if (entry.group.parent_id !== null && view.structure.groups.has(entry.group.parent_id)) {
    group.sectionGroup = entry.group.parent_id;
  }
  return group;
}

export function presentStructure(view: StructureView): SiteStructure {
  if (!hasSections(view.structure)) {
    return {
      type: 'siteSpaces',
      structure: siteSpacesIn(view.structure, null).map((siteSpace) => presentSiteSpace(view, siteSpace)),
    };
  }
  return {
    type: 'sections',
    structure: view.structure.root.map((entry) => presentEntry(view, entry)),
  };
}

interface StructureItems {
  'site-space': SiteSpace;
  'site-section': SiteSection;
  'site-section-group': SiteSectionGroup;
  'site-external-link': SiteExternalLink;
}

/** The item of the structure the pointer names, as the caller sees it: the answer of a change to it. */
export function presentItem<T extends keyof StructureItems>(
  view: StructureView,
  item: { type: T; id: string },
): StructureItems[T] {
  const { structure } = view;
  if (item.type === 'site-external-link') {
    return presentExternalLink(view, structure.links.get(item.id)!) as StructureItems[T];
  }
  const presented =
    item.type === 'site-space'
      ? presentSiteSpace(
          view,
          allSiteSpaces(structure).find((siteSpace) => siteSpace.id === item.id)!,
        )
      : item.type === 'site-section'
        ? presentSection(
            view,
            structure.sections.find((section) => section.id === item.id)!,
          )
        : presentGroup(view, findGroup(structure.root, item.id)!);
  return presented as StructureItems[T];
}
