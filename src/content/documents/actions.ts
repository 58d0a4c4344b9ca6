import { NotFoundError } from '../../core/errors.js';
import { findVisibleSpace } from '../../access/spaces.js';
import type { Context } from '../../context.js';
import { evaluateExpressions, MAX_EVALUATED_LENGTH, type JSONDocument } from '../../document/index.js';
import { targetOf, type ContentLocator } from '../actions.js';
import { dereferenceDocument, dereferences, type Dereferenced } from '../dereference.js';
import { includedDocuments } from '../included-contents.js';
import { isDocumentOfSpace } from './queries.js';

const documentNotFound = () => new NotFoundError('No document with this id in the space');

/**
 * A document of the space, by its id, as JSON text. Members read any document
 * written in the space (its change requests' too, which they may read);
 * visitors of a published space only those its current revision holds, in a
 * page or a reusable content, as they read only that revision.
 */
export async function readDocumentById(
  context: Context,
  userId: string,
  locator: { spaceId: string; shareKey: string | undefined },
  documentId: string,
): Promise<string> {
  const { space, visitor } = await findVisibleSpace(context, locator.spaceId, userId, { shareKey: locator.shareKey });
  if (visitor) {
    const point = await context.content.revision(space.id, space.organization_id, space.revision_id);
    if (!point) throw documentNotFound();
    const tree = await context.content.tree(point);
    const contents = await context.content.reusableContents(point);
    const held = (holders: Iterable<{ documentId: string | null }>) =>
      [...holders].some((holder) => holder.documentId === documentId);
    if (!held(tree.pages.values()) && !held(contents.values())) throw documentNotFound();
  } else if (!(await isDocumentOfSpace(context.db, space.organization_id, space.id, documentId))) {
    throw documentNotFound();
  }
  const documentOf = await context.content.documentsOf(space.organization_id, [{ documentId }]);
  return JSON.stringify(documentOf({ documentId }));
}

export interface PageDocumentForm {
  evaluated: boolean;
  dereferenced: Dereferenced;
}

/**
 * A page's document in a revision, as JSON text: evaluated (its variables
 * replaced, the markdown converted again where that changed it) and
 * dereferenced (included reusable contents expanded) as asked; made once per
 * revision, page and form.
 */
export async function readPageDocument(
  context: Context,
  userId: string,
  locator: ContentLocator,
  pageId: string,
  form: PageDocumentForm,
): Promise<string> {
  const target = await targetOf(context, userId, locator);
  const { point, place } = target;
  const page = (await context.content.tree(point)).pages.get(pageId);
  if (!page) throw new NotFoundError('No page with this id in this revision');
  const dereferenced = dereferences(form.dereferenced);
  const formKey = `page-document|${form.evaluated ? 'evaluated' : ''}|${dereferenced ? 'dereferenced' : ''}`;
  return context.content.pageAnswer(point, place, pageId, formKey, async () => {
    let document: JSONDocument = (await context.content.documentsOf(point.organizationId, [page]))(page);
    if (form.evaluated && page.documentId) {
      const markdown = (await context.content.markdownOf(point.organizationId, [page]))(page);
      const evaluated = evaluateExpressions(
        markdown,
        { space: point.variables, page: page.variables },
        { maxLength: MAX_EVALUATED_LENGTH, field: `page ${pageId}` },
      );
      // The stored document is made when written; only markdown an evaluation changed is converted here.
      if (evaluated !== markdown)
        document = JSON.parse(
          await context.conversions.toDocumentJson(evaluated, `the evaluated markdown of page ${pageId}`),
        ) as JSONDocument;
    }
    if (dereferenced) {
      const included = await includedDocuments(context, point, [document]);
      document = dereferenceDocument(document, included, `document of page ${pageId}`);
    }
    return JSON.stringify(document);
  });
}
