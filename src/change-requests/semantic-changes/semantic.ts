import type { VariableValues } from '../../db/types.js';
import type { ReusableContentState } from '../../content/reusable-contents.js';
import { DEFAULT_LAYOUT } from '../../content/page-layout.js';
import { ContentTree, type FileState, type PageState } from '../../content/tree.js';

/** One side of a comparison: what a revision holds, in forms a worker thread can be sent. */
export interface RevisionSide {
  pages: PageState[];
  files: FileState[];
  variables: VariableValues;
  reusableContents: ReusableContentState[];
}

/** The spec's ChangedRevisionPage. */
export interface ChangedPage {
  id: string;
  type: PageState['type'];
  title: string;
  path?: string;
}

/** A file as a change names it; its signed `downloadURL` is made when the change is read, never stored. */
export interface StoredFile {
  id: string;
  versionId: string;
  name: string;
  contentType: string;
}

type Attribute<T> = { before?: T; after?: T };
type Attributes = Record<string, Attribute<unknown>>;

/** The spec's RevisionSemanticChange, as stored: files without their download URL. */
export type StoredChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: Attributes }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'file_created' | 'file_deleted'; file: StoredFile }
  | { type: 'file_edited'; file: StoredFile; attributes: Attributes }
  | { type: 'variables_edited'; variables: Record<string, Attribute<string | number | boolean>> }
  | {
      type: 'reusable_content_created' | 'reusable_content_deleted';
      reusableContent: { id: string; title: string; document?: string };
    }
  | {
      type: 'reusable_content_edited';
      reusableContent: { id: string; title: string; document?: string };
      attributes: Attributes;
    };

/** A page whose document changed: the documents to diff block by block. */
export interface DocumentPair {
  pageId: string;
  before: string | null;
  after: string | null;
}

export const treeOf = (side: RevisionSide) =>
  new ContentTree(new Map(side.pages.map((page) => [page.pageId, page])), new Map());

