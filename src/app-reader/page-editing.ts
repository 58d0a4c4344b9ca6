import { createHash } from 'node:crypto';
import type { Caller } from '../access/auth.js';
import { findEditableSpace } from '../access/spaces.js';
import { ApiError, NotFoundError } from '../core/errors.js';
import { changeRequestIn } from '../content/change-request-access.js';
import { pageAppUrl } from '../content/page-present.js';
import type { ContentTree } from '../content/tree.js';
import type { Context } from '../context.js';
import { createChangeRequest } from '../change-requests/actions.js';
import { writeChangeRequestContent } from '../change-requests/changes/write.js';
import type { ContentChange } from '../change-requests/schemas.js';
import { findOwnWorkableChangeRequest } from './queries.js';
import { changeRequestAddress } from './change-request-addresses.js';
import { layoutFrontmatter, lookOf, type PageLook } from './page-look.js';

/** A page of a change request, as the address of its editor names it. */
export interface EditAddress {
  organizationId: string;
  spaceId: string;
  /** The change request's id or number. */
  changeRequest: string;
  pageId: string;
}

/** A page as its editor shows it: what it was read from, and `base`, which a save must still find there. */
export interface PageDraft {
  space: { id: string; title: string; organizationId: string };
  changeRequest: { id: string; number: number; subject: string; status: string };
  page: { id: string; title: string; description: string; hidden: boolean; look: PageLook };
  markdown: string;
  base: string;
  /** The change request's revision the page was read from. */
  revisionId: string;
  /** The page in the change request, as the app reads it. */
  readUrl: string;
  /** This editor's address. */
  editUrl: string;
  /** The pages it may move beside or into, in reading order: every other but its own subpages. */
  places: PagePlace[];
  /** The pages a link may name, in reading order: every other, its own subpages too. */
  linkable: PagePlace[];
}

/** A page of the space's tree, where it sits. */
export interface PagePlace {
  id: string;
  title: string;
  depth: number;
}

/** What a writer sends: the page's fields and markdown, and the base they were edited from. */
export interface PageEdit {
  title: string;
  description: string;
  hidden: boolean;
  markdown: string;
  base: string;
  /** The change request's revision the writer's version started from: what a merge with a version saved since starts from. */
  from?: string | undefined;
  /** The page's emoji, icon and layout, where the form sent its settings: a form without them leaves them as they are. */
  look?: PageLook | undefined;
}

/** The page as saved, as the editor's form starts with it. */
export const asEdit = (draft: PageDraft): PageEdit => ({
  title: draft.page.title,
  description: draft.page.description,
  hidden: draft.page.hidden,
  markdown: draft.markdown,
  base: draft.base,
  from: draft.revisionId,
  look: draft.page.look,
});

/** How many times a save is tried again when another write of the change request (of another page) came between. */
const SAVE_ATTEMPTS = 3;
const WORKABLE = new Set(['draft', 'open']);

/** The space, when the caller may edit it and it is the organization's the address names. */
export async function editableSpace(context: Context, caller: Caller, organizationId: string, spaceId: string) {
  const { space } = await findEditableSpace(context, spaceId, caller.userId, 'Editing a page');
  if (space.organization_id !== organizationId) throw new NotFoundError('No space with this id is visible to you');
  return space;
}

/** What the saved page is compared by: its fields the editor shows, and its markdown. */
const baseOf = (page: PageDraft['page'], markdown: string) =>
  createHash('sha256')
    .update(JSON.stringify([page.title, page.description, page.hidden, page.look]))
    .update('\0')
    .update(markdown)
    .digest('hex');

/**
 * The change request to edit a page of the space's current content in: the
 * caller's own newest that is still a draft or open, or a new one named after
 * the page. Answers its number.
 */
export async function changeRequestToEdit(
  context: Context,
  caller: Caller,
  organizationId: string,
  spaceId: string,
  pageId: string,
): Promise<number> {
  const space = await editableSpace(context, caller, organizationId, spaceId);
  const point = await context.content.revision(space.id, space.organization_id, space.revision_id);
  const page = point && (await context.content.tree(point)).pages.get(pageId);
  if (!page || page.type !== 'document') throw new NotFoundError('No page with this id to edit in this space');
  const own = await findOwnWorkableChangeRequest(context.db, space.id, caller.userId);
  if (own) return own.number;
  const made = await createChangeRequest(context, caller.userId, space.id, { subject: `Edit ${page.title}` });
  return made.number;
}

