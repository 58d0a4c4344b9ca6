import { sql } from 'kysely';
import { forEachConcurrently } from '../../core/concurrently.js';
import { NotFoundError } from '../../core/errors.js';
import type { Conversions } from '../../conversions/pool.js';
import type { Db } from '../../db/database.js';
import { findCurrentRevisionId, findRevision, loadMarkdown, loadTree } from '../../content/state.js';
import type { ContentTree, FileState, PageState } from '../../content/tree.js';
import {
  DEFAULT_CONFIG,
  type NestedEntry,
  type RepositoryContent,
  type RepositoryFile,
  type TopLevelEntry,
} from './model.js';
import { gitSyncPageFile, type GitTargets } from './page-file.js';
import { gitSyncPageFrontmatter } from './page-frontmatter.js';
import { byPath } from './paths.js';

/**
 * A space's content at a revision as a Git Sync repository holds it: each
 * page's markdown as the API's markdown read gives it, under its frontmatter
 * as GitBook writes it (page-frontmatter.ts) and its `# Title`, with its
 * links as paths; groups; link entries to URLs and pages; the files with
 * their bytes.
 * Read in a fixed number of statements, whatever the space's size.
 *
 * What a repository cannot hold is left out: computed pages (their source
 * is no markdown), link entries to a file, another space or a collection,
 * the space's variables and reusable contents; two files of one name are one
 * asset, the newer. `.gitbook.yaml`'s root and redirects are no part of a
 * space: the content has the defaults.
 */

/** Pages read on the conversion pool at once: enough to keep its threads busy, few enough to wait in no queue. */
const READ_LANES = 4;

export interface SpaceReaders {
  db: Db;
  conversions: Conversions;
}

/**
 * Each document page's file: `README.md` for the first page, `a/b/README.md`
 * for a page with subpages, `a/b.md` for any other, from its path of slugs
 * (its group's slug first), as Git Sync lays a space out.
 */
function gitPaths(tree: ContentTree): Map<string, string> {
  const paths = new Map<string, string>();
  let first = true;
  const visit = (parentId: string | null) => {
    for (const page of tree.childrenOf(parentId)) {
      if (page.type === 'document') {
        const path = tree.pathOf(page.pageId);
        paths.set(
          page.pageId,
          first ? 'README.md' : tree.childrenOf(page.pageId).length > 0 ? `${path}/README.md` : `${path}.md`,
        );
        first = false;
      }
      if (page.type === 'document' || page.type === 'group') visit(page.pageId);
    }
  };
  visit(null);
  return paths;
}

/** The newer of two files of one name, as links naming it find it. */
const newer = (a: FileState, b: FileState) =>
  a.createdAt.getTime() !== b.createdAt.getTime() ? (a.createdAt > b.createdAt ? a : b) : a.fileId < b.fileId ? a : b;

function filesByName(tree: ContentTree): FileState[] {
  const byName = new Map<string, FileState>();
  for (const file of tree.files.values()) {
    const other = byName.get(file.name);
    byName.set(file.name, other ? newer(file, other) : file);
  }
  return [...byName.values()].sort((a, b) => byPath(a.name, b.name));
}

