import { sql } from 'kysely';
import { findSpaceAsMember, findVisibleSpace } from '../access/spaces.js';
import { BadRequestError, NotFoundError } from '../core/errors.js';
import { loaded, loadingCache } from '../core/loading-cache.js';
import { perContext, type Context } from '../context.js';
import { changeRequestIn } from '../content/change-request-access.js';
import { findRevision, type RevisionPoint } from '../content/state.js';
import type { ContentTree, PageState } from '../content/tree.js';
import { repositoryOfSpace, writeRepository } from '../git-sync/format/index.js';
import type { PdfPage } from './pdf.js';
import { pdfOffThread, zipOffThread } from './pool.js';
import { exportUrlIsValid, fileNameOf, signExportUrl, type ExportKind, type ExportTarget } from './signing.js';

/** What one export may hold: beyond it, the URL is refused with a 400 naming the bound. */
export const EXPORT_LIMITS = Object.freeze({
  /** Pages (groups included) of one PDF. */
  pdfPages: 2_000,
  /** Bytes of the images one PDF embeds; past it an image is shown as its text. */
  pdfImageBytes: 32 * 1024 * 1024,
  /** Bytes of the files one zip holds, before compression. */
  zipBytes: 256 * 1024 * 1024,
});

/** Exports made in this instance, by what they are of: a revision never changes, so neither does its export. */
const MADE_BYTES = 64 * 1024 * 1024;
const madeExports = perContext(() => loadingCache<Uint8Array>(MADE_BYTES, (bytes) => bytes.byteLength + 64));

export interface ExportOptions {
  page?: string;
  only?: boolean;
  /** The key of a share-link space, for a visitor of it. */
  shareKey?: string;
}

async function treeAt(context: Context, organizationId: string, spaceId: string, revisionId: string) {
  const point = await findRevision(context.db, spaceId, revisionId);
  if (!point) throw new NotFoundError('No revision with this id in the space');
  const at: RevisionPoint = { ...point, organizationId };
  return { point: at, tree: await context.content.tree(at) };
}

/** The pages a PDF shows, in the tree's order: all, or a page with (unless `only`) its subpages. */
function pdfPagesOf(tree: ContentTree, options: ExportOptions): Array<{ page: PageState; depth: number }> {
  const shown: Array<{ page: PageState; depth: number }> = [];
  const visit = (parentId: string | null, depth: number) => {
    for (const page of tree.childrenOf(parentId)) {
      if (page.type !== 'document' && page.type !== 'group') continue;
      shown.push({ page, depth });
      visit(page.pageId, depth + 1);
    }
  };
  if (options.page === undefined) {
    visit(null, 0);
    return shown;
  }
  const page = tree.pages.get(options.page);
  if (!page || page.type !== 'document') throw new NotFoundError('query/page: no page with this id in the content');
  shown.push({ page, depth: 0 });
  if (!options.only) visit(page.pageId, 1);
  return shown;
}

async function checkedTarget(
  context: Context,
  target: Omit<ExportTarget, 'page' | 'only'>,
  options: ExportOptions,
): Promise<ExportTarget> {
  const full: ExportTarget = {
    ...target,
    ...(options.page !== undefined ? { page: options.page } : {}),
    ...(options.only ? { only: true } : {}),
  };
  if (target.kind === 'pdf') {
    const { tree } = await treeAt(context, target.organizationId, target.spaceId, target.revisionId);
    const pages = pdfPagesOf(tree, options);
    if (pages.length > EXPORT_LIMITS.pdfPages)
      throw new BadRequestError(
        `The content has ${pages.length} pages, over the ${EXPORT_LIMITS.pdfPages} a PDF may hold; export a page with its subpages (query/page)`,
      );
  }
  return full;
}

/**
 * GitBook's getSpacePDF, and the zip of the space in GitBook's Git Sync
 * format: a temporary URL to the export of the space's current revision, for
 * whoever may read the space (a visitor of a public space too).
 */
export async function spaceExportUrl(
  context: Context,
  userId: string,
  spaceId: string,
  kind: ExportKind,
  options: ExportOptions,
): Promise<{ url: string }> {
  const { space } = await findVisibleSpace(
    context,
    spaceId,
    userId,
    options.shareKey !== undefined ? { shareKey: options.shareKey } : {},
  );
  const target = await checkedTarget(
    context,
    { kind, organizationId: space.organization_id, spaceId: space.id, revisionId: space.revision_id },
    options,
  );
  return { url: signExportUrl(context, target, context.clock.now()) };
}

/** GitBook's getChangeRequestPDF, and the change request's zip: its newest revision, for members of the space. */
export async function changeRequestExportUrl(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  kind: ExportKind,
  options: ExportOptions,
): Promise<{ url: string }> {
  const { space } = await findSpaceAsMember(context, spaceId, userId);
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  const target = await checkedTarget(
    context,
    { kind, organizationId: space.organization_id, spaceId: space.id, revisionId: changeRequest.revision_id },
    options,
  );
  return { url: signExportUrl(context, target, context.clock.now()) };
}

