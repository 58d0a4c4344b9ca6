import { NotFoundError } from '../core/errors.js';
import type { Page } from '../core/pagination.js';
import { findSpaceAsMember, findVisibleSpace } from '../access/spaces.js';
import type { SpaceWithAccess } from '../access/space-queries.js';
import { changeRequestIn } from './change-request-access.js';
import { presentChangeRequest } from './change-request-present.js';
import { findChangeRequest } from './change-request-queries.js';
import type { Context } from '../context.js';
import { evaluateExpressions, MAX_EVALUATED_LENGTH, type JSONDocument } from '../document/index.js';
import type { PageTreeBody } from './page-tree-body.js';
import {
  presentFile,
  presentGeneratedPage,
  presentPage,
  type ContentPlace,
  type RevisionFile,
} from './page-present.js';
import { listReusableContents } from './reusable-contents.js';
import type { RevisionPoint } from './state.js';
import type { ContentTree, FileState } from './tree.js';
import { computedViewOf, findGeneratedPage, type ComputedView } from './computed.js';
import { emailVisibilityFor } from '../users/user-queries.js';
import { presentRevision, swapMarkdownForDocument } from './present.js';
import { dereferenceDocument, dereferenceMarkdown, dereferences, type Dereferenced } from './dereference.js';
import { includedDocuments, includedMarkdown } from './included-contents.js';

/**
 * Which revision a content read is about, as the route names it: the space's
 * current one, a change request's newest one, or any revision by id. The
 * share key opens a share-link space's published side; a change request's
 * content is unpublished, so it takes none.
 */
export type ContentLocator =
  | { spaceId: string; shareKey: string | undefined }
  | { spaceId: string; changeRequestId: string }
  | { spaceId: string; revisionId: string; shareKey: string | undefined };

/** The revision a content read is about, where its pages live, and who reads it. */
export interface ContentTarget {
  space: SpaceWithAccess;
  point: RevisionPoint;
  place: ContentPlace;
  readerId: string;
}

async function revisionOf(context: Context, space: SpaceWithAccess, revisionId: string): Promise<RevisionPoint> {
  const point = await context.content.revision(space.id, space.organization_id, revisionId);
  if (!point) throw new NotFoundError('No revision with this id in the space');
  return point;
}

function placeOf(space: SpaceWithAccess, changeRequestId: string | null): ContentPlace {
  return { organizationId: space.organization_id, spaceId: space.id, changeRequestId };
}

/**
 * The revision the locator names, once the caller may read it: the current
 * revision is the published side, which visibility opens to non-members; a
 * change request's is unpublished work, for members only; any revision by id
 * is for members, and to others only the current one, which is all that is
 * published.
 */
export async function targetOf(context: Context, userId: string, locator: ContentLocator): Promise<ContentTarget> {
  if ('changeRequestId' in locator) {
    const { space } = await findSpaceAsMember(context, locator.spaceId, userId);
    const changeRequest = await changeRequestIn(context, space.id, locator.changeRequestId);
    const point = await revisionOf(context, space, changeRequest.revision_id);
    return { space, point, place: placeOf(space, changeRequest.id), readerId: userId };
  }
  const { space, visitor } = await findVisibleSpace(context, locator.spaceId, userId, { shareKey: locator.shareKey });
  if (!('revisionId' in locator)) {
    const point = await revisionOf(context, space, space.revision_id);
    return { space, point, place: placeOf(space, null), readerId: userId };
  }
  // The same answer as an unknown id: an older or a change request's revision is not there for a visitor.
  if (visitor && locator.revisionId !== space.revision_id)
    throw new NotFoundError('No revision with this id in the space');
  const point = await revisionOf(context, space, locator.revisionId);
  return { space, point, place: placeOf(space, point.changeRequestId), readerId: userId };
}

/** The name of a revision's file list, which its page cursors carry. */
function filesListOf(locator: ContentLocator): string {
  if ('changeRequestId' in locator) return `files:${locator.spaceId}:${locator.changeRequestId}`;
  if ('revisionId' in locator) return `files:${locator.spaceId}:${locator.revisionId}`;
  return `files:${locator.spaceId}`;
}

const fileUrlOf = (context: Context, file: FileState) =>
  context.fileUrls.sign(file.versionId, file.name, context.clock.now());

/** What `computed=true` shows of the tree's computed pages: undefined when it has none, or with `computed=false`. */
async function computedView(
  context: Context,
  target: ContentTarget,
  tree: ContentTree,
  computed: boolean,
): Promise<ComputedView | undefined> {
  if (!computed) return undefined;
  return computedViewOf(tree, target.point.organizationId, context.specOutlines);
}

