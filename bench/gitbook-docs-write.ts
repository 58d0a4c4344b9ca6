import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { GitBookAPI, GitBookAPIError, SiteVisibility } from '@gitbook/api';
import { GitBookAPI as NewestGitBookAPI } from '@gitbook/api-next';
import { contentTypeOf } from '../src/git-sync/format/content-types.js';
import type { DocsTree, TreeEntry } from './gitbook-docs-tree.js';

/**
 * Writes a Git Sync tree into a new space in one pass, as a team migrating
 * would through the public API: one change request; the assets its pages use
 * first (inline base64 up to 1 MiB, larger ones by URL), then every page in
 * SUMMARY.md's order, 50 changes a write, markdown as it is on disk; then a
 * merge and a published site. A refused write is split in halves until the
 * refused pages are found alone; the rest is written, as a team would after
 * setting the refused pages aside.
 */

const BATCH = 50;
const FILES_PER_CHANGE = 20;
/** Inline bytes of one write, base64 included, well under BODY_LIMIT's 5 MiB default. */
const INLINE_BYTES_PER_WRITE = 3.5 * 1024 * 1024;
const MAX_INLINE_FILE = 1024 * 1024;

export interface Written {
  spaceId: string;
  changeRequestId: string;
  /** Page id of each entry that was written, by entry key (a page's key is its git path). */
  ids: Map<string, string>;
  /** Why each refused entry was refused, by key. */
  refused: Map<string, string>;
  files: { uploaded: number; missing: string[]; refused: Map<string, string> };
  writes: number;
  importMs: number;
  site: { id: string; published: string };
}

type Change = Record<string, unknown>;
type FileChange = { name: string; contentType: string } & ({ base64: string } | { url: string });

export interface Clients {
  client: GitBookAPI;
  newest: NewestGitBookAPI;
}

export function clients(base: string, token: string): Clients {
  return {
    client: new GitBookAPI({ endpoint: base, authToken: token }),
    newest: new NewestGitBookAPI({ endpoint: base, authToken: token }),
  };
}

function refusal(error: unknown): string | undefined {
  if (error instanceof GitBookAPIError) return `${error.code}: ${error.errorMessage}`;
  // The newest client's error class is another one, with the same fields.
  const shaped = error as { name?: string; code?: number; errorMessage?: string };
  if (shaped?.name === 'GitBookAPIError') return `${shaped.code}: ${shaped.errorMessage}`;
  return undefined;
}

/**
 * Writes `items` in writes of at most `size`; a refused write is split in
 * halves, and an item refused alone is reported and left out.
 */
async function writeInPieces<T>(
  items: T[],
  size: number,
  write: (piece: T[]) => Promise<void>,
  refuse: (item: T, why: string) => void,
): Promise<number> {
  let writes = 0;
  const attempt = async (piece: T[]): Promise<void> => {
    writes++;
    try {
      await write(piece);
    } catch (error) {
      const why = refusal(error);
      if (why === undefined) throw error;
      if (piece.length === 1) return refuse(piece[0]!, why);
      const half = Math.ceil(piece.length / 2);
      await attempt(piece.slice(0, half));
      await attempt(piece.slice(half));
    }
  };
  for (let at = 0; at < items.length; at += size) await attempt(items.slice(at, at + size));
  return writes;
}

async function fileChange(root: string, asset: string, served: string): Promise<FileChange | undefined> {
  const file = path.join(root, asset);
  const found = await stat(file).catch(() => undefined);
  if (!found?.isFile()) return undefined;
  const name = path.posix.basename(asset);
  const contentType = contentTypeOf(name);
  if (found.size > MAX_INLINE_FILE)
    return { name, contentType, url: served + encodeURIComponent(asset.slice('.gitbook/assets/'.length)) };
  return { name, contentType, base64: (await readFile(file)).toString('base64') };
}

