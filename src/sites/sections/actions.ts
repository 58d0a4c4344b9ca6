import type { Updateable } from 'kysely';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Page } from '../../core/pagination.js';
import type { SiteSectionsTable } from '../../db/types.js';
import type { Context } from '../../context.js';
import { findSiteAsMember } from '../access.js';
import { spacesOfOrganization } from '../actions.js';
import { checkCondition } from '../adaptive/conditions.js';
import { presentItem, presentSection, type StructureView } from '../present.js';
import type {
  AddSectionBody,
  ListStructureQuery,
  MoveSectionBody,
  SiteSection,
  UpdateSectionBody,
} from '../schemas.js';
import { editStructure, type StructureEdit } from '../structure/edit.js';
import { requireRoom, SITE_LIMITS } from '../structure/limits.js';
import { planMove, planSectionInto } from '../structure/moves.js';
import { pageOfOrdered } from '../structure/pages.js';
import { slugify, uniqueSlug } from '../../core/slug.js';
import { writeOrderings } from '../structure/queries.js';
import { insertSiteSpaces } from '../site-spaces/queries.js';
import { deleteGroupsOfSite } from '../groups/queries.js';
import { deleteSection, gatherRootIntoSection, insertSection, updateSection } from './queries.js';
import {
  findGroup,
  hasSections,
  nextEntryPosition,
  siteSpacesIn,
  storedIn,
  type Structure,
} from '../structure/tree.js';
import { memberView, validShareKey } from '../structure/view.js';

export const sectionNotFound = () => new NotFoundError('No section with this id in the site');

function sectionOf(structure: Structure, sectionId: string) {
  const section = structure.sections.find((s) => s.id === sectionId);
  if (!section) throw sectionNotFound();
  return section;
}

/** A group of the site a section is put in, or a 400 naming the body's field. */
function groupIn(structure: Structure, groupId: string) {
  const group = findGroup(structure.root, groupId);
  if (!group) throw new BadRequestError(`body/siteSectionGroupId: the site has no section group "${groupId}"`);
  return group;
}

const presentSectionNamed = (id: string) => (view: StructureView) => presentItem(view, { type: 'site-section', id });

export async function listSections(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  query: ListStructureQuery,
): Promise<Page<SiteSection>> {
  const { site, member } = await findSiteAsMember(context, organizationId, siteId, userId);
  const view = await memberView(context, site, member, await validShareKey(context, site, query.shareKey));
  const page = pageOfOrdered(context.cursors, `site-sections:${site.id}`, query, view.structure.sections, (s) => s.id);
  return { ...page, items: page.items.map((section) => presentSection(view, section)) };
}

/** A section title made from a space's: titles of sections are 2 to 128 characters. */
function titleFrom(spaceTitle: string, fallback: string): string {
  const title = spaceTitle.trim();
  return title.length >= 2 ? title.slice(0, 128) : fallback;
}

/**
 * Adds a section holding the space. A site whose spaces were at its root
 * gets them gathered first into a section of their own, the default, so
 * that every site space stays published.
 */
export async function addSection(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  body: AddSectionBody,
): Promise<SiteSection> {
  const id = newId();
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Adding a section',
    async ({ tx, site, structure }) => {
      requireRoom(structure.sections.length + (hasSections(structure) ? 0 : 1), SITE_LIMITS.sections, 'sections');
      const [space] = await spacesOfOrganization(tx, organizationId, [body.spaceId], 'body/spaceId');
      const paths = new Set(structure.sections.map((section) => section.path));
      let position = nextEntryPosition(structure, null);
      // Site spaces of trashed spaces count: they come back on restore, and must find a section then.
      if (!hasSections(structure) && storedIn(structure, null).length > 0) {
        const first = structure.defaultSiteSpace.get(null);
        const title = first ? titleFrom(first.space.title, site.title) : site.title;
        const gathered = newId();
        const path = uniqueSlug(slugify(title, 'section'), paths);
        paths.add(path);
        await insertSection(tx, organizationId, {
          id: gathered,
          siteId: site.id,
          title,
          path,
          position: 0,
          defaultSiteSpaceId: first?.id ?? null,
        });
        await gatherRootIntoSection(tx, organizationId, site.id, gathered);
        position = 1;
      }
      const groupId = body.siteSectionGroupId ?? null;
      // A site without sections has no groups: the gathering above never needs a group's place.
      if (groupId !== null) {
        groupIn(structure, groupId);
        position = nextEntryPosition(structure, groupId);
      }
      const title = body.title ?? titleFrom(space!.title, 'Section');
      await insertSection(tx, organizationId, {
        id,
        siteId: site.id,
        title,
        icon: body.icon ?? null,
        path: uniqueSlug(slugify(title, 'section'), paths),
        position,
        groupId,
        draft: body.draft ?? false,
      });
      await insertSiteSpaces(tx, site, id, [space!], new Set(), 0);
    },
    presentSectionNamed(id),
  );
}

