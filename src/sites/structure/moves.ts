import { BadRequestError } from '../../core/errors.js';
import type { ItemType } from '../schemas.js';
import { findGroup, siteSpacesIn, type Entry, type Structure } from './tree.js';

/**
 * Moves in a site's structure, worked out in memory: what list each moved
 * item lands in and the new order of every list the move touched. The
 * caller writes the orders (positions 0, 1, 2, … in each list).
 */
export interface Pointer {
  type: ItemType;
  id: string;
}

export interface MovePosition {
  before?: Pointer | undefined;
  after?: Pointer | undefined;
}

/** A list of siblings: the site spaces of a section (or of the root), or the sections, groups and links of the root or of a group. */
export type Container = { kind: 'site-spaces'; sectionId: string | null } | { kind: 'entries'; groupId: string | null };

/** A list's new order: ids with what each is (the entries of a group or the root mix sections, groups and links). */
export interface Ordering {
  container: Container;
  items: Pointer[];
}

interface Located {
  container: Container;
  list: Pointer[];
}

const same = (a: Pointer, b: Pointer) => a.type === b.type && a.id === b.id;
const describe = (pointer: Pointer) => `${pointer.type} "${pointer.id}"`;

export function entryPointer(entry: Entry): Pointer {
  if (entry.kind === 'section') return { type: 'site-section', id: entry.section.id };
  if (entry.kind === 'link') return { type: 'site-external-link', id: entry.link.id };
  return { type: 'site-section-group', id: entry.group.id };
}

function entriesOf(structure: Structure, groupId: string | null): Pointer[] {
  if (groupId === null) return structure.root.map(entryPointer);
  return findGroup(structure.root, groupId)?.children.map(entryPointer) ?? [];
}

/** The list an item is in, or undefined when the site has no such item. */
export function locate(structure: Structure, pointer: Pointer): Located | undefined {
  if (pointer.type === 'site-space') {
    for (const [sectionId, list] of structure.siteSpaces) {
      if (list.some((siteSpace) => siteSpace.id === pointer.id)) {
        return {
          container: { kind: 'site-spaces', sectionId },
          list: list.map((siteSpace) => ({ type: 'site-space', id: siteSpace.id })),
        };
      }
    }
    return undefined;
  }
  const parentOf = (): string | null | undefined => {
    if (pointer.type === 'site-section') {
      const section = structure.sections.find((s) => s.id === pointer.id);
      if (!section) return undefined;
      return section.group_id !== null && structure.groups.has(section.group_id) ? section.group_id : null;
    }
    if (pointer.type === 'site-external-link') {
      const link = structure.links.get(pointer.id);
      if (!link) return undefined;
      return link.group_id !== null && structure.groups.has(link.group_id) ? link.group_id : null;
    }
    const group = structure.groups.get(pointer.id);
    if (!group) return undefined;
    const parent = group.parent_id !== null ? structure.groups.get(group.parent_id) : undefined;
    return parent && parent.parent_id === null ? parent.id : null;
  };
  const parent = parentOf();
  if (parent === undefined) return undefined;
  return { container: { kind: 'entries', groupId: parent }, list: entriesOf(structure, parent) };
}

const sameContainer = (a: Container, b: Container) =>
  a.kind === b.kind &&
  (a.kind === 'site-spaces'
    ? a.sectionId === (b as typeof a).sectionId
    : a.groupId === (b as Extract<Container, { kind: 'entries' }>).groupId);

/**
 * Moves `item` beside `position.before` / `position.after`, into their list;
 * with neither, to the end of its own list. With both, `after` must come
 * before `before` in one list, and the item lands right after `after`.
 */
export function planMove(structure: Structure, item: Pointer, position: MovePosition, field: string): Ordering[] {
  const source = locate(structure, item);
  if (!source) throw new BadRequestError(`${field}: the site has no ${describe(item)}`);
  const anchors = (['after', 'before'] as const).flatMap((name) => {
    const pointer = position[name];
    if (!pointer) return [];
    const where = `${field}/position/${name}`;
    if (same(pointer, item)) throw new BadRequestError(`${where}: an item cannot be placed beside itself`);
    const siteSpaceMove = item.type === 'site-space';
    if (siteSpaceMove !== (pointer.type === 'site-space')) {
      throw new BadRequestError(
        `${where}: a ${item.type} goes beside ${siteSpaceMove ? 'site spaces' : 'sections, section groups and external links'}, not a ${pointer.type}`,
      );
    }
    const found = locate(structure, pointer);
    if (!found) throw new BadRequestError(`${where}: the site has no ${describe(pointer)}`);
    return [{ name, pointer, found }];
  });

  const destination = anchors[0]?.found ?? source;
  if (anchors.length === 2 && !sameContainer(anchors[0]!.found.container, anchors[1]!.found.container)) {
    throw new BadRequestError(`${field}/position: \`after\` and \`before\` are not in the same list`);
  }
  checkNesting(structure, item, destination.container, field);

  const target = destination.list.filter((pointer) => !same(pointer, item));
  const indexOf = (pointer: Pointer) => target.findIndex((p) => same(p, pointer));
  const after = anchors.find((a) => a.name === 'after');
  const before = anchors.find((a) => a.name === 'before');
  if (after && before && indexOf(after.pointer) >= indexOf(before.pointer)) {
    throw new BadRequestError(
      `${field}/position: \`after\` must come before \`before\` for the item to land between them`,
    );
  }
  const at = after ? indexOf(after.pointer) + 1 : before ? indexOf(before.pointer) : target.length;
  target.splice(at, 0, item);

  const orderings: Ordering[] = [{ container: destination.container, items: target }];
  if (!sameContainer(source.container, destination.container)) {
    orderings.push({ container: source.container, items: source.list.filter((pointer) => !same(pointer, item)) });
  }
  return item.type === 'site-space' ? orderings.map((o) => keepTrashedInPlace(structure, o, item.id)) : orderings;
}

