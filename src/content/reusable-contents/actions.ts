import { NotFoundError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { evaluateExpressions, MAX_EVALUATED_LENGTH } from '../../document/index.js';
import {
  presentReusableContent,
  type ReusableContentState,
  type RevisionReusableContent,
} from '../reusable-contents.js';
import { targetOf, type ContentLocator, type ContentTarget } from '../actions.js';

const EMPTY_DOCUMENT_JSON = JSON.stringify({ object: 'document', data: {}, nodes: [] });

async function reusableContentIn(
  context: Context,
  target: ContentTarget,
  reusableContentId: string,
): Promise<ReusableContentState> {
  const found = (await context.content.reusableContents(target.point)).get(reusableContentId);
  if (!found) throw new NotFoundError('No reusable content with this id in this revision');
  return found;
}

/**
 * One reusable content of the revision the locator names, read as the other
 * content reads are: the current revision is the published side, a change
 * request's and older revisions are for members.
 */
export async function readReusableContent(
  context: Context,
  userId: string,
  locator: ContentLocator,
  reusableContentId: string,
): Promise<RevisionReusableContent> {
  const target = await targetOf(context, userId, locator);
  return presentReusableContent(await reusableContentIn(context, target, reusableContentId));
}

/**
 * A reusable content's document, as JSON text. `evaluated` replaces its
 * expressions of the space's variables by their values (a reusable content
 * belongs to no page, so `page.vars` expressions stay as written), within
 * the same bound as a page's; the answer is made once per revision.
 */
export async function readReusableContentDocument(
  context: Context,
  userId: string,
  locator: ContentLocator,
  reusableContentId: string,
  evaluated: boolean,
): Promise<string> {
  const target = await targetOf(context, userId, locator);
  const content = await reusableContentIn(context, target, reusableContentId);
  const { point, place } = target;
  const form = `reusable-document${evaluated ? '|evaluated' : ''}`;
  return context.content.pageAnswer(point, place, `reusable:${reusableContentId}`, form, async () => {
    if (!content.documentId) return EMPTY_DOCUMENT_JSON;
    if (evaluated) {
      const markdown = (await context.content.markdownOf(point.organizationId, [content]))(content);
      const result = evaluateExpressions(
        markdown,
        { space: point.variables, page: {} },
        { maxLength: MAX_EVALUATED_LENGTH, field: `reusable content ${reusableContentId}` },
      );
      // The stored document is made when written; only markdown an evaluation changed is converted here.
      if (result !== markdown)
        return context.conversions.toDocumentJson(
          result,
          `the evaluated markdown of reusable content ${reusableContentId}`,
        );
    }
    return JSON.stringify((await context.content.documentsOf(point.organizationId, [content]))(content));
  });
}
