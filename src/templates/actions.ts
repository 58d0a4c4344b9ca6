import { findEditableSpace } from '../access/spaces.js';
import { requireWorkable, writeChangeRequestContent, writeSpaceContent } from '../change-requests/changes/write.js';
import { changeRequestIn } from '../content/change-request-access.js';
import { BadRequestError } from '../core/errors.js';
import type { Context } from '../context.js';
import { findSiteAsAdmin } from '../sites/access.js';
import { getCustomization, replaceCustomization } from '../sites/customization/actions.js';
import { addSiteSpace } from '../sites/site-spaces/actions.js';
import { createSpace } from '../spaces/create.js';
import type { SpaceTemplateFiller } from '../spaces/space-templates.js';
import { findTemplate, SITE_TEMPLATE_ID, type SpaceTemplate } from './catalog.js';
import { templateChanges } from './changes.js';
import type { ApplySpaceTemplateBody } from './schemas.js';

function templateOf(id: string): SpaceTemplate {
  const template = findTemplate(id);
  if (!template) throw new BadRequestError(`body/template/id: no built-in template "${id}"`);
  return template;
}

/**
 * Writes a template's pages into the space (after the pages it has, as one
 * new revision of it) or into one of its change requests, as any content
 * write does: the edit role, a live space, a change request still open.
 */
export async function applyTemplateToSpace(
  context: Context,
  userId: string,
  spaceId: string,
  body: ApplySpaceTemplateBody,
): Promise<void> {
  const template = templateOf(body.id);
  const { space } = await findEditableSpace(context, spaceId, userId, 'Applying a template');
  const place = { organizationId: space.organization_id, spaceId: space.id, userId };
  if (body.changeRequestId === undefined) {
    await writeSpaceContent(context, place, templateChanges(template));
    return;
  }
  const changeRequest = await changeRequestIn(context, space.id, body.changeRequestId);
  requireWorkable(changeRequest.status);
  await writeChangeRequestContent(context, { ...place, changeRequestId: changeRequest.id }, templateChanges(template));
}

/** What createSpace's `template` calls: the space was just made by the caller, so no role is checked again. */
export function spaceTemplateFiller(context: Context): SpaceTemplateFiller {
  return {
    has: (templateId) => findTemplate(templateId) !== undefined,
    fill: async (target, templateId) => {
      await writeSpaceContent(context, target, templateChanges(templateOf(templateId)));
    },
  };
}

/**
 * Fills a site with GitBook's default documentation: a new private space of
 * the product-docs template becomes a site space of it (in its default
 * section when it has sections, beside any it has), and a header without
 * links gets one to the quickstart.
 */
export async function applyTemplateToSite(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
): Promise<void> {
  const { site } = await findSiteAsAdmin(context, organizationId, siteId, userId, 'Applying a template to a site');
  const template = templateOf(SITE_TEMPLATE_ID);
  const space = await createSpace(context.db, context.clock, {
    organizationId,
    parentId: null,
    title: site.title.slice(0, 50),
    emoji: null,
    editMode: 'live',
    visibility: 'private',
  });
  const written = await writeSpaceContent(
    context,
    { organizationId, spaceId: space.id, userId },
    templateChanges(template),
  );
  await addSiteSpace(context, userId, organizationId, siteId, { spaceId: space.id });
  const quickstart = written.outcomes.find(
    (outcome) => outcome.object === 'created_page' && outcome.ref === 'quickstart',
  );
  const settings = await getCustomization(context, userId, organizationId, siteId);
  if (!quickstart || settings.header.links.length > 0) return;
  await replaceCustomization(context, userId, organizationId, siteId, {
    ...settings,
    header: {
      ...settings.header,
      links: [{ title: 'Quickstart', to: { kind: 'page', page: quickstart.page, space: space.id }, links: [] }],
    },
  });
}
