import { BadRequestError } from '../../core/errors.js';
import { findEditableSpace } from '../../access/spaces.js';
import { changeRequestIn } from '../../content/change-request-access.js';
import { findRevision } from '../../content/state.js';
import type { Context } from '../../context.js';
import { requireWorkable, writeChangeRequestContent, writeSpaceContent } from '../changes/write.js';
import { markdownBatch } from './markdown-file.js';
import { inImportSlot } from './slots.js';
import type { HtmlReader } from './reader.js';
import {
  SUPPORTED_SOURCES,
  type ImportContentInput,
  type ImportContentResult,
  type SupportedSource,
} from './schemas.js';
import { websiteBatch, type ImportBatch } from './website.js';

function supportedSource(source: string): SupportedSource {
  const supported = SUPPORTED_SOURCES.find((name) => name === source);
  if (!supported) {
    throw new BadRequestError(
      `body/source ${source} is not imported by this service; the supported sources are ${SUPPORTED_SOURCES.join(' and ')}`,
    );
  }
  return supported;
}

function startUrl(raw: string): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BadRequestError('body/url must be an http or https URL');
  return url;
}

/**
 * Fetches what the import brings in, before any transaction: the website's
 * pages and images, or the markdown file. The tree is the content it will be
 * added to, for the slugs of new top-level pages.
 */
async function prepareImport(
  context: Context,
  reader: HtmlReader,
  input: ImportContentInput,
  place: { spaceId: string; revisionId: string },
): Promise<ImportBatch> {
  const source = supportedSource(input.source);
  const url = startUrl(input.url);
  if (source === 'markdown') return markdownBatch(context.outbound, url);
  const point = await findRevision(context.db, place.spaceId, place.revisionId);
  if (!point) throw new Error(`Space ${place.spaceId} points at a missing revision`);
  const tree = await context.content.tree(point);
  return websiteBatch({ outbound: context.outbound, reader }, url, context.config.importLimits, tree);
}

const resultOf = (revision: string, batch: ImportBatch): ImportContentResult => ({
  revision,
  importedResources: batch.importedResources,
  totalResources: batch.totalResources,
});

/** Imports a website or a markdown file into the space, as one new revision of it, after its existing pages. */
export async function importIntoSpace(
  context: Context,
  reader: HtmlReader,
  userId: string,
  spaceId: string,
  input: ImportContentInput,
): Promise<ImportContentResult> {
  const { space } = await findEditableSpace(context, spaceId, userId, 'Importing content');
  const target = { organizationId: space.organization_id, spaceId: space.id, userId };
  return inImportSlot(context, target, async () => {
    const batch = await prepareImport(context, reader, input, { spaceId: space.id, revisionId: space.revision_id });
    const written = await writeSpaceContent(context, target, batch.changes, batch.files);
    return resultOf(written.revisionId, batch);
  });
}

/** Imports a website or a markdown file into a change request, as one new revision of it. */
export async function importIntoChangeRequest(
  context: Context,
  reader: HtmlReader,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  input: ImportContentInput,
): Promise<ImportContentResult> {
  const { space } = await findEditableSpace(context, spaceId, userId, 'Importing content into a change request');
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  // Checked again under the lock; checked here too so that nothing is crawled for a closed change request.
  requireWorkable(changeRequest.status);
  const target = {
    organizationId: space.organization_id,
    spaceId: space.id,
    changeRequestId: changeRequest.id,
    userId,
  };
  return inImportSlot(context, target, async () => {
    const batch = await prepareImport(context, reader, input, {
      spaceId: space.id,
      revisionId: changeRequest.revision_id,
    });
    const written = await writeChangeRequestContent(context, target, batch.changes, batch.files);
    return resultOf(written.revisionId, batch);
  });
}
