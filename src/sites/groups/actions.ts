import type { Updateable } from 'kysely';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Page } from '../../core/pagination.js';
import type { SiteSectionGroupsTable } from '../../db/types.js';
import type { Context } from '../../context.js';
import { findSiteAsMember } from '../access.js';
import { presentGroup, presentItem, type StructureView } from '../present.js';
import type { AddGroupBody, ListStructureQuery, MoveGroupBody, SiteSectionGroup, UpdateGroupBody } from '../schemas.js';
import { editStructure } from '../structure/edit.js';
import { requireRoom, SITE_LIMITS } from '../structure/limits.js';
import {
  entryPointer,
  planDissolve,
  planMove,
  planSectionInto,
  planSectionOutOf,
  type Ordering,
} from '../structure/moves.js';
import { pageOfOrdered } from '../structure/pages.js';
import { writeOrderings } from '../structure/queries.js';
import { findGroup, hasSections, nextEntryPosition, type Entry, type Structure } from '../structure/tree.js';
import { memberView, validShareKey } from '../structure/view.js';
import { sectionNotFound } from '../sections/actions.js';
import { deleteGroup, insertGroup, updateGroup } from './queries.js';

type GroupEntry = Extract<Entry, { kind: 'group' }>;
const groupNotFound = () => new NotFoundError('No section group with this id in the site');

/** Every group, in the order a reader meets them (a nested group right after its parent's earlier children). */
function groupsInOrder(structure: Structure): GroupEntry[] {
  const groups: GroupEntry[] = [];
  const walk = (list: Entry[]) => {
    for (const entry of list) {
      if (entry.kind !== 'group') continue;
      groups.push(entry);
      walk(entry.children);
    }
  };
  walk(structure.root);
  return groups;
}

function groupOf(structure: Structure, groupId: string): GroupEntry {
  const group = findGroup(structure.root, groupId);
  if (!group) throw groupNotFound();
  return group;
}

const presentGroupNamed = (id: string) => (view: StructureView) =>
  presentItem(view, { type: 'site-section-group', id });

export async function listGroups(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  query: ListStructureQuery,
): Promise<Page<SiteSectionGroup>> {
  const { site, member } = await findSiteAsMember(context, organizationId, siteId, userId);
  const view = await memberView(context, site, member, await validShareKey(context, site, query.shareKey));
  const groups = groupsInOrder(view.structure);
  const page = pageOfOrdered(context.cursors, `site-section-groups:${site.id}`, query, groups, (g) => g.group.id);
  return { ...page, items: page.items.map((entry) => presentGroup(view, entry)) };
}

/** Adds a group at the end of the site (or of its parent group), taking the named sections into it in order. */
export async function addGroup(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  body: AddGroupBody,
): Promise<SiteSectionGroup> {
  const id = newId();
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Adding a section group',
    async ({ tx, site, structure }) => {
      requireRoom(structure.groups.size, SITE_LIMITS.groups, 'section groups');
      if (!hasSections(structure)) {
        throw new BadRequestError('A site without sections has no section groups: groups hold sections, add one first');
      }
      const parent = body.parent ?? null;
      if (parent !== null) {
        const parentGroup = structure.groups.get(parent);
        if (!parentGroup) throw new BadRequestError(`body/parent: the site has no section group "${parent}"`);
        if (parentGroup.parent_id !== null && structure.groups.has(parentGroup.parent_id)) {
          throw new BadRequestError('body/parent: section groups nest one level deep; this group is already nested');
        }
      }
      const sections = (body.sections ?? []).map((sectionId, index) => {
        if (!structure.sections.some((section) => section.id === sectionId)) {
          throw new BadRequestError(`body/sections/${index}: the site has no section "${sectionId}"`);
        }
        return sectionId;
      });
      await insertGroup(tx, organizationId, {
        id,
        siteId: site.id,
        parentId: parent,
        title: body.title,
        icon: body.icon ?? null,
        draft: body.draft ?? false,
        position: nextEntryPosition(structure, parent),
      });
      // Sections leave the group they were in, if any: a section is in at most one group.
      const taken = new Set(sections);
      const leftGroups = new Set(
        sections.flatMap((sectionId) => {
          const groupId = structure.sections.find((s) => s.id === sectionId)!.group_id;
          return groupId !== null && structure.groups.has(groupId) ? [groupId] : [];
        }),
      );
      await writeOrderings(tx, organizationId, [
        ...[...leftGroups].map((groupId) => ({
          container: { kind: 'entries' as const, groupId },
          items: entriesWithout(structure, groupId, taken),
        })),
        {
          container: { kind: 'entries', groupId: id },
          items: sections.map((sectionId) => ({ type: 'site-section' as const, id: sectionId })),
        },
      ]);
    },
    presentGroupNamed(id),
  );
}

/** What a group holds, less the sections taken out of it. */
function entriesWithout(structure: Structure, groupId: string, taken: ReadonlySet<string>): Ordering['items'] {
  return groupOf(structure, groupId)
    .children.filter((child) => !(child.kind === 'section' && taken.has(child.section.id)))
    .map(entryPointer);
}

export async function editGroup(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  groupId: string,
  body: UpdateGroupBody,
): Promise<SiteSectionGroup> {
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Changing a section group',
    async ({ tx, structure }) => {
      groupOf(structure, groupId);
      const changes: Updateable<SiteSectionGroupsTable> = {};
      if (body.title !== undefined) changes.title = body.title;
      if (body.icon !== undefined) changes.icon = body.icon;
      if (body.draft !== undefined) changes.draft = body.draft;
      await updateGroup(tx, organizationId, groupId, changes);
    },
    presentGroupNamed(groupId),
  );
}

/** Deletes a group; what it held stays in the site, where the group was. */
export async function removeGroup(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  groupId: string,
): Promise<void> {
  await editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Deleting a section group',
    async ({ tx, structure }) => {
      groupOf(structure, groupId);
      await writeOrderings(tx, organizationId, planDissolve(structure, groupId));
      await deleteGroup(tx, organizationId, groupId);
    },
    () => undefined,
  );
}

export async function addSectionToGroup(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
): Promise<SiteSectionGroup> {
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Adding a section to a group',
    async ({ tx, structure }) => {
      groupOf(structure, groupId);
      if (!structure.sections.some((section) => section.id === sectionId)) {
        throw new BadRequestError(`body/sectionId: the site has no section "${sectionId}"`);
      }
      await writeOrderings(tx, organizationId, planSectionInto(structure, sectionId, groupId));
    },
    presentGroupNamed(groupId),
  );
}

/** Takes a section out of a group, to right after it; false when the section was not in the group. */
export async function removeSectionFromGroup(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  groupId: string,
  sectionId: string,
): Promise<boolean> {
  let removed = false;
  await editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Removing a section from a group',
    async ({ tx, structure }) => {
      groupOf(structure, groupId);
      const section = structure.sections.find((s) => s.id === sectionId);
      if (!section) throw sectionNotFound();
      if (section.group_id !== groupId) return;
      removed = true;
      await writeOrderings(tx, organizationId, planSectionOutOf(structure, sectionId, groupId));
    },
    () => undefined,
  );
  return removed;
}

export async function moveGroup(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  groupId: string,
  body: MoveGroupBody,
): Promise<SiteSectionGroup> {
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Moving a section group',
    async ({ tx, structure }) => {
      groupOf(structure, groupId);
      const orderings = planMove(
        structure,
        { type: 'site-section-group', id: groupId },
        { before: body.position?.before, after: body.position?.after },
        'body',
      );
      await writeOrderings(tx, organizationId, orderings);
    },
    presentGroupNamed(groupId),
  );
}