/** The revision with its pages, files and variables, as the JSON bytes sent. */
export async function readRevision(
  context: Context,
  userId: string,
  locator: ContentLocator,
  computed = true,
): Promise<Buffer> {
  const target = await targetOf(context, userId, locator);
  const { point, space } = target;
  const tree = await context.content.tree(point);
  const view = await computedView(context, target, tree, computed);
  const pageTree = await context.content.pageTreeBody(point, target.place, view);
  const files = [...tree.files.values()].map((file) => presentFile(file, fileUrlOf(context, file)));
  const reusableContents = listReusableContents(await context.content.reusableContents(point));
  let mergedFrom;
  if (point.type === 'merge' && point.mergedFrom) {
    const changeRequest = await findChangeRequest(context.db, space.id, point.mergedFrom);
    if (changeRequest) {
      const organizationId = space.is_member ? space.organization_id : null;
      const emails = await emailVisibilityFor(context.db, target.readerId, [changeRequest.author_id], organizationId);
      mergedFrom = presentChangeRequest(changeRequest, context.urls, emails);
    }
  }
  return presentRevision(
    { point, space, place: target.place, files, reusableContents, pageTree, mergedFrom },
    context.urls,
  );
}

/** The page tree, each page with its content: prepared once per revision and place. */
export async function readPageTree(
  context: Context,
  userId: string,
  locator: ContentLocator,
  computed = true,
): Promise<PageTreeBody> {
  const target = await targetOf(context, userId, locator);
  const tree = await context.content.tree(target.point);
  const view = await computedView(context, target, tree, computed);
  return context.content.pageTreeBody(target.point, target.place, view);
}

/** The revision's files, oldest first, a page at a time. */
export async function listFiles(
  context: Context,
  userId: string,
  locator: ContentLocator,
  query: { page?: string; limit?: number },
): Promise<Page<RevisionFile>> {
  const target = await targetOf(context, userId, locator);
  const tree = await context.content.tree(target.point);
  const list = filesListOf(locator);
  const request = context.cursors.request(list, { ...query, order: 'asc' });
  const sorted = [...tree.files.values()].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0),
  );
  const after = request.after;
  const start = after
    ? sorted.findIndex(
        (file) =>
          file.createdAt.getTime() > after.createdAt.getTime() ||
          (file.createdAt.getTime() === after.createdAt.getTime() && file.fileId > after.id),
      )
    : 0;
  const rest = start === -1 ? [] : sorted.slice(start);
  const items = rest.slice(0, request.limit);
  const last = items.at(-1);
  return {
    ...(rest.length > items.length && last
      ? { next: { page: context.cursors.encode(list, 'asc', { createdAt: last.createdAt, id: last.fileId }) } }
      : {}),
    count: sorted.length,
    items: items.map((file) => presentFile(file, fileUrlOf(context, file))),
  };
}

/** One file of the revision, with a signed download URL. */
export async function readFile(
  context: Context,
  userId: string,
  locator: ContentLocator,
  fileId: string,
): Promise<RevisionFile> {
  const target = await targetOf(context, userId, locator);
  const file = (await context.content.tree(target.point)).files.get(fileId);
  if (!file) throw new NotFoundError('No file with this id in this revision');
  return presentFile(file, fileUrlOf(context, file));
}

export interface PageForm {
  format: 'document' | 'markdown';
  evaluated: boolean;
  /** false shows computed pages as written, without what their source makes. */
  computed: boolean;
  /** Whether included reusable contents are replaced by their content (absent: not). */
  dereferenced?: Dereferenced;
}

/** One page and its subpages, as JSON text: made once per revision, place, page and form. */
export async function readPage(
  context: Context,
  userId: string,
  locator: ContentLocator,
  pageId: string,
  form: PageForm,
): Promise<string> {
  const target = await targetOf(context, userId, locator);
  return pageAnswer(context, target, pageId, form);
}

/** The page at a complete path (slugs joined by `/`), as `readPage` answers it. */
export async function readPageAtPath(
  context: Context,
  userId: string,
  locator: ContentLocator,
  path: string,
  form: PageForm,
): Promise<string> {
  const target = await targetOf(context, userId, locator);
  const page = (await context.content.tree(target.point)).pageAtPath(path);
  if (!page) throw new NotFoundError('No page at this path in this revision');
  return pageAnswer(context, target, page.pageId, form);
}