/** The page as the change request has it now, to edit. */
export async function pageDraft(context: Context, caller: Caller, address: EditAddress): Promise<PageDraft> {
  const space = await editableSpace(context, caller, address.organizationId, address.spaceId);
  const changeRequest = await changeRequestIn(context, space.id, address.changeRequest);
  const point = await context.content.revision(space.id, space.organization_id, changeRequest.revision_id);
  const tree = point && (await context.content.tree(point));
  const page = tree?.pages.get(address.pageId);
  if (!tree || !page || page.type !== 'document') {
    throw new NotFoundError('No page with this id to edit in this change request');
  }
  const place = { organizationId: space.organization_id, spaceId: space.id, changeRequestId: changeRequest.id };
  const markdown = (await context.content.markdownOf(space.organization_id, [page]))(page);
  const fields = {
    id: page.pageId,
    title: page.title,
    description: page.description ?? '',
    hidden: page.hidden,
    look: lookOf(page),
  };
  return {
    space: { id: space.id, title: space.title, organizationId: space.organization_id },
    changeRequest: {
      id: changeRequest.id,
      number: changeRequest.number,
      subject: changeRequest.subject,
      status: changeRequest.status,
    },
    page: fields,
    markdown,
    base: baseOf(fields, markdown),
    revisionId: changeRequest.revision_id,
    readUrl: pageAppUrl(context.urls, place, tree.pathOf(page.pageId)),
    places: pagesInOrder(tree, page.pageId, { withSubpages: false }),
    linkable: pagesInOrder(tree, page.pageId, { withSubpages: true }),
    editUrl: changeRequestAddress(
      context,
      { organizationId: space.organization_id, spaceId: space.id, changeRequest: changeRequest.number },
      'edit',
      page.pageId,
    ),
  };
}

/**
 * Saves a page's fields and markdown into the change request, as one content
 * write made on the revision it was compared on: when the page changed since
 * the writer's base (another writer saved it), nothing is written and the
 * page as it is now comes back, for the writer to merge by hand. A write of
 * another page in between only makes the save try again.
 */
export function savePage(context: Context, caller: Caller, address: EditAddress, edit: PageEdit) {
  return writeOnBase(context, caller, address, edit.base, [
    {
      operation: 'update_page',
      page: address.pageId,
      title: edit.title,
      description: edit.description,
      hidden: edit.hidden,
      ...(edit.look ? { emoji: edit.look.emoji, icon: edit.look.icon } : {}),
      // The layout goes in as Git Sync's frontmatter, unless the writer wrote a frontmatter of their own.
      document: {
        markdown:
          edit.look && !edit.markdown.startsWith('---') ? layoutFrontmatter(edit.look) + edit.markdown : edit.markdown,
      },
    },
  ]);
}

/** Deletes the page (and its subpages) from the change request, unless it changed since the writer's base. */
export function deletePage(context: Context, caller: Caller, address: EditAddress, base: string) {
  return writeOnBase(context, caller, address, base, [{ operation: 'delete_page', page: address.pageId }]);
}

async function writeOnBase(
  context: Context,
  caller: Caller,
  address: EditAddress,
  base: string,
  changes: ContentChange[],
): Promise<{ saved: true; changeRequest: number } | { saved: false; current: PageDraft }> {
  for (let attempt = 1; ; attempt++) {
    const current = await pageDraft(context, caller, address);
    requireWorkable(current);
    if (current.base !== base) return { saved: false, current };
    try {
      await writeChangeRequestContent(
        context,
        { ...writeTarget(current, caller), expectedRevisionId: current.revisionId },
        changes,
      );
      return { saved: true, changeRequest: current.changeRequest.number };
    } catch (error) {
      if (!(error instanceof ApiError && error.statusCode === 412) || attempt >= SAVE_ATTEMPTS) throw error;
    }
  }
}

/** The change request's content tree at the revision the draft was read from. */
export async function changeRequestTree(context: Context, draft: PageDraft): Promise<ContentTree> {
  const point = await context.content.revision(draft.space.id, draft.space.organizationId, draft.revisionId);
  if (!point) throw new NotFoundError('No revision');
  return context.content.tree(point);
}

