import type { SpaceFields } from '../../access/space-queries.js';

/**
 * A site's structure as stored, read whole (it is small: see the limits in
 * limits.ts) and put in order here, without I/O. A site publishes its site
 * spaces either at its root (no sections) or in sections; sections sit at
 * the root or in a section group; a group sits at the root or in a root-level
 * group. Siblings are ordered by position, then creation, then id.
 */
export interface GroupRow {
  id: string;
  parent_id: string | null;
  title: string;
  icon: string | null;
  /** Shown to members and in previews only, with everything in it. */
  draft: boolean;
  position: number;
  created_at: Date;
}

export interface SectionRow {
  id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  position: number;
  default_site_space_id: string | null;
  /** Shown to members and in previews only, with its site spaces. */
  draft: boolean;
  created_at: Date;
}

export interface SiteSpaceRow {
  id: string;
  section_id: string | null;
  path: string;
  condition: string | null;
  /** Shown to members and in previews only. */
  draft: boolean;
  /** Reached by its address, but left out of the reader's navigation. */
  hidden: boolean;
  position: number;
  created_at: Date;
  /** Its override of the site's customization (site-spaces/customization-overrides.ts), or null. */
  customization: Record<string, unknown> | null;
  space: SpaceFields;
}

/** An external link of the navigation (external-links/): at the root or in a group, beside sections. */
export interface LinkRow {
  id: string;
  group_id: string | null;
  title: string;
  localized_title: unknown;
  description: string | null;
  localized_description: unknown;
  icon: string | null;
  url: string;
  draft: boolean;
  condition: string | null;
  position: number;
  created_at: Date;
}

export type Entry =
  | { kind: 'section'; section: SectionRow }
  | { kind: 'group'; group: GroupRow; children: Entry[] }
  | { kind: 'link'; link: LinkRow };

export interface Structure {
  /** Sections and groups at the root, in order. */
  root: Entry[];
  /** Every section, in the order a reader meets them (groups opened in place). */
  sections: SectionRow[];
  groups: Map<string, GroupRow>;
  links: Map<string, LinkRow>;
  /** Site spaces by section id; the root's (a site without sections) under null. */
  siteSpaces: Map<string | null, SiteSpaceRow[]>;
  /** The default section: the one the site names, else the first. */
  defaultSection: SectionRow | undefined;
  /** The default site space of each list (section id, or null for the root). */
  defaultSiteSpace: Map<string | null, SiteSpaceRow | undefined>;
  /**
   * Every list of site spaces with the trashed ones in their places: what a
   * move renumbers, and what paths, spaces and positions a list already holds.
   */
  storedSiteSpaces: Map<string | null, StoredSiteSpace[]>;
}

interface Ordered {
  position: number;
  created_at: Date;
  id: string;
}
const byOrder = (a: Ordered, b: Ordered) =>
  a.position - b.position || a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1);

const entryOrder = (entry: Entry): Ordered =>
  entry.kind === 'section' ? entry.section : entry.kind === 'group' ? entry.group : entry.link;

export interface StoredStructure {
  defaultSectionId: string | null;
  defaultRootSiteSpaceId: string | null;
  groups: readonly GroupRow[];
  sections: readonly SectionRow[];
  /** Only the site spaces a reader may see: those whose space is not in the trash. */
  siteSpaces: readonly SiteSpaceRow[];
  /** The others: they keep their place and path, and show again when their space is restored. */
  trashedSiteSpaces: readonly SiteSpaceRow[];
  links: readonly LinkRow[];
}

/** A site space as its list holds it, shown or in the trash. */
export interface StoredSiteSpace {
  id: string;
  path: string;
  spaceId: string;
  position: number;
  trashed: boolean;
}