async function pageAnswer(context: Context, target: ContentTarget, pageId: string, form: PageForm): Promise<string> {
  // Without computed pages the answer depends on the revision alone, so a kept one is served without its tree:
  // an organization's readers spread over more spaces than the trees the cache holds.
  if (!form.computed || context.content.holdsNoComputedPages(target.point)) {
    const kept = context.content.keptPageAnswer(target.point, target.place, pageId, pageFormKey(form, undefined));
    if (kept !== undefined) return kept;
  }
  const tree = await context.content.tree(target.point);
  const view = await computedView(context, target, tree, form.computed);
  return context.content.pageAnswer(target.point, target.place, pageId, pageFormKey(form, view), () =>
    pageJson(context, target, tree, pageId, form, view),
  );
}

/**
 * What an answer of `pageAnswer` is kept under beside its revision, place and page. Variables belong to the
 * revision and its page versions, so an evaluated answer is as lasting as a plain one; what computed pages
 * show also depends on their specs' versions.
 */
function pageFormKey(form: PageForm, view: ComputedView | undefined): string {
  return [
    form.format,
    form.evaluated ? 'evaluated' : '',
    view ? `computed:${view.key}` : '',
    dereferences(form.dereferenced) ? 'dereferenced' : '',
  ].join('|');
}

/** The markdown of generated pages as JSON documents, by page id, for the `document` form. */
async function generatedDocuments(context: Context, body: Record<string, unknown>, into: Map<string, JSONDocument>) {
  const pending: Array<Record<string, unknown>> = [body];
  while (pending.length > 0) {
    const page = pending.pop()!;
    if (page.computed !== undefined && typeof page.markdown === 'string') {
      const id = page.id as string;
      const json = await context.conversions.toDocumentJson(page.markdown, `the generated content of page ${id}`);
      into.set(id, JSON.parse(json) as JSONDocument);
    }
    pending.push(...((page.pages ?? []) as Array<Record<string, unknown>>));
  }
}

async function pageJson(
  context: Context,
  target: ContentTarget,
  tree: ContentTree,
  pageId: string,
  form: PageForm,
  view: ComputedView | undefined,
): Promise<string> {
  const page = tree.pages.get(pageId);
  if (!page) {
    const generated = view && findGeneratedPage(view, pageId);
    const origin = generated && tree.pages.get(generated.origin);
    if (!generated || !origin) throw new NotFoundError('No page with this id in this revision');
    const path = `${tree.pathOf(origin.pageId)}/${generated.relativePath}`;
    const body = presentGeneratedPage(generated.page, origin, path, context.urls, target.place);
    if (form.format === 'document') {
      const documents = new Map<string, JSONDocument>();
      await generatedDocuments(context, body, documents);
      swapMarkdownForDocument(body, (presented) => documents.get(presented.id as string)!);
    }
    return JSON.stringify(body);
  }
  const subtree = tree.subtreeOf(pageId);
  const markdownOf = await context.content.markdownOf(target.point.organizationId, subtree);
  const dereferenced = dereferences(form.dereferenced);
  // In markdown, included reusable contents are expanded before evaluation, so their expressions are evaluated too.
  const includedText =
    dereferenced && form.format === 'markdown'
      ? await includedMarkdown(context, target.point, subtree.map(markdownOf))
      : undefined;
  const contentOf = (state: typeof page) => {
    const written = markdownOf(state);
    const markdown = includedText
      ? dereferenceMarkdown(written, includedText, { maxLength: MAX_EVALUATED_LENGTH, field: `page ${state.pageId}` })
      : written;
    return form.evaluated
      ? evaluateExpressions(
          markdown,
          { space: target.point.variables, page: state.variables },
          { maxLength: MAX_EVALUATED_LENGTH, field: `page ${state.pageId}` },
        )
      : markdown;
  };
  const body = presentPage(tree, page, contentOf, context.urls, target.place, view?.expansions);
  if (form.format === 'document') {
    const storedDocumentOf = await context.content.documentsOf(target.point.organizationId, subtree);
    const documents = new Map<string, JSONDocument>();
    for (const state of subtree) {
      const markdown = markdownOf(state);
      const evaluated = contentOf(state);
      // Stored documents are made when written; only markdown an evaluation changed is converted here.
      const document =
        evaluated === markdown
          ? storedDocumentOf(state)
          : (JSON.parse(
              await context.conversions.toDocumentJson(evaluated, `the evaluated markdown of page ${state.pageId}`),
            ) as JSONDocument);
      documents.set(state.pageId, document);
    }
    if (dereferenced) {
      const included = await includedDocuments(context, target.point, documents.values());
      for (const [id, document] of documents)
        documents.set(id, dereferenceDocument(document, included, `document of page ${id}`));
    }
    await generatedDocuments(context, body, documents);
    swapMarkdownForDocument(body, (presented) => documents.get(presented.id as string)!);
  }
  return JSON.stringify(body);
}
