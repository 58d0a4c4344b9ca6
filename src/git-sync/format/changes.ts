import {
  MAX_FILE_BYTES,
  UpdateContentBody,
  type ContentChange,
  type InsertFiles,
} from '../../change-requests/schemas.js';
import { groupSlugOf, isValidSlug } from './group-slug.js';
import type { RepositoryContent, RepositoryFile, RepositoryLink, TopLevelEntry } from './model.js';
import { slugOfGitPath } from './paths.js';

/**
 * The content of a repository as writes of the change-request content route
 * (`POST /v1/spaces/{spaceId}/change-requests/{id}/content`), for a new
 * change request of an empty space: the assets first, so that the pages'
 * links and images find them by name; then the groups and pages in the
 * summary's order, each into its parent; then the link entries, each put in
 * its place among its siblings (a link may lead to a page listed after it).
 *
 * Every page is written with its Git Sync path as its `ref`, so that its
 * relative links are read from its file's folder, as GitBook reads them.
 * A write names the pages of earlier writes by their refs too: `bindWrite`
 * turns those into the ids the earlier writes answered with.
 */

/** Changes of one write, as the route's body schema bounds them. */
export const CHANGES_PER_WRITE = UpdateContentBody.properties.changes.maxItems!;
const FILES_PER_CHANGE = 20;
/** The JSON bytes one write carries by default, well under the body limit's 5 MiB default. */
const DEFAULT_WRITE_BYTES = 3.5 * 1024 * 1024;
const MAX_TITLE = 255;
const REF = /^\S{1,256}$/;

export interface ChangeOptions {
  /** Where to take a file's bytes from instead of sending them inline, by file name: its storage upload's URL. */
  urls?: ReadonlyMap<string, string>;
  /** The JSON bytes of one write; default 3.5 MiB. */
  bytesPerWrite?: number;
}

/** The files a write cannot carry inline (over MAX_FILE_BYTES): upload them first, and name their URLs. */
export function filesToUpload(content: RepositoryContent): RepositoryFile[] {
  return content.files.filter((file) => file.bytes.byteLength > MAX_FILE_BYTES);
}

type FileInput = InsertFiles['files'][number];

function fileInput(file: RepositoryFile, urls: ReadonlyMap<string, string> | undefined): FileInput {
  const url = urls?.get(file.name);
  if (url !== undefined) return { name: file.name, contentType: file.contentType, url };
  if (file.bytes.byteLength > MAX_FILE_BYTES)
    throw new Error(
      `${file.name} is over the ${MAX_FILE_BYTES} bytes a file may have inline: upload it and name its URL`,
    );
  return { name: file.name, contentType: file.contentType, base64: Buffer.from(file.bytes).toString('base64') };
}

const weightOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** Items packed in order into pieces of at most `count` items and `bytes` bytes (an item over it alone). */
function pack<T>(items: readonly T[], count: number, bytes: number): T[][] {
  const pieces: T[][] = [];
  let current: T[] = [];
  let weight = 0;
  for (const item of items) {
    const size = weightOf(item);
    if (current.length > 0 && (current.length >= count || weight + size > bytes)) {
      pieces.push(current);
      current = [];
      weight = 0;
    }
    current.push(item);
    weight += size;
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}

/** The insert_files writes: files packed by bytes, twenty a change. */
function fileWrites(files: readonly RepositoryFile[], options: ChangeOptions, bytes: number): ContentChange[][] {
  const inputs = files.map((file) => fileInput(file, options.urls));
  return pack(inputs, CHANGES_PER_WRITE * FILES_PER_CHANGE, bytes).map((files) => {
    const changes: ContentChange[] = [];
    for (let at = 0; at < files.length; at += FILES_PER_CHANGE)
      changes.push({ operation: 'insert_files', files: files.slice(at, at + FILES_PER_CHANGE) });
    return changes;
  });
}

const titleOf = (title: string) => (title ? { title: title.slice(0, MAX_TITLE) } : {});

/** The changes of the pages and groups, parents first, and the links with where they go. */
function entryChanges(content: RepositoryContent): { pages: ContentChange[]; links: ContentChange[] } {
  const pages: ContentChange[] = [];
  const links: Array<{ link: RepositoryLink; into: string | undefined; at: number }> = [];
  const refs = new Map<string, string>();
  let groups = 0;
  const refOf = (path: string) => {
    let ref = refs.get(path);
    if (ref === undefined) refs.set(path, (ref = REF.test(path) ? path : `page:${refs.size}`));
    return ref;
  };

  const visit = (entries: readonly TopLevelEntry[], into: string | undefined) => {
    for (const [at, entry] of entries.entries()) {
      if (entry.kind === 'link') {
        links.push({ link: entry, into, at });
      } else if (entry.kind === 'group') {
        const ref = `group:${groups++}`;
        const slug = isValidSlug(entry.slug) ? entry.slug : groupSlugOf(entry);
        pages.push({ operation: 'insert_page', ref, type: 'group', ...titleOf(entry.title), slug });
        visit(entry.children, ref);
      } else {
        const ref = refOf(entry.path);
        const slug = slugOfGitPath(entry.path);
        pages.push({
          operation: 'insert_page',
          ref,
          ...titleOf(entry.title),
          ...(isValidSlug(slug) ? { slug } : {}),
          ...(into ? { into } : {}),
          document: { markdown: entry.markdown },
        });
        visit(entry.children, ref);
      }
    }
  };
  visit(content.entries, undefined);

  return {
    pages,
    links: links.map(({ link, into, at }): ContentChange => {
      const { target } = link;
      let pageRef: string | undefined;
      if ('path' in target) {
        pageRef = refs.get(target.path);
        if (pageRef === undefined)
          throw new Error(`The link entry "${link.title}" leads to ${target.path}, which is no page of the content`);
      }
      return {
        operation: 'insert_page',
        type: 'link',
        ...titleOf(link.title),
        ...(into ? { into } : {}),
        at,
        target:
          'url' in target
            ? { kind: 'url', url: target.url }
            : target.anchor
              ? { kind: 'anchor', anchor: target.anchor, page: pageRef! }
              : { kind: 'page', page: pageRef! },
      };
    }),
  };
}

/**
 * The writes that make the repository's content in an empty space, each one
 * the `changes` of one request, in order. Files over MAX_FILE_BYTES need
 * their upload's URL in `options.urls` (`filesToUpload`).
 */
export function changesOfRepository(content: RepositoryContent, options: ChangeOptions = {}): ContentChange[][] {
  const { pages, links } = entryChanges(content);
  return writesOf(content.files, [...pages, ...links], options);
}

/**
 * Files and page changes as writes, in order: the files first (those over
 * MAX_FILE_BYTES by their upload's URL in `options.urls`), then the changes,
 * each write within the route's count and `options.bytesPerWrite`.
 */
export function writesOf(
  files: readonly RepositoryFile[],
  changes: readonly ContentChange[],
  options: ChangeOptions = {},
): ContentChange[][] {
  const bytes = options.bytesPerWrite ?? DEFAULT_WRITE_BYTES;
  return [...fileWrites(files, options, bytes), ...pack(changes, CHANGES_PER_WRITE, bytes)];
}

/** The refs a write's own changes define. */
function ownRefs(write: readonly ContentChange[]): Set<string> {
  return new Set(write.flatMap((change) => (change.operation === 'insert_page' && change.ref ? [change.ref] : [])));
}

/**
 * A write with the pages it names by the refs of earlier writes (parents,
 * the parents pages move into, link targets) named by the ids those writes gave them (`written`, by ref).
 */
export function bindWrite(write: readonly ContentChange[], written: ReadonlyMap<string, string>): ContentChange[] {
  const own = ownRefs(write);
  const bound = (ref: string) => (own.has(ref) ? ref : (written.get(ref) ?? ref));
  return write.map((change): ContentChange => {
    if (change.operation === 'update_page')
      return typeof change.into === 'string' ? { ...change, into: bound(change.into) } : change;
    if (change.operation !== 'insert_page') return change;
    const target = change.target;
    return {
      ...change,
      ...(change.into !== undefined ? { into: bound(change.into) } : {}),
      ...(target && (target.kind === 'page' || target.kind === 'anchor')
        ? { target: { ...target, page: bound(target.page) } }
        : {}),
    };
  });
}

/** The ids a write's answer (`compat=false`) gave the pages it created, added to `written` by ref. */
export function recordCreatedPages(
  answer: { changes?: ReadonlyArray<{ object?: string; ref?: string; page?: { id?: string } }> },
  written: Map<string, string>,
): void {
  for (const change of answer.changes ?? [])
    if (change.object === 'created_page' && change.ref !== undefined && change.page?.id)
      written.set(change.ref, change.page.id);
}
