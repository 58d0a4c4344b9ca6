import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Context } from '../../context.js';
import { findSiteAsAdmin, lockSite } from '../access.js';
import { updateSite } from '../queries.js';
import { checkCondition } from '../adaptive/conditions.js';
import { presentItem } from '../present.js';
import type { SiteExternalLink } from '../schemas.js';
import { editStructure, type StructureEdit } from '../structure/edit.js';
import { hasSections, nextEntryPosition } from '../structure/tree.js';
import type { AddExternalLinkBody, UpdateExternalLinkBody } from './schemas.js';
import { deleteExternalLink, insertExternalLink, updateExternalLink, type LinkChanges } from './queries.js';

/** Links a site may hold: its structure is read whole for every view (see structure/limits.ts). */
export const MAX_LINKS_PER_SITE = 100;

const linkNotFound = () => new NotFoundError('No external link with this id in the site');

/** An absolute http(s) address: the reader puts it in an `href`, so nothing that runs script or opens a file. */
function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BadRequestError('body/url must be an absolute http or https address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BadRequestError('body/url must be an absolute http or https address');
  }
  return url;
}

/** The group a link goes in (null: the root); links sit beside sections, never inside one. */
function checkedParent(edit: StructureEdit, parent: string | null): string | null {
  if (parent !== null && !edit.structure.groups.has(parent)) {
    throw new BadRequestError(`body/parent: the site has no section group "${parent}"`);
  }
  return parent;
}

async function checkedCondition(context: Context, edit: StructureEdit, condition: string | null | undefined) {
  if (condition === undefined) return undefined;
  if (condition === null || condition === '') return null;
  await checkCondition(context, condition, edit.site.adaptive_schema, 'body/condition');
  return condition;
}

const presentLink = (id: string) => (view: Parameters<typeof presentItem>[0]) =>
  presentItem(view, { type: 'site-external-link', id });

/** Adds a link at the end of the site's root, or of a section group. */
export async function addExternalLink(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  body: AddExternalLinkBody,
): Promise<SiteExternalLink> {
  const id = newId();
  const url = checkedUrl(body.url);
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Adding an external link',
    async (edit) => {
      if (!hasSections(edit.structure)) {
        throw new BadRequestError(
          'External links go beside sections: this site publishes its spaces without sections; add a section first',
        );
      }
      if (edit.structure.links.size >= MAX_LINKS_PER_SITE) {
        throw new ConflictError(`A site holds at most ${MAX_LINKS_PER_SITE} external links; remove one first`);
      }
      const groupId = checkedParent(edit, body.parent ?? null);
      await insertExternalLink(
        edit.tx,
        organizationId,
        siteId,
        {
          id,
          group_id: groupId,
          title: body.title,
          localized_title: body.localizedTitle ?? null,
          description: body.description ?? null,
          localized_description: body.localizedDescription ?? null,
          icon: body.icon ?? null,
          url,
          draft: body.draft ?? false,
          condition: (await checkedCondition(context, edit, body.condition)) ?? null,
          position: nextEntryPosition(edit.structure, groupId),
        },
        context.clock.now(),
      );
    },
    presentLink(id),
  );
}

/** Changes what is given; a new `parent` puts the link at the end of that group (null: the root). */
export async function editExternalLink(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  linkId: string,
  body: UpdateExternalLinkBody,
): Promise<SiteExternalLink> {
  const url = body.url === undefined ? undefined : checkedUrl(body.url);
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Changing an external link',
    async (edit) => {
      const link = edit.structure.links.get(linkId);
      if (!link) throw linkNotFound();
      const changes: LinkChanges = { updated_at: context.clock.now() };
      if (body.parent !== undefined) {
        const groupId = checkedParent(edit, body.parent);
        if (groupId !== link.group_id) {
          changes.group_id = groupId;
          changes.position = nextEntryPosition(edit.structure, groupId);
        }
      }
      if (body.title !== undefined) changes.title = body.title;
      if (body.localizedTitle !== undefined) changes.localized_title = body.localizedTitle;
      if (body.description !== undefined) changes.description = body.description;
      if (body.localizedDescription !== undefined) changes.localized_description = body.localizedDescription;
      if (body.icon !== undefined) changes.icon = body.icon;
      if (url !== undefined) changes.url = url;
      if (body.draft !== undefined) changes.draft = body.draft;
      const condition = await checkedCondition(context, edit, body.condition);
      if (condition !== undefined) changes.condition = condition;
      await updateExternalLink(edit.tx, organizationId, siteId, linkId, changes);
    },
    presentLink(linkId),
  );
}

/**
 * Deletes a link: true when there was one (205), false when there was none
 * (204), as the spec answers. Only a deletion moves the site's `updated_at`
 * and drops this instance's cached structures of it.
 */
export async function removeExternalLink(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  linkId: string,
): Promise<boolean> {
  await findSiteAsAdmin(context, organizationId, siteId, userId, 'Deleting an external link');
  const deleted = await context.db.transaction().execute(async (tx) => {
    await lockSite(tx, organizationId, siteId);
    const gone = await deleteExternalLink(tx, organizationId, siteId, linkId);
    if (gone) await updateSite(tx, organizationId, siteId, { updated_at: context.clock.now() });
    return gone;
  });
  if (deleted) context.siteStructures.invalidate(siteId);
  return deleted;
}