function changedPage(tree: ContentTree, page: PageState): ChangedPage {
  // A link page has no path of its own: it is only an entry of the table of contents.
  return {
    id: page.pageId,
    type: page.type,
    title: page.title,
    ...(page.type === 'link' ? {} : { path: tree.pathOf(page.pageId) }),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** `{ before, after }` of a field that changed, each side left out where it has no value; undefined when it did not change. */
function attribute<T>(before: T | null | undefined, after: T | null | undefined): Attribute<T> | undefined {
  if (same(before, after)) return undefined;
  return { ...(before != null ? { before } : {}), ...(after != null ? { after } : {}) };
}

const layoutOf = (page: PageState) => ({ ...DEFAULT_LAYOUT, ...(page.layout ?? {}) });

/** The attributes the spec names for the page's type that changed; empty when none did. */
function pageAttributes(before: PageState, after: PageState): Attributes {
  const fields: Record<string, Attribute<unknown> | undefined> = {
    title: attribute(before.title, after.title),
    emoji: attribute(before.emoji, after.emoji),
  };
  if (after.type === 'link') {
    fields.target = attribute(before.target, after.target);
  } else {
    fields.slug = attribute(before.slug, after.slug);
  }
  if (after.type === 'document' || after.type === 'computed') {
    fields.description = attribute(before.description, after.description);
    fields.document = attribute(before.documentId, after.documentId);
    fields.cover = attribute(before.cover, after.cover);
    fields.layout = attribute(layoutOf(before), layoutOf(after));
    fields.variables = attribute(before.variables, after.variables);
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Attributes;
}

/** The pages' changes, in the new tree's order, then the pages deleted in the old tree's order; and the documents to diff. */
function pageChanges(before: ContentTree, after: ContentTree): { changes: StoredChange[]; documents: DocumentPair[] } {
  const changes: StoredChange[] = [];
  const documents: DocumentPair[] = [];
  const parentOf = (tree: ContentTree, page: PageState) => {
    const parent = page.parentId ? tree.pages.get(page.parentId) : undefined;
    return parent ? changedPage(tree, parent) : undefined;
  };
  const visit = (page: PageState) => {
    const old = before.pages.get(page.pageId);
    if (!old) {
      changes.push({ type: 'page_created', page: changedPage(after, page) });
      if (page.documentId) documents.push({ pageId: page.pageId, before: null, after: page.documentId });
    } else if (old.versionId !== page.versionId) {
      if (old.parentId !== page.parentId || old.position !== page.position) {
        const parent = { before: parentOf(before, old), after: parentOf(after, page) };
        changes.push({
          type: 'page_moved',
          page: changedPage(after, page),
          parent: Object.fromEntries(Object.entries(parent).filter(([, value]) => value !== undefined)),
        });
      }
      const attributes = pageAttributes(old, page);
      if (Object.keys(attributes).length > 0)
        changes.push({ type: 'page_edited', page: changedPage(after, page), attributes });
      if (old.documentId !== page.documentId)
        documents.push({ pageId: page.pageId, before: old.documentId, after: page.documentId });
    }
    for (const child of after.childrenOf(page.pageId)) visit(child);
  };
  for (const page of after.childrenOf(null)) visit(page);
  const deleted = (page: PageState) => {
    if (!after.pages.has(page.pageId)) {
      changes.push({ type: 'page_deleted', page: changedPage(before, page) });
      if (page.documentId) documents.push({ pageId: page.pageId, before: page.documentId, after: null });
    }
    for (const child of before.childrenOf(page.pageId)) deleted(child);
  };
  for (const page of before.childrenOf(null)) deleted(page);
  return { changes, documents };
}

const storedFile = (file: FileState): StoredFile => ({
  id: file.fileId,
  versionId: file.versionId,
  name: file.name,
  contentType: file.contentType,
});

const byCreation = <T extends { createdAt: Date }>(items: Iterable<T>, id: (item: T) => string) =>
  [...items].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (id(a) < id(b) ? -1 : 1));

function fileChanges(before: FileState[], after: FileState[]): StoredChange[] {
  const old = new Map(before.map((file) => [file.fileId, file]));
  const now = new Map(after.map((file) => [file.fileId, file]));
  const changes: StoredChange[] = [];
  for (const file of byCreation(after, (f) => f.fileId)) {
    const was = old.get(file.fileId);
    if (!was) {
      changes.push({ type: 'file_created', file: storedFile(file) });
      continue;
    }
    if (was.versionId === file.versionId) continue;
    const dimensions = (f: FileState) =>
      f.width !== null && f.height !== null ? { width: f.width, height: f.height } : null;
    const attributes = Object.fromEntries(
      Object.entries({
        name: attribute(was.name, file.name),
        contentType: attribute(was.contentType, file.contentType),
        size: attribute(was.size, file.size),
        dimensions: attribute(dimensions(was), dimensions(file)),
      }).filter(([, value]) => value !== undefined),
    ) as Attributes;
    // New bytes under the same name and size still change the file: its download changes.
    if (Object.keys(attributes).length === 0) attributes.size = { before: was.size, after: file.size };
    changes.push({ type: 'file_edited', file: storedFile(file), attributes });
  }
  for (const file of byCreation(before, (f) => f.fileId))
    if (!now.has(file.fileId)) changes.push({ type: 'file_deleted', file: storedFile(file) });
  return changes;
}

function variableChanges(before: VariableValues, after: VariableValues): StoredChange[] {
  const variables: Record<string, Attribute<string | number | boolean>> = {};
  for (const name of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const change = attribute(before[name], after[name]);
    if (change) variables[name] = change;
  }
  return Object.keys(variables).length > 0 ? [{ type: 'variables_edited', variables }] : [];
}

const changedReusableContent = (state: ReusableContentState) => ({
  id: state.reusableContentId,
  title: state.title,
  ...(state.documentId ? { document: state.documentId } : {}),
});

function reusableContentChanges(before: ReusableContentState[], after: ReusableContentState[]): StoredChange[] {
  const old = new Map(before.map((item) => [item.reusableContentId, item]));
  const now = new Map(after.map((item) => [item.reusableContentId, item]));
  const changes: StoredChange[] = [];
  for (const item of byCreation(after, (i) => i.reusableContentId)) {
    const was = old.get(item.reusableContentId);
    if (!was) changes.push({ type: 'reusable_content_created', reusableContent: changedReusableContent(item) });
    else if (was.versionId !== item.versionId) {
      const attributes = Object.fromEntries(
        Object.entries({
          title: attribute(was.title, item.title),
          document: attribute(was.documentId, item.documentId),
        }).filter(([, value]) => value !== undefined),
      ) as Attributes;
      if (Object.keys(attributes).length > 0)
        changes.push({ type: 'reusable_content_edited', reusableContent: changedReusableContent(item), attributes });
    }
  }
  for (const item of byCreation(before, (i) => i.reusableContentId))
    if (!now.has(item.reusableContentId))
      changes.push({ type: 'reusable_content_deleted', reusableContent: changedReusableContent(item) });
  return changes;
}

/**
 * What changed from one revision to another, as GitBook's semantic changes
 * name it: pages created, moved, edited (each attribute before and after)
 * and deleted; files; the space's variables; reusable contents. With the
 * documents of the pages whose content changed, to diff block by block.
 */
export function semanticChanges(before: RevisionSide, after: RevisionSide) {
  const pages = pageChanges(treeOf(before), treeOf(after));
  return {
    changes: [
      ...pages.changes,
      ...fileChanges(before.files, after.files),
      ...variableChanges(before.variables, after.variables),
      ...reusableContentChanges(before.reusableContents, after.reusableContents),
    ],
    documents: pages.documents,
  };
}