/** The file ids a document's images name. */
function imageFiles(node: unknown, into: Set<string>): void {
  if (!node || typeof node !== 'object') return;
  const value = node as { type?: string; data?: { ref?: { kind?: string; file?: string } }; nodes?: unknown[] };
  if (
    (value.type === 'image' || value.type === 'inline-image') &&
    value.data?.ref?.kind === 'file' &&
    value.data.ref.file
  )
    into.add(value.data.ref.file);
  for (const child of value.nodes ?? []) imageFiles(child, into);
  for (const fragment of (node as { fragments?: unknown[] }).fragments ?? []) imageFiles(fragment, into);
}

/** The PNG and JPEG bytes of the files, within the PDF's image bound, by file id; in one statement. */
async function imageBytes(context: Context, organizationId: string, tree: ContentTree, fileIds: Set<string>) {
  const versions = new Map<string, string>();
  let total = 0;
  for (const fileId of fileIds) {
    const file = tree.files.get(fileId);
    if (!file || !/^image\/(png|jpeg)$/.test(file.contentType)) continue;
    if (total + file.size > EXPORT_LIMITS.pdfImageBytes) continue;
    total += file.size;
    versions.set(file.versionId, fileId);
  }
  if (versions.size === 0) return {};
  const rows = await context.db
    .selectFrom('file_versions as f')
    .innerJoin('blobs as b', 'b.sha256', 'f.sha256')
    .select(['f.id', 'b.bytes'])
    .where('f.organization_id', '=', organizationId)
    .where('f.id', '=', sql<string>`any(${[...versions.keys()]}::text[])`)
    .execute();
  return Object.fromEntries(rows.map((row) => [versions.get(row.id)!, new Uint8Array(row.bytes)]));
}

async function makePdf(context: Context, target: ExportTarget): Promise<Uint8Array> {
  const { tree } = await treeAt(context, target.organizationId, target.spaceId, target.revisionId);
  const shown = pdfPagesOf(tree, target);
  const documentOf = await context.content.documentsOf(
    target.organizationId,
    shown.map(({ page }) => page),
  );
  const space = await context.db
    .selectFrom('spaces')
    .select('title')
    .where('organization_id', '=', target.organizationId)
    .where('id', '=', target.spaceId)
    .executeTakeFirstOrThrow();
  const files = new Set<string>();
  let characters = 0;
  const pages: PdfPage[] = shown.map(({ page, depth }) => {
    const document = page.type === 'document' ? documentOf(page) : null;
    imageFiles(document, files);
    characters += page.title.length + (document ? JSON.stringify(document).length : 0);
    return { title: page.title, depth, kind: page.type === 'group' ? 'group' : 'page', document };
  });
  const images = await imageBytes(context, target.organizationId, tree, files);
  const title = target.page !== undefined && shown[0] ? shown[0].page.title : space.title;
  return pdfOffThread(context.exportWorks, { title, pages, images }, characters);
}

async function makeZip(context: Context, target: ExportTarget): Promise<Uint8Array> {
  const content = await repositoryOfSpace(context, target.organizationId, target.spaceId, target.revisionId);
  const files = writeRepository(content);
  let bytes = 0;
  for (const file of files.values()) bytes += file.byteLength;
  if (bytes > EXPORT_LIMITS.zipBytes)
    throw new BadRequestError(`The content holds over ${EXPORT_LIMITS.zipBytes} bytes, more than a zip export may`);
  return zipOffThread(context.exportWorks, Object.fromEntries(files), bytes);
}

export interface ExportDownload {
  bytes: Uint8Array;
  name: string;
  contentType: string;
}

/**
 * The bytes a signed export URL names, made on the export pool the first
 * time and kept a while. The signature is the permission; the space must
 * still be there (a deleted space's exports are gone with it).
 */
export async function downloadExport(
  context: Context,
  request: {
    spaceId: string;
    revisionId: string;
    file: string;
    organization: string;
    page?: string;
    only?: boolean;
    expires: number;
    signature: string;
  },
): Promise<ExportDownload> {
  const unknown = new NotFoundError('This export URL is unknown or has expired; ask for a new one');
  const kind = request.file.endsWith('.pdf') ? 'pdf' : request.file.endsWith('.zip') ? 'zip' : undefined;
  if (!kind) throw unknown;
  const target: ExportTarget = {
    kind,
    organizationId: request.organization,
    spaceId: request.spaceId,
    revisionId: request.revisionId,
    ...(request.page !== undefined ? { page: request.page } : {}),
    ...(request.only ? { only: true } : {}),
  };
  if (request.file !== fileNameOf(target)) throw unknown;
  if (!exportUrlIsValid(context, target, request.expires, request.signature, context.clock.now())) throw unknown;
  const space = await context.db
    .selectFrom('spaces')
    .select('id')
    .where('organization_id', '=', target.organizationId)
    .where('id', '=', target.spaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!space) throw unknown;
  const key = [kind, target.revisionId, target.page ?? '', target.only ? '1' : '0'].join(':');
  const bytes = await loaded(madeExports(context), key, () =>
    kind === 'pdf' ? makePdf(context, target) : makeZip(context, target),
  );
  return { bytes, name: request.file, contentType: kind === 'pdf' ? 'application/pdf' : 'application/zip' };
}