/**
 * Adds a page to the change request, below `draft`'s page (`into`) or after
 * it: its id, to open its editor.
 */
export async function addPage(
  context: Context,
  caller: Caller,
  draft: PageDraft,
  page: { title: string; below: boolean },
): Promise<string> {
  requireWorkable(draft);
  const tree = await changeRequestTree(context, draft);
  const here = tree.pages.get(draft.page.id)!;
  const into = page.below ? here.pageId : here.parentId;
  const siblings = tree.childrenOf(into);
  const at = page.below ? siblings.length : siblings.findIndex((sibling) => sibling.pageId === here.pageId) + 1;
  // Added pages conflict with no one's: written on whatever the change request has now.
  const written = await writeChangeRequestContent(context, writeTarget(draft, caller), [
    {
      operation: 'insert_page',
      title: page.title,
      ...(into ? { into } : {}),
      at,
      document: { markdown: '' },
    },
  ]);
  const created = written.outcomes.find((outcome) => outcome.object === 'created_page');
  if (!created) throw new Error('An inserted page was not created');
  return created.page;
}

/** The pages of the tree in reading order with their depth, but `pageId` (and, unless asked for, its subpages). */
function pagesInOrder(tree: ContentTree, pageId: string, { withSubpages }: { withSubpages: boolean }): PagePlace[] {
  const places: PagePlace[] = [];
  const visit = (parentId: string | null, depth: number) => {
    for (const child of tree.childrenOf(parentId)) {
      if (child.pageId === pageId) {
        if (withSubpages) visit(child.pageId, depth + 1);
        continue;
      }
      places.push({ id: child.pageId, title: child.title, depth });
      visit(child.pageId, depth + 1);
    }
  };
  visit(null, 0);
  return places;
}

/** Where a page goes beside another: before it, after it, or inside it at its end. */
export type MovePlace = 'before' | 'after' | 'inside';

/**
 * Moves the page (with its subpages) in the change request: before or after
 * `target`, or inside it at its end (`target` null: the top level's end).
 */
export async function movePage(
  context: Context,
  caller: Caller,
  draft: PageDraft,
  move: { target: string | null; where: MovePlace },
): Promise<void> {
  requireWorkable(draft);
  const tree = await changeRequestTree(context, draft);
  const target = move.target === null ? undefined : tree.pages.get(move.target);
  if (move.target !== null && !target) throw new NotFoundError('No such page to move beside or into');
  const inside = move.where === 'inside' || !target;
  const into = inside ? (target?.pageId ?? null) : target.parentId;
  const siblings = tree.childrenOf(into).filter((sibling) => sibling.pageId !== draft.page.id);
  const beside = inside ? -1 : siblings.findIndex((sibling) => sibling.pageId === target.pageId);
  const at = inside ? siblings.length : move.where === 'before' ? beside : beside + 1;
  await writeChangeRequestContent(context, writeTarget(draft, caller), [
    { operation: 'update_page', page: draft.page.id, into, at },
  ]);
}

/**
 * Adds a file (an image pasted or dropped in the editor) to the change
 * request's files: the markdown that shows it on the page, an image for an
 * image and a link for anything else, naming it by its id (`/files/<id>`).
 */
export async function addFile(
  context: Context,
  caller: Caller,
  draft: PageDraft,
  file: { name: string; contentType: string; base64: string },
): Promise<string> {
  requireWorkable(draft);
  const written = await writeChangeRequestContent(context, writeTarget(draft, caller), [
    { operation: 'insert_files', files: [file] },
  ]);
  const stored = written.insertedFiles[0];
  if (!stored) throw new Error('An inserted file was not stored');
  const label = stored.name.replace(/[[\]\\]/g, '');
  return stored.contentType.startsWith('image/')
    ? `![${label}](/files/${stored.fileId})`
    : `[${label}](/files/${stored.fileId})`;
}

function writeTarget(draft: PageDraft, caller: Caller) {
  return {
    organizationId: draft.space.organizationId,
    spaceId: draft.space.id,
    changeRequestId: draft.changeRequest.id,
    userId: caller.userId,
  };
}

function requireWorkable(draft: PageDraft): void {
  const { number, status } = draft.changeRequest;
  if (!WORKABLE.has(status)) throw new ApiError(409, `Change request #${number} is ${status}: open another to edit`);
}