export function buildStructure(stored: StoredStructure): Structure {
  const groups = new Map(stored.groups.map((group) => [group.id, group]));
  const children = new Map<string | null, Entry[]>();
  const place = (parent: string | null, entry: Entry) => {
    const list = children.get(parent) ?? [];
    list.push(entry);
    children.set(parent, list);
  };
  for (const section of stored.sections) {
    place(section.group_id !== null && groups.has(section.group_id) ? section.group_id : null, {
      kind: 'section',
      section,
    });
  }
  for (const link of stored.links) {
    place(link.group_id !== null && groups.has(link.group_id) ? link.group_id : null, { kind: 'link', link });
  }
  // A group whose parent is itself nested is shown at the root: groups nest one level deep.
  for (const group of stored.groups) {
    const parent = group.parent_id !== null ? groups.get(group.parent_id) : undefined;
    const parentId = parent && parent.parent_id === null && parent.id !== group.id ? parent.id : null;
    place(parentId, { kind: 'group', group, children: [] });
  }
  const sortEntries = (list: Entry[]) => list.sort((a, b) => byOrder(entryOrder(a), entryOrder(b)));
  const fill = (list: Entry[]): Entry[] => {
    for (const entry of sortEntries(list)) {
      if (entry.kind === 'group') entry.children = fill(children.get(entry.group.id) ?? []);
    }
    return list;
  };
  const root = fill(children.get(null) ?? []);

  const sections: SectionRow[] = [];
  const walk = (list: Entry[]) => {
    for (const entry of list) {
      if (entry.kind === 'section') sections.push(entry.section);
      else if (entry.kind === 'group') walk(entry.children);
    }
  };
  walk(root);

  const siteSpaces = new Map<string | null, SiteSpaceRow[]>();
  for (const siteSpace of stored.siteSpaces) {
    const list = siteSpaces.get(siteSpace.section_id) ?? [];
    list.push(siteSpace);
    siteSpaces.set(siteSpace.section_id, list);
  }
  for (const list of siteSpaces.values()) list.sort(byOrder);

  const defaultSiteSpace = new Map<string | null, SiteSpaceRow | undefined>();
  // The one named, else the first live one: a draft is the default only when nothing else is live.
  const pickDefault = (list: SiteSpaceRow[] | undefined, named: string | null) =>
    list?.find((siteSpace) => siteSpace.id === named) ?? list?.find((siteSpace) => !siteSpace.draft) ?? list?.[0];
  defaultSiteSpace.set(null, pickDefault(siteSpaces.get(null), stored.defaultRootSiteSpaceId));
  for (const section of sections) {
    defaultSiteSpace.set(section.id, pickDefault(siteSpaces.get(section.id), section.default_site_space_id));
  }

  const storedSiteSpaces = new Map<string | null, StoredSiteSpace[]>();
  const everyRow = [
    ...stored.siteSpaces.map((row) => ({ row, trashed: false })),
    ...stored.trashedSiteSpaces.map((row) => ({ row, trashed: true })),
  ].sort((a, b) => byOrder(a.row, b.row));
  for (const { row, trashed } of everyRow) {
    const list = storedSiteSpaces.get(row.section_id) ?? [];
    list.push({ id: row.id, path: row.path, spaceId: row.space.id, position: row.position, trashed });
    storedSiteSpaces.set(row.section_id, list);
  }

  return {
    root,
    sections,
    groups,
    links: new Map(stored.links.map((link) => [link.id, link])),
    siteSpaces,
    storedSiteSpaces,
    defaultSection:
      sections.find((section) => section.id === stored.defaultSectionId) ??
      sections.find((section) => !isDraftSection(section, groups)) ??
      sections[0],
    defaultSiteSpace,
  };
}

/** The site spaces of a section, or of the root (null), in order. */
export function siteSpacesIn(structure: Structure, sectionId: string | null): SiteSpaceRow[] {
  return structure.siteSpaces.get(sectionId) ?? [];
}

/** A list's site spaces (a section's, or the root's: null), trashed ones included, in order. */
export function storedIn(structure: Structure, sectionId: string | null): StoredSiteSpace[] {
  return structure.storedSiteSpaces.get(sectionId) ?? [];
}

