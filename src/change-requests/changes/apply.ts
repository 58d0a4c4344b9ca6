import { generateKeyBetween } from 'fractional-indexing';
import { BadRequestError, ConflictError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { ContentTree, FileState, PageState } from '../../content/tree.js';
import type { ComputedSource } from '../../db/types.js';
import type { ContentChange, InsertPage, UpdatePage } from '../schemas.js';
import type { PreparedFile } from './files.js';
import { LinkResolver, resolveLinks, type BatchRefs, type UnresolvedLink } from './links.js';
import { readPageFields, type NewContent, type PageContent, type PageFields } from './page-input.js';
import { slugify, uniqueSlug } from '../../core/slug.js';
import { setPageVariables } from './variables.js';
import { checkLinkPages, checkParentKind, insertedKind, updatedKind } from './page-kinds.js';
import { isBackToBase, revertPage, type RevertSources } from './revert.js';
import { resolveCoverFile, resolveFileNames } from './file-refs.js';
import { coverOf } from '../../content/page-layout.js';

/** What the batch did to one page, for the `compat=false` answer. */
export type PageOutcome =
  | { object: 'created_page'; page: string; ref?: string }
  | { object: 'updated_page'; page: string }
  | { object: 'deleted_page'; page: string };

export interface AppliedBatch {
  /** The tree as the batch leaves it (the start tree's copy, changed). */
  tree: ContentTree;
  /** Pages the batch changed, with their new state, or null where it removed them. */
  pages: Map<string, PageState | null>;
  /** New markdown, by the id of the document to hold it. */
  documents: Map<string, string>;
  files: PreparedFile[];
  outcomes: PageOutcome[];
  /** Pages a revert brought back to the change request's base: in `pages` with the base's version, which stays. */
  backToBase: Set<string>;
  /** The links of each new document that name a page no path answers to yet, by the document's id. */
  unresolved: Map<string, { pageId: string; links: UnresolvedLink[] }>;
  /** How the batch reads links and paths, for the pages written before it (relink.ts). */
  links: LinkResolver;
}

const VALID_SLUG = /^[^/\s]*$/;

/**
 * Applies a batch of changes, in order, to a copy of a change request's tree.
 * Every problem throws before anything is written: a batch applies whole or
 * not at all. Version ids and documents are made once per page at the end, so
 * a page changed three times in a batch gets one new version.
 */
export function applyChanges(
  start: ContentTree,
  changes: readonly ContentChange[],
  prepared: {
    files: ReadonlyMap<number, PreparedFile[]>;
    contents: ReadonlyMap<number, PageContent>;
    reverts?: RevertSources;
  },
  now: Date,
): AppliedBatch {
  const tree = start.copy();
  const refs = collectRefs(start, changes, prepared.files);
  const touched = new Set<string>();
  const newContent = new Map<string, NewContent | null>();
  const outcomes = new Map<string, PageOutcome>();
  const files: PreparedFile[] = [];

  const record = (outcome: PageOutcome) => {
    const previous = outcomes.get(outcome.page);
    // A page created in the batch stays "created" however it changes after.
    if (previous?.object === 'created_page' && outcome.object === 'updated_page') return;
    if (previous?.object === 'created_page' && outcome.object === 'deleted_page') {
      outcomes.delete(outcome.page);
      return;
    }
    outcomes.set(outcome.page, outcome);
  };
  const pageIdOf = (given: string) => refs.pages.get(given) ?? given;

  for (const [index, change] of changes.entries()) {
    const field = `body/changes/${index}`;
    switch (change.operation) {
      case 'insert_page': {
        const pageId = change.ref ? refs.pages.get(change.ref)! : newId();
        const parentId = change.into === undefined ? null : pageIdOf(change.into);
        const input = { change, content: prepared.contents.get(index), refs };
        insertPage(tree, pageId, input, field, now, parentId, newContent);
        touched.add(pageId);
        record({ object: 'created_page', page: pageId, ...(change.ref ? { ref: change.ref } : {}) });
        break;
      }
      case 'update_page': {
        const pageId = pageIdOf(change.page);
        const into = change.into === undefined ? undefined : change.into === null ? null : pageIdOf(change.into);
        updatePage(tree, pageId, { change, content: prepared.contents.get(index), refs }, field, into, newContent);
        touched.add(pageId);
        record({ object: 'updated_page', page: pageId });
        break;
      }
      case 'delete_page': {
        const pageId = pageIdOf(change.page);
        if (!tree.pages.has(pageId))
          throw new BadRequestError(`${field}/page: no page ${change.page} in this change request`);
        for (const page of tree.subtreeOf(pageId)) {
          tree.deletePage(page.pageId);
          touched.add(page.pageId);
          newContent.delete(page.pageId);
        }
        record({ object: 'deleted_page', page: pageId });
        break;
      }
      case 'revert_page': {
        const source = prepared.reverts?.trees.get(index);
        if (!source) throw new Error(`The revision of change ${index} was not read before the batch`);
        const base = prepared.reverts?.base === source;
        for (const { pageId, removed } of revertPage(tree, start, pageIdOf(change.page), source, field)) {
          touched.add(pageId);
          newContent.delete(pageId);
          if (base) prepared.reverts!.revertedToBase.add(pageId);
          else prepared.reverts!.revertedToBase.delete(pageId);
          const restored = start.pages.has(pageId) ? 'updated_page' : 'created_page';
          record({ object: removed ? 'deleted_page' : restored, page: pageId });
        }
        break;
      }
      case 'insert_files':
        for (const file of prepared.files.get(index) ?? []) {
          tree.setFile(fileState(file, now));
          files.push(file);
        }
        break;
      case 'update_variables': {
        // Without a page, the change is to the space's variables: the revision's, applied beside the tree.
        if (change.page === undefined) break;
        const pageId = pageIdOf(change.page);
        setPageVariables(tree, pageId, { ...change, page: change.page }, field);
        touched.add(pageId);
        record({ object: 'updated_page', page: pageId });
        break;
      }
      // Reusable contents live beside the page tree (reusable-contents.ts applies them).
      case 'insert_reusable_content':
      case 'update_reusable_content':
      case 'delete_reusable_content':
        break;
    }
  }

  // Links resolve against the tree as the whole batch leaves it, so a page can
  // link to one inserted after it.
  checkLinkPages(tree, touched);
  const links = new LinkResolver(tree, refs);
  const unresolved = new Map<string, { pageId: string; links: UnresolvedLink[] }>();
  const documents = new Map<string, string>();
  const pages = new Map<string, PageState | null>();
  const backToBase = new Set<string>();
  for (const pageId of touched) {
    const page = tree.pages.get(pageId);
    // A revert can leave a page as the line already holds it, or as its base holds it: no new version.
    if (page && page === start.pages.get(pageId)) continue;
    if (prepared.reverts && isBackToBase(prepared.reverts, pageId, page)) {
      backToBase.add(pageId);
      pages.set(pageId, page ?? null);
      continue;
    }
    if (!page) {
      if (start.pages.has(pageId)) pages.set(pageId, null);
      continue;
    }
    const content = newContent.get(pageId);
    let documentId = page.documentId;
    if (content !== undefined) {
      documentId = content === null ? null : newId();
      if (content !== null && documentId) {
        const resolved = resolveLinks(resolveFileNames(content, tree), links, pageId);
        documents.set(documentId, resolved.markdown);
        if (resolved.unresolved.length > 0) unresolved.set(documentId, { pageId, links: resolved.unresolved });
      }
    }
    const cover = resolveCoverFile(page.cover, tree);
    const version: PageState = { ...page, versionId: newId(), documentId, cover, updatedAt: now.toISOString() };
    tree.setPage(version);
    pages.set(pageId, version);
  }
  return { tree, pages, documents, files, outcomes: [...outcomes.values()], backToBase, unresolved, links };
}

/** Gives every ref of the batch its id up front, so refs resolve whatever the order of the changes. */
function collectRefs(
  start: ContentTree,
  changes: readonly ContentChange[],
  prepared: ReadonlyMap<number, PreparedFile[]>,
): BatchRefs {
  const refs: BatchRefs = { pages: new Map(), files: new Map() };
  const claim = (ref: string, field: string) => {
    if (refs.pages.has(ref) || refs.files.has(ref))
      throw new BadRequestError(`${field}: the ref "${ref}" is used twice in this batch`);
    if (start.pageAtPath(ref.replace(/\.md$/i, '')))
      throw new BadRequestError(`${field}: the ref "${ref}" is the path of an existing page`);
  };
  for (const [index, change] of changes.entries()) {
    if (change.operation === 'insert_page' && change.ref) {
      claim(change.ref, `body/changes/${index}/ref`);
      refs.pages.set(change.ref, newId());
    } else if (change.operation === 'insert_files') {
      for (const [fileIndex, file] of (prepared.get(index) ?? []).entries()) {
        if (!file.ref) continue;
        claim(file.ref, `body/changes/${index}/files/${fileIndex}/ref`);
        refs.files.set(file.ref, file.fileId);
      }
    }
  }
  return refs;
}

function fileState(file: PreparedFile, now: Date): FileState {
  return {
    fileId: file.fileId,
    versionId: newId(),
    name: file.name,
    contentType: file.contentType,
    sha256: file.sha256,
    size: file.size,
    width: file.width,
    height: file.height,
    createdAt: now,
  };
}

/** The position for index `at` among `parentId`'s children (the end when `at` is undefined or past it). */
function positionAt(tree: ContentTree, parentId: string | null, at: number | undefined, movingPageId?: string): string {
  const siblings = tree.childrenOf(parentId).filter((page) => page.pageId !== movingPageId);
  const index = at === undefined ? siblings.length : Math.min(at, siblings.length);
  const before = siblings[index - 1]?.position ?? null;
  const after = siblings[index]?.position ?? null;
  // Siblings that share a position (two change requests inserted at one place) leave no key between them.
  if (before !== null && after !== null && before >= after) return generateKeyBetween(before, null);
  return generateKeyBetween(before, after);
}

function siblingSlugs(tree: ContentTree, parentId: string | null, exceptPageId: string): Set<string> {
  return new Set(tree.childrenOf(parentId).flatMap((page) => (page.pageId === exceptPageId ? [] : [page.slug])));
}

function checkSlug(slug: string, field: string): void {
  if (!VALID_SLUG.test(slug) || slug.length > 100)
    throw new BadRequestError(`${field}/slug must be at most 100 characters without slashes or spaces`);
}

function requireParent(tree: ContentTree, parentId: string | null, field: string): void {
  if (parentId === null) return;
  const parent = tree.pages.get(parentId);
  if (!parent) throw new BadRequestError(`${field}/into: no page ${parentId} in this change request`);
  if (parent.type === 'computed')
    throw new BadRequestError(`${field}/into: page ${parentId} is computed; its source makes the pages under it`);
  checkParentKind(parent, field);
}

function applyFields(page: PageState, fields: PageFields): PageState {
  return {
    ...page,
    ...(fields.title !== undefined ? { title: fields.title } : {}),
    ...(fields.emoji !== undefined ? { emoji: fields.emoji } : {}),
    ...(fields.icon !== undefined ? { icon: fields.icon } : {}),
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    ...(fields.hidden !== undefined ? { hidden: fields.hidden } : {}),
    ...(fields.noIndex !== undefined ? { noIndex: fields.noIndex } : {}),
    ...(fields.noRobotsIndex !== undefined ? { noRobotsIndex: fields.noRobotsIndex } : {}),
    ...(fields.layout !== undefined ? { layout: { ...(page.layout ?? {}), ...fields.layout } } : {}),
    ...(fields.cover !== undefined ? { cover: coverOf(fields.cover, page.cover) } : {}),
    ...(fields.variables !== undefined ? { variables: fields.variables } : {}),
  };
}

const isEmptyDocument = (document: NonNullable<InsertPage['document']>) => Object.keys(document).length === 0;

/** A computed page's source, or null for a document page; a page is one or the other. */
function computedSourceOf(change: InsertPage, field: string): ComputedSource | null {
  if (change.type === 'computed') {
    if (!change.computed) throw new BadRequestError(`${field}/computed is required for a page of type computed`);
    if (change.document !== undefined && !isEmptyDocument(change.document))
      throw new BadRequestError(`${field}/document: a computed page has no document of its own; its source makes it`);
    return change.computed;
  }
  if (change.computed) throw new BadRequestError(`${field}/computed goes with type computed`);
  // Group and link pages have no document (page-kinds.ts).
  if (change.type === 'group' || change.type === 'link') return null;
  if (change.document === undefined) throw new BadRequestError(`${field}/document is required`);
  return null;
}

function insertPage(
  tree: ContentTree,
  pageId: string,
  { change, content, refs }: { change: InsertPage; content: PageContent | undefined; refs: BatchRefs },
  field: string,
  now: Date,
  parentId: string | null,
  newContent: Map<string, NewContent | null>,
): void {
  requireParent(tree, parentId, field);
  const computed = computedSourceOf(change, field);
  const kind = insertedKind(tree, refs, pageId, change, parentId, field);
  const fields = readPageFields(change, content, field);
  const title = fields.title ?? 'Untitled';
  const taken = siblingSlugs(tree, parentId, pageId);
  let slug: string;
  if (fields.slug !== undefined) {
    checkSlug(fields.slug, field);
    if (taken.has(fields.slug))
      throw new ConflictError(`${field}/slug: "${fields.slug}" is already the slug of a sibling page`);
    slug = fields.slug;
  } else {
    slug = uniqueSlug(slugify(title), taken);
  }
  const page: PageState = applyFields(
    {
      pageId,
      versionId: '',
      parentId,
      position: positionAt(tree, parentId, change.at),
      type: kind?.type ?? (computed ? 'computed' : 'document'),
      title,
      // A link page is found by no path: its own id keeps sibling slugs unique without taking a name.
      slug: kind?.type === 'link' ? pageId : slug,
      emoji: null,
      icon: null,
      description: null,
      documentId: null,
      layout: null,
      cover: null,
      variables: {},
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      target: kind?.target ?? null,
      href: null,
      computed,
      pageCreatedAt: now.toISOString(),
      updatedAt: now.toISOString(),
    },
    fields,
  );
  tree.setPage(page);
  newContent.set(pageId, fields.content ?? null);
}

function updatePage(
  tree: ContentTree,
  pageId: string,
  { change, content, refs }: { change: UpdatePage; content: PageContent | undefined; refs: BatchRefs },
  field: string,
  into: string | null | undefined,
  newContent: Map<string, NewContent | null>,
): void {
  const found = tree.pages.get(pageId);
  if (!found) throw new BadRequestError(`${field}/page: no page ${change.page} in this change request`);
  const page = updatedKind(tree, refs, found, change, into, field);
  if (page.type === 'computed' && change.document !== undefined && !isEmptyDocument(change.document))
    throw new BadRequestError(`${field}/document: a computed page has no document of its own; its source makes it`);
  if (change.computed !== undefined && page.type !== 'computed')
    throw new BadRequestError(`${field}/computed: only a computed page has a source; page ${change.page} is not one`);
  const fields = readPageFields(change, content, field);
  let next = applyFields(page, fields);
  if (change.computed !== undefined) next = { ...next, computed: change.computed };

  const moving = into !== undefined && into !== page.parentId;
  if (into !== undefined) {
    requireParent(tree, into, field);
    if (into !== null && tree.isWithin(into, pageId)) {
      throw new BadRequestError(`${field}/into: a page cannot move under itself or one of its own subpages`);
    }
  }
  const parentId = into === undefined ? page.parentId : into;
  if (moving || change.at !== undefined)
    next = { ...next, parentId, position: positionAt(tree, parentId, change.at, pageId) };

  if (fields.slug !== undefined) checkSlug(fields.slug, field);
  const slug = fields.slug ?? page.slug;
  if ((fields.slug !== undefined && fields.slug !== page.slug) || moving) {
    if (siblingSlugs(tree, parentId, pageId).has(slug))
      throw new ConflictError(`${field}/slug: "${slug}" is already the slug of a sibling page`);
  }
  tree.setPage({ ...next, slug });
  if (fields.content !== undefined) newContent.set(pageId, fields.content);
}