/**
 * Puts back, into a new order of site spaces, those whose space is in the
 * trash: each stays right after the site space it followed (the moved one
 * aside), or first if it followed none. So a restored space comes back where
 * it was among the others, whatever moved meanwhile.
 */
function keepTrashedInPlace(structure: Structure, ordering: Ordering, movedId: string): Ordering {
  if (ordering.container.kind !== 'site-spaces') return ordering;
  const stored = structure.storedSiteSpaces.get(ordering.container.sectionId) ?? [];
  const following = new Map<string | null, Pointer[]>();
  let anchor: string | null = null;
  for (const row of stored) {
    if (!row.trashed) {
      if (row.id !== movedId) anchor = row.id;
      continue;
    }
    following.set(anchor, [...(following.get(anchor) ?? []), { type: 'site-space', id: row.id }]);
  }
  if (following.size === 0) return ordering;
  return {
    container: ordering.container,
    items: [
      ...(following.get(null) ?? []),
      ...ordering.items.flatMap((pointer) => [pointer, ...(following.get(pointer.id) ?? [])]),
    ],
  };
}

/** Groups nest one level deep: a group goes into a root-level group only when it holds no group itself. */
function checkNesting(structure: Structure, item: Pointer, container: Container, field: string): void {
  if (item.type !== 'site-section-group' || container.kind !== 'entries' || container.groupId === null) return;
  if (container.groupId === item.id) throw new BadRequestError(`${field}: a section group cannot go inside itself`);
  const holdsGroup = [...structure.groups.values()].some((group) => group.parent_id === item.id);
  const destinationNested = structure.groups.get(container.groupId)?.parent_id != null;
  if (holdsGroup || destinationNested) {
    throw new BadRequestError(`${field}: section groups nest one level deep; this move would make a second level`);
  }
}

/** Puts a section at the end of a group (null: the root), out of the list it was in. */
export function planSectionInto(structure: Structure, sectionId: string, groupId: string | null): Ordering[] {
  const item: Pointer = { type: 'site-section', id: sectionId };
  const source = locate(structure, item)!;
  const target: Container = { kind: 'entries', groupId };
  if (sameContainer(source.container, target)) return [];
  const destination = entriesOf(structure, groupId).filter((pointer) => !same(pointer, item));
  return [
    { container: target, items: [...destination, item] },
    { container: source.container, items: source.list.filter((pointer) => !same(pointer, item)) },
  ];
}

/** Takes a section out of its group, to sit right after the group in the group's own list. */
export function planSectionOutOf(structure: Structure, sectionId: string, groupId: string): Ordering[] {
  const group: Pointer = { type: 'site-section-group', id: groupId };
  const parent = locate(structure, group)!;
  const item: Pointer = { type: 'site-section', id: sectionId };
  const items = [...parent.list];
  items.splice(items.findIndex((pointer) => same(pointer, group)) + 1, 0, item);
  return [
    { container: parent.container, items },
    { container: { kind: 'entries', groupId }, items: entriesOf(structure, groupId).filter((p) => !same(p, item)) },
  ];
}

/** Dissolves a group: what it held takes its place, in order, in the group's own list. */
export function planDissolve(structure: Structure, groupId: string): Ordering[] {
  const group: Pointer = { type: 'site-section-group', id: groupId };
  const parent = locate(structure, group)!;
  const held = entriesOf(structure, groupId);
  const items = parent.list.flatMap((pointer) => (same(pointer, group) ? held : [pointer]));
  return [{ container: parent.container, items }];
}

/** The number of site spaces in a list, for the limits. */
export function countIn(structure: Structure, sectionId: string | null): number {
  return siteSpacesIn(structure, sectionId).length;
}
