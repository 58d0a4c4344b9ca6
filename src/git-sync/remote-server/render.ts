import { createHash } from 'node:crypto';
import type { Context } from '../../context.js';
import { spaceRepository, writeRepository, type SpaceRepository } from '../format/index.js';
import { runGit } from './git-process.js';

/**
 * A revision's files as a commit holds them, made from the commit before
 * where they cannot differ: a page's file is written again (a conversion
 * each) only when the page changed, moved, or any page's path or file's
 * name changed (links between pages are written as paths); a file's bytes
 * are read again only when its version changed. The others keep the blob
 * the commit before had at that path. So a one-page merge into a space of
 * thousands of pages converts one page, not all of them.
 */

/** Where Git Sync keeps a space's files, from the content root. */
const ASSETS = '.gitbook/assets/';

/** What of a rendered revision the next one is compared with. */
export interface Rendered {
  /** Each page's path, by page id. */
  pagePaths: Map<string, string>;
  /** Each page's version, by page id. */
  pageVersions: Map<string, string>;
  /** Each file's name, by file id. */
  fileNames: Map<string, string>;
  /** The versions of the files of each name. */
  fileVersions: Map<string, string>;
  /** The blob of each path of the commit. */
  blobs: Map<string, string>;
}

/** A file of the commit: its bytes, or a blob the repository has. */
export type CommitFile = { bytes: Uint8Array } | { blob: string };

export function blobSha(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

function shapeOf(repository: SpaceRepository): Omit<Rendered, 'blobs'> {
  const pagePaths = new Map<string, string>();
  const pageVersions = new Map<string, string>();
  for (const [entry, pageId] of repository.ids) {
    if (entry.kind !== 'page') continue;
    pagePaths.set(pageId, entry.path);
    pageVersions.set(pageId, repository.tree.pages.get(pageId)?.versionId ?? '');
  }
  const fileNames = new Map<string, string>();
  const versionsByName = new Map<string, string[]>();
  for (const file of repository.tree.files.values()) {
    fileNames.set(file.fileId, file.name);
    versionsByName.set(file.name, [...(versionsByName.get(file.name) ?? []), file.versionId]);
  }
  const fileVersions = new Map([...versionsByName].map(([name, versions]) => [name, versions.sort().join(',')]));
  return { pagePaths, pageVersions, fileNames, fileVersions };
}

const sameMap = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) =>
  a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);

/** The revision's files, those that cannot differ from `previous` named by their blob there. */
export async function renderRevision(
  context: Context,
  organizationId: string,
  spaceId: string,
  revisionId: string,
  previous: Rendered | undefined,
): Promise<{ files: Map<string, CommitFile>; rendered: Rendered }> {
  let options: { pageFiles: Set<string>; files: Set<string> } | undefined;
  if (previous !== undefined) {
    // The revision's layout alone (no page converted, no file read), to tell what changed.
    const layout = shapeOf(
      await spaceRepository(context, organizationId, spaceId, revisionId, { pageFiles: new Set(), files: new Set() }),
    );
    const linksHold = sameMap(layout.pagePaths, previous.pagePaths) && sameMap(layout.fileNames, previous.fileNames);
    const pageFiles = new Set<string>();
    for (const [pageId, path] of layout.pagePaths) {
      const unchanged =
        linksHold && layout.pageVersions.get(pageId) === previous.pageVersions.get(pageId) && previous.blobs.has(path);
      if (!unchanged) pageFiles.add(path);
    }
    const files = new Set<string>();
    for (const [name, versions] of layout.fileVersions) {
      if (previous.fileVersions.get(name) !== versions || !previous.blobs.has(`${ASSETS}${name}`)) files.add(name);
    }
    options = { pageFiles, files };
  }
  const repository = await spaceRepository(context, organizationId, spaceId, revisionId, options);
  const written = writeRepository(repository.content);
  const files = new Map<string, CommitFile>();
  const blobs = new Map<string, string>();
  const keep = (path: string) => {
    const blob = previous?.blobs.get(path);
    if (blob === undefined) return false;
    files.set(path, { blob });
    blobs.set(path, blob);
    return true;
  };
  const unread = new Set([...repository.unread].flatMap((entry) => (entry.kind === 'page' ? [entry.path] : [])));
  for (const [path, bytes] of written) {
    if (unread.has(path) && keep(path)) continue;
    files.set(path, { bytes });
    blobs.set(path, blobSha(bytes));
  }
  const shape = shapeOf(repository);
  if (options !== undefined) {
    for (const name of shape.fileVersions.keys()) {
      if (!options.files.has(name)) keep(`${ASSETS}${name}`);
    }
  }
  return { files, rendered: { ...shape, blobs } };
}

/** What `renderRevision` compares with, for a revision whose commit the repository already has. */
export async function renderedCommit(
  context: Context,
  gitDir: string,
  organizationId: string,
  spaceId: string,
  revisionId: string,
  commit: string,
): Promise<Rendered> {
  const layout = shapeOf(
    await spaceRepository(context, organizationId, spaceId, revisionId, { pageFiles: new Set(), files: new Set() }),
  );
  const { stdout } = await runGit(['ls-tree', '-r', '-z', '--full-tree', commit], {
    gitDir,
    timeoutMs: context.config.gitRemote.timeoutMs,
  });
  const blobs = new Map<string, string>();
  for (const record of stdout.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    const [, type, sha] = record.slice(0, tab).split(' ');
    if (type === 'blob' && sha) blobs.set(record.slice(tab + 1), sha);
  }
  return { ...layout, blobs };
}