/** The bytes of file versions, by version id, in one statement; the organization's own files only. */
async function loadFileBytes(db: Db, organizationId: string, versionIds: string[]): Promise<Map<string, Uint8Array>> {
  if (versionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('file_versions as f')
    .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
    .select(['f.id', 'b.bytes'])
    .where('f.organization_id', '=', organizationId)
    .where('f.id', '=', sql<string>`any(${versionIds}::text[])`)
    .execute();
  return new Map(rows.map((row) => [row.id, row.bytes]));
}

/** A link page's target in the repository, or undefined where it leads where no repository path does. */
function linkTarget(page: PageState, paths: ReadonlyMap<string, string>) {
  const target = page.target as { kind?: string; url?: string; page?: string; anchor?: string; space?: string } | null;
  if (target?.kind === 'url' && typeof target.url === 'string') return { url: target.url };
  if ((target?.kind !== 'page' && target?.kind !== 'anchor') || target.space !== undefined) return undefined;
  const path = target.page === undefined ? undefined : paths.get(target.page);
  return path === undefined ? undefined : { path, anchor: target.kind === 'anchor' ? (target.anchor ?? '') : '' };
}

/** The pages and files of the space's revision (its current one by default): three statements. */
async function revisionTree(db: Db, organizationId: string, spaceId: string, revisionId: string | undefined) {
  const current = await findCurrentRevisionId(db, { id: spaceId, organization_id: organizationId });
  if (current === undefined) throw new NotFoundError('No space with this id in the organization');
  const found = await findRevision(db, spaceId, revisionId ?? current);
  if (!found) throw new NotFoundError('No revision with this id in the space');
  // A transferred space's revisions name the organization they were made in; its content is read as the space's now.
  return loadTree(db, { ...found, organizationId });
}

/** Each document page's file, by page id. */
async function pageFilesOf(
  conversions: Conversions,
  tree: ContentTree,
  paths: ReadonlyMap<string, string>,
  markdown: ReadonlyMap<string, string>,
  only: ReadonlySet<string> | undefined,
): Promise<Map<string, string>> {
  const targets: GitTargets = {
    pages: paths,
    files: new Map([...tree.files.values()].map((file) => [file.fileId, file.name])),
  };
  const files = new Map<string, string>();
  const pages = [...tree.pages.values()].filter(
    (page) => paths.has(page.pageId) && (only === undefined || only.has(paths.get(page.pageId)!)),
  );
  await forEachConcurrently(pages, READ_LANES, async (page) => {
    const path = paths.get(page.pageId)!;
    const file = await gitSyncPageFile(
      conversions,
      {
        path,
        frontmatter: gitSyncPageFrontmatter(tree, page, path),
        title: page.title,
        markdown: page.documentId ? (markdown.get(page.documentId) ?? '') : '',
      },
      targets,
    );
    files.set(page.pageId, file);
  });
  return files;
}

/** The table of contents under a page (the top level for null), in the tree's order. */
function entriesUnder(
  tree: ContentTree,
  parentId: string | null,
  paths: ReadonlyMap<string, string>,
  pageFiles: ReadonlyMap<string, string>,
  ids: Map<TopLevelEntry, string>,
): TopLevelEntry[] {
  const nested = (pageId: string) => entriesUnder(tree, pageId, paths, pageFiles, ids) as NestedEntry[];
  return tree.childrenOf(parentId).flatMap((page): TopLevelEntry[] => {
    let entry: TopLevelEntry | undefined;
    if (page.type === 'group') {
      entry = { kind: 'group', title: page.title, slug: page.slug, children: nested(page.pageId) };
    } else if (page.type === 'link') {
      const target = linkTarget(page, paths);
      if (target) entry = { kind: 'link', title: page.title, target };
    } else {
      const path = paths.get(page.pageId);
      if (path !== undefined) {
        const markdown = pageFiles.get(page.pageId) ?? '';
        entry = { kind: 'page', title: page.title, path, markdown, children: nested(page.pageId) };
      }
    }
    if (!entry) return [];
    ids.set(entry, page.pageId);
    return [entry];
  });
}

/** A space's content as a repository, with the page each of its entries stands for and the tree it was read from. */
export interface SpaceRepository {
  content: RepositoryContent;
  /** The id of the page (group, link) each entry of the content is. */
  ids: ReadonlyMap<TopLevelEntry, string>;
  /** The pages whose file was not written (`pageFiles` left them out): their markdown is empty. */
  unread: ReadonlySet<TopLevelEntry>;
  tree: ContentTree;
}

export interface SpaceRepositoryOptions {
  /** Write only these pages' files, by path (a page's markdown costs a conversion); default: every page's. */
  pageFiles?: ReadonlySet<string>;
  /** Read only these files' bytes, by name; the others are left out of the content. Default: every file's. */
  files?: ReadonlySet<string>;
}

export async function repositoryOfSpace(
  readers: SpaceReaders,
  organizationId: string,
  spaceId: string,
  revisionId?: string,
): Promise<RepositoryContent> {
  return (await spaceRepository(readers, organizationId, spaceId, revisionId)).content;
}

/** `repositoryOfSpace`, with the page of each entry and the tree. */
export async function spaceRepository(
  { db, conversions }: SpaceReaders,
  organizationId: string,
  spaceId: string,
  revisionId?: string,
  options: SpaceRepositoryOptions = {},
): Promise<SpaceRepository> {
  const tree = await revisionTree(db, organizationId, spaceId, revisionId);
  const paths = gitPaths(tree);
  const files = filesByName(tree);
  const only = options.pageFiles;
  const documentIds = [...tree.pages.values()].flatMap((page) =>
    page.type === 'document' && page.documentId && (only === undefined || only.has(paths.get(page.pageId) ?? ''))
      ? [page.documentId]
      : [],
  );
  const versionIds = files.flatMap((file) =>
    options.files === undefined || options.files.has(file.name) ? [file.versionId] : [],
  );
  const [markdown, bytes] = await Promise.all([
    loadMarkdown(db, organizationId, documentIds),
    loadFileBytes(db, organizationId, versionIds),
  ]);
  const pageFiles = await pageFilesOf(conversions, tree, paths, markdown, only);
  const ids = new Map<TopLevelEntry, string>();
  const content: RepositoryContent = {
    config: { ...DEFAULT_CONFIG },
    entries: entriesUnder(tree, null, paths, pageFiles, ids),
    files: files.flatMap((file): RepositoryFile[] => {
      const fileBytes = bytes.get(file.versionId);
      return fileBytes ? [{ name: file.name, contentType: file.contentType, bytes: fileBytes }] : [];
    }),
    redirects: [],
  };
  const unread = new Set(
    [...ids].flatMap(([entry, pageId]) => (entry.kind === 'page' && !pageFiles.has(pageId) ? [entry] : [])),
  );
  return { content, ids, unread, tree };
}
