import type { Updateable } from 'kysely';
import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import type { Page } from '../../core/pagination.js';
import type { SiteSpacesTable } from '../../db/types.js';
import type { Context } from '../../context.js';
import { findSiteAsMember } from '../access.js';
import { spacesOfOrganization } from '../actions.js';
import { checkCondition } from '../adaptive/conditions.js';
import { presentItem, presentSiteSpace, type StructureView } from '../present.js';
import type {
  AddSiteSpaceBody,
  ListSiteSpacesQuery,
  MoveSiteSpaceBody,
  SiteSpace,
  UpdateSiteSpaceBody,
} from '../schemas.js';
import { editStructure } from '../structure/edit.js';
import { requireRoom, SITE_LIMITS } from '../structure/limits.js';
import { planMove } from '../structure/moves.js';
import { pageOfOrdered } from '../structure/pages.js';
import { deleteSiteSpace, insertSiteSpaces, updateSiteSpace } from './queries.js';
import {
  allSiteSpaces,
  hasSections,
  nextSiteSpacePosition,
  siteSpacesIn,
  storedIn,
  type Structure,
} from '../structure/tree.js';
import { memberView, validShareKey } from '../structure/view.js';
import { moveSiteSpaceTo, requireSpaceAbsent } from './moves.js';

const siteSpaceNotFound = () => new NotFoundError('No site space with this id in the site');

/** The site space of the structure with this id, or 404. */
export function siteSpaceOf(structure: Structure, siteSpaceId: string) {
  const siteSpace = allSiteSpaces(structure).find((s) => s.id === siteSpaceId);
  if (!siteSpace) throw siteSpaceNotFound();
  return siteSpace;
}

const presentSiteSpaceNamed = (id: string) => (view: StructureView) => presentItem(view, { type: 'site-space', id });

export async function listSiteSpaces(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  query: ListSiteSpacesQuery,
): Promise<Page<SiteSpace>> {
  const { site, member } = await findSiteAsMember(context, organizationId, siteId, userId);
  const view = await memberView(context, site, member, await validShareKey(context, site, query.shareKey));
  const isDefault = (id: string, sectionId: string | null) => view.structure.defaultSiteSpace.get(sectionId)?.id === id;
  const siteSpaces = allSiteSpaces(view.structure).filter(
    (row) => query.default === undefined || isDefault(row.id, row.section_id) === query.default,
  );
  const page = pageOfOrdered(
    context.cursors,
    `site-spaces:${site.id}:${String(query.default ?? '')}`,
    query,
    siteSpaces,
    (row) => row.id,
  );
  return { ...page, items: page.items.map((row) => presentSiteSpace(view, row)) };
}

/** Adds a space to a section, or without one to the default section (the root when the site has no sections). */
export async function addSiteSpace(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  body: AddSiteSpaceBody,
): Promise<SiteSpace> {
  let id = '';
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Adding a space to a site',
    async ({ tx, site, structure }) => {
      let sectionId: string | null = null;
      if (body.sectionId !== undefined) {
        if (!structure.sections.some((section) => section.id === body.sectionId)) {
          throw new BadRequestError(`body/sectionId: the site has no section "${body.sectionId}"`);
        }
        sectionId = body.sectionId;
      } else if (hasSections(structure)) {
        sectionId = structure.defaultSection!.id;
      }
      requireRoom(allSiteSpaces(structure).length, SITE_LIMITS.siteSpaces, 'site spaces');
      requireRoom(siteSpacesIn(structure, sectionId).length, SITE_LIMITS.siteSpacesPerList, 'site spaces in a section');
      const [space] = await spacesOfOrganization(tx, organizationId, [body.spaceId], 'body/spaceId');
      requireSpaceAbsent(structure, sectionId, space!.id, listName(sectionId));
      const taken = new Set(storedIn(structure, sectionId).map((row) => row.path));
      const position = nextSiteSpacePosition(structure, sectionId);
      [id] = (await insertSiteSpaces(tx, site, sectionId, [space!], taken, position, {
        draft: body.draft ?? false,
      })) as [string];
    },
    (view) => presentItem(view, { type: 'site-space', id }),
  );
}

const listName = (sectionId: string | null) => (sectionId === null ? 'at the site’s root' : 'in this section');

export async function editSiteSpace(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  body: UpdateSiteSpaceBody,
): Promise<SiteSpace> {
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Changing a site space',
    async ({ tx, site, structure }) => {
      const siteSpace = siteSpaceOf(structure, siteSpaceId);
      const changes: Updateable<SiteSpacesTable> = {};
      if (body.path !== undefined && body.path !== siteSpace.path) {
        if (storedIn(structure, siteSpace.section_id).some((row) => row.path === body.path)) {
          throw new ConflictError(`body/path: another site space beside it has the path "${body.path}"`);
        }
        changes.path = body.path;
      }
      if (body.condition !== undefined) {
        if (body.condition !== null)
          await checkCondition(context, body.condition, site.adaptive_schema, 'body/condition');
        changes.condition = body.condition;
      }
      if (body.spaceId !== undefined && body.spaceId !== siteSpace.space.id) {
        const [space] = await spacesOfOrganization(tx, organizationId, [body.spaceId], 'body/spaceId');
        requireSpaceAbsent(structure, siteSpace.section_id, space!.id, listName(siteSpace.section_id));
        changes.space_id = space!.id;
      }
      if (body.draft === true && structure.defaultSiteSpace.get(siteSpace.section_id)?.id === siteSpaceId) {
        throw new BadRequestError(
          `body/draft: the default site space ${listName(siteSpace.section_id)} cannot be a draft; make another the default first`,
        );
      }
      if (body.draft !== undefined) changes.draft = body.draft;
      if (body.hidden !== undefined) changes.hidden = body.hidden;
      await updateSiteSpace(tx, organizationId, siteSpaceId, changes);
    },
    presentSiteSpaceNamed(siteSpaceId),
  );
}

export async function removeSiteSpace(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
): Promise<void> {
  await editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Removing a space from a site',
    async ({ tx, structure }) => {
      siteSpaceOf(structure, siteSpaceId);
      await deleteSiteSpace(tx, organizationId, siteSpaceId);
    },
    () => undefined,
  );
}

export async function moveSiteSpace(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  body: MoveSiteSpaceBody,
): Promise<SiteSpace> {
  const pointer = (given: { siteSpace: string } | undefined) =>
    given && { type: 'site-space' as const, id: given.siteSpace };
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Moving a site space',
    async (edit) => {
      siteSpaceOf(edit.structure, siteSpaceId);
      const orderings = planMove(
        edit.structure,
        { type: 'site-space', id: siteSpaceId },
        { before: pointer(body.position?.before), after: pointer(body.position?.after) },
        'body',
      );
      await moveSiteSpaceTo(edit, siteSpaceId, orderings);
    },
    presentSiteSpaceNamed(siteSpaceId),
  );
}