/** Groups files into writes that stay under the inline byte budget, 20 files a change. */
function fileWrites(files: FileChange[]): FileChange[][] {
  const writes: FileChange[][] = [];
  let current: FileChange[] = [];
  let bytes = 0;
  for (const file of files) {
    const size = 'base64' in file ? file.base64.length : 200;
    if (current.length > 0 && (bytes + size > INLINE_BYTES_PER_WRITE || current.length >= BATCH * FILES_PER_CHANGE)) {
      writes.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += size;
  }
  if (current.length > 0) writes.push(current);
  return writes;
}

/** A ref for an entry: its git path without `.md` when that is a valid ref, so links in the same write find it. */
function refOf(entry: TreeEntry): string {
  const ref = entry.kind === 'page' ? entry.gitPath.replace(/\.md$/i, '') : entry.key.replace(':', '-');
  return /^[^\s]+$/.test(ref) && ref.length <= 256 ? ref : entry.key.replace(':', '-');
}

export async function writeTree(
  { client, newest }: Clients,
  organizationId: string,
  tree: DocsTree,
  assets: Set<string>,
  served: string,
  log: (message: string) => void,
): Promise<Written> {
  const space = (await client.orgs.createSpace(organizationId, { title: 'GitBook documentation' })).data;
  const started = performance.now();
  const changeRequest = (await client.spaces.createChangeRequest(space.id, { subject: 'Migrate from Git Sync' })).data;
  const write = async (changes: Change[]) =>
    (
      await newest.spaces.updateChangeRequestContent(
        space.id,
        changeRequest.id,
        { changes: changes as never },
        { compat: false },
      )
    ).data as unknown as { changes?: Array<{ object: string; ref?: string; page?: { id: string } }> };

  const files: FileChange[] = [];
  const missing: string[] = [];
  for (const asset of [...assets].sort()) {
    const change = await fileChange(tree.root, asset, served);
    if (change) files.push(change);
    else missing.push(asset);
  }
  const refusedFiles = new Map<string, string>();
  let writes = 0;
  for (const group of fileWrites(files)) {
    writes += await writeInPieces(
      group,
      group.length,
      async (piece) => {
        const changes: Change[] = [];
        for (let at = 0; at < piece.length; at += FILES_PER_CHANGE)
          changes.push({ operation: 'insert_files', files: piece.slice(at, at + FILES_PER_CHANGE) });
        await write(changes);
      },
      (file, why) => refusedFiles.set(file.name, why),
    );
  }
  log(
    `files: ${files.length - refusedFiles.size} written, ${refusedFiles.size} refused, ${missing.length} missing on disk`,
  );

  const ids = new Map<string, string>();
  const refused = new Map<string, string>();
  const parents = new Map(tree.entries.map((entry) => [entry.key, 'parent' in entry ? entry.parent : undefined]));
  const byKey = new Map(tree.entries.map((entry) => [entry.key, entry]));
  const placed = (key: string | undefined, inPiece: Set<string>): string | undefined => {
    // The nearest ancestor that was written, or the top level.
    for (let at = key; at !== undefined; at = parents.get(at)) {
      if (ids.has(at)) return ids.get(at);
      if (inPiece.has(at)) return refOf(byKey.get(at)!);
    }
    return undefined;
  };
  const changeOf = (entry: TreeEntry, inPiece: Set<string>): Change => {
    const into = 'parent' in entry ? placed(entry.parent, inPiece) : undefined;
    const common = { operation: 'insert_page', ref: refOf(entry), title: entry.title, ...(into ? { into } : {}) };
    if (entry.kind === 'group') return { ...common, type: 'group', ...(entry.slug ? { slug: entry.slug } : {}) };
    if (entry.kind === 'page') {
      const markdown = tree.markdown.get(entry.gitPath)!;
      return { ...common, ...(entry.slug ? { slug: entry.slug } : {}), document: { markdown } };
    }
    const { target } = entry;
    if ('url' in target) return { ...common, type: 'link', target: { kind: 'url', url: target.url } };
    const page =
      ids.get(target.gitPath) ?? (inPiece.has(target.gitPath) ? refOf(byKey.get(target.gitPath)!) : target.gitPath);
    return {
      ...common,
      type: 'link',
      target: target.anchor ? { kind: 'anchor', anchor: target.anchor, page } : { kind: 'page', page },
    };
  };
  writes += await writeInPieces(
    tree.entries,
    BATCH,
    async (piece) => {
      const keys = new Set(piece.map((entry) => entry.key));
      const answer = await write(piece.map((entry) => changeOf(entry, keys)));
      const byRef = new Map(piece.map((entry) => [refOf(entry), entry.key]));
      for (const change of answer.changes ?? []) {
        const key = change.ref !== undefined ? byRef.get(change.ref) : undefined;
        if (key && change.page) ids.set(key, change.page.id);
      }
    },
    (entry, why) => refused.set(entry.key, why),
  );
  log(`pages: ${ids.size} written, ${refused.size} refused, in ${writes} writes`);

  const merged = (await client.spaces.mergeChangeRequest(space.id, changeRequest.id)).data;
  if (merged.result !== 'merge') throw new Error(`The merge answered ${JSON.stringify(merged)}`);
  const importMs = performance.now() - started;

  const site = (
    await client.orgs.createSite(organizationId, {
      title: 'GitBook docs',
      visibility: SiteVisibility.Public,
      spaces: [space.id],
    })
  ).data;
  await client.orgs.updateSiteById(organizationId, site.id, { basename: 'gitbook-docs' }).catch((error: unknown) => {
    log(`the basename was refused (${refusal(error) ?? String(error)}); the site is read at its id`);
  });
  await client.orgs.publishSite(organizationId, site.id);
  const published = (await client.orgs.getSiteById(organizationId, site.id)).data.urls.published;
  if (!published) throw new Error('The published site has no published address');
  return {
    spaceId: space.id,
    changeRequestId: changeRequest.id,
    ids,
    refused,
    files: { uploaded: files.length - refusedFiles.size, missing, refused: refusedFiles },
    writes,
    importMs,
    site: { id: site.id, published },
  };
}