/** The position after every site space of a list, trashed ones counted, so that a restored one keeps its place. */
export function nextSiteSpacePosition(structure: Structure, sectionId: string | null): number {
  return Math.max(-1, ...storedIn(structure, sectionId).map((row) => row.position)) + 1;
}

/** Every site space, in the order a reader meets them: the root's, then each section's. */
export function allSiteSpaces(structure: Structure): SiteSpaceRow[] {
  return [
    ...siteSpacesIn(structure, null),
    ...structure.sections.flatMap((section) => siteSpacesIn(structure, section.id)),
  ];
}

/**
 * The position after every section and group in a list (the root: null):
 * positions may have gaps (removals leave them), so it is the last one's plus one.
 */
export function nextEntryPosition(structure: Structure, groupId: string | null): number {
  const list = groupId === null ? structure.root : findGroup(structure.root, groupId)?.children;
  return Math.max(-1, ...(list ?? []).map((entry) => entryOrder(entry).position)) + 1;
}

/** A group anywhere in the structure. */
export function findGroup(list: readonly Entry[], groupId: string): Extract<Entry, { kind: 'group' }> | undefined {
  for (const entry of list) {
    if (entry.kind !== 'group') continue;
    if (entry.group.id === groupId) return entry;
    const inner = findGroup(entry.children, groupId);
    if (inner) return inner;
  }
  return undefined;
}

/** Whether the site arranges its spaces in sections. */
export function hasSections(structure: Structure): boolean {
  return structure.sections.length > 0;
}

/** Whether a section is a draft, itself or by a group it sits in (groups nest one level deep). */
export function isDraftSection(section: SectionRow, groups: ReadonlyMap<string, GroupRow>): boolean {
  return section.draft || isDraftGroup(section.group_id, groups);
}

function isDraftGroup(groupId: string | null, groups: ReadonlyMap<string, GroupRow>): boolean {
  const group = groupId === null ? undefined : groups.get(groupId);
  if (!group) return false;
  const parent = group.parent_id === null ? undefined : groups.get(group.parent_id);
  return group.draft || parent?.draft === true;
}

/** The stored structure less its draft items: groups, sections and site spaces, and what a draft group holds. */
function withoutDrafts(stored: StoredStructure): StoredStructure {
  const groups = new Map(stored.groups.map((group) => [group.id, group]));
  const sections = stored.sections.filter((section) => !isDraftSection(section, groups));
  const kept = new Set(sections.map((section) => section.id));
  return {
    ...stored,
    groups: stored.groups.filter((group) => !isDraftGroup(group.id, groups)),
    sections,
    siteSpaces: stored.siteSpaces.filter(
      (siteSpace) => !siteSpace.draft && (siteSpace.section_id === null || kept.has(siteSpace.section_id)),
    ),
    links: stored.links.filter((link) => !link.draft && !isDraftGroup(link.group_id, groups)),
  };
}

/**
 * The structure a visitor is shown: draft items (unless `drafts`, for a
 * preview), sections without a site space to show, and groups left empty by
 * them, are left out. Defaults are worked out again over what remains.
 */
export function publishedStructure(stored: StoredStructure, options: { drafts?: boolean } = {}): Structure {
  stored = options.drafts ? stored : withoutDrafts(stored);
  const full = buildStructure(stored);
  const shown = new Set(full.sections.filter((section) => siteSpacesIn(full, section.id).length > 0).map((s) => s.id));
  const keptGroups = new Set<string>();
  const keep = (list: Entry[]): boolean => {
    let any = false;
    for (const entry of list) {
      if (entry.kind === 'section') any = shown.has(entry.section.id) || any;
      else if (entry.kind === 'link') any = true;
      else if (keep(entry.children)) {
        keptGroups.add(entry.group.id);
        any = true;
      }
    }
    return any;
  };
  keep(full.root);
  return buildStructure({
    ...stored,
    sections: stored.sections.filter((section) => shown.has(section.id)),
    groups: stored.groups.filter((group) => keptGroups.has(group.id)),
  });
}