export async function editSection(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  sectionId: string,
  body: UpdateSectionBody,
): Promise<SiteSection> {
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Changing a section',
    async ({ tx, site, structure }) => {
      const section = sectionOf(structure, sectionId);
      const changes: Updateable<SiteSectionsTable> = {};
      if (body.title !== undefined) changes.title = body.title;
      if (body.icon !== undefined) changes.icon = body.icon;
      if (body.description !== undefined) changes.description = body.description;
      if (body.draft === true && structure.defaultSection?.id === sectionId) {
        throw new BadRequestError(
          'body/draft: the site’s default section cannot be a draft; make another the default first',
        );
      }
      if (body.draft !== undefined) changes.draft = body.draft;
      if (body.path !== undefined && body.path !== section.path) {
        if (structure.sections.some((other) => other.path === body.path)) {
          throw new ConflictError(`body/path: another section of the site has the path "${body.path}"`);
        }
        changes.path = body.path;
      }
      if (body.condition !== undefined) {
        if (body.condition !== null)
          await checkCondition(context, body.condition, site.adaptive_schema, 'body/condition');
        changes.condition = body.condition;
      }
      if (body.defaultSiteSpace !== undefined) {
        if (!siteSpacesIn(structure, sectionId).some((siteSpace) => siteSpace.id === body.defaultSiteSpace)) {
          throw new BadRequestError(`body/defaultSiteSpace: no site space "${body.defaultSiteSpace}" in this section`);
        }
        changes.default_site_space_id = body.defaultSiteSpace;
      }
      await updateSection(tx, organizationId, sectionId, changes);
      // 0.202.0's way into and out of a group, beside addSectionToGroup and removeSectionFromGroup.
      if (body.siteSectionGroupId !== undefined) {
        if (body.siteSectionGroupId !== null) groupIn(structure, body.siteSectionGroupId);
        await writeOrderings(tx, organizationId, planSectionInto(structure, sectionId, body.siteSectionGroupId));
      }
    },
    presentSectionNamed(sectionId),
  );
}

/** Deletes a section with its site spaces; the site's next section becomes the default when it was. */
export async function removeSection(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  sectionId: string,
): Promise<void> {
  await editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Deleting a section',
    async ({ tx, structure }: StructureEdit) => {
      sectionOf(structure, sectionId);
      await deleteSection(tx, organizationId, sectionId);
      // Without sections, a site has no groups either: they could only be empty, and nothing would show them.
      if (structure.sections.length === 1) {
        await deleteGroupsOfSite(tx, organizationId, siteId);
      }
    },
    () => undefined,
  );
}

export async function moveSection(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  sectionId: string,
  body: MoveSectionBody,
): Promise<SiteSection> {
  const pointer = (given: { siteSection: string } | undefined) =>
    given && { type: 'site-section' as const, id: given.siteSection };
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Moving a section',
    async ({ tx, structure }) => {
      sectionOf(structure, sectionId);
      const orderings = planMove(
        structure,
        { type: 'site-section', id: sectionId },
        { before: pointer(body.position?.before), after: pointer(body.position?.after) },
        'body',
      );
      await writeOrderings(tx, organizationId, orderings);
    },
    presentSectionNamed(sectionId),
  );
}
