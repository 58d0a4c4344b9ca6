import type { Context } from '../../context.js';
import { presentItem } from '../present.js';
import type { SiteExternalLink, SiteSectionGroup, SiteSection, SiteSpace, SortStructureBody } from '../schemas.js';
import { editStructure } from './edit.js';
import { planMove, locate } from './moves.js';
import { writeOrderings } from './queries.js';
import { moveSiteSpaceTo } from '../site-spaces/moves.js';
import { BadRequestError } from '../../core/errors.js';

/**
 * Moves a site space, section, group or external link beside another item of its kind (the
 * one ordering the deprecated `move` operations share); an empty `position`
 * moves it to the end of its list. Answers the moved item.
 */
export async function sortStructure(
  context: Context,
  userId: string,
  organizationId: string,
  siteId: string,
  body: SortStructureBody,
): Promise<SiteSpace | SiteSection | SiteSectionGroup | SiteExternalLink> {
  return editStructure(
    context,
    userId,
    organizationId,
    siteId,
    'Sorting a site’s structure',
    async (edit) => {
      if (!locate(edit.structure, body.item)) {
        throw new BadRequestError(`body/item: the site has no ${body.item.type} "${body.item.id}"`);
      }
      const orderings = planMove(edit.structure, body.item, body.position, 'body');
      if (body.item.type === 'site-space') await moveSiteSpaceTo(edit, body.item.id, orderings);
      else await writeOrderings(edit.tx, organizationId, orderings);
    },
    (view) => presentItem(view, body.item),
  );
}
