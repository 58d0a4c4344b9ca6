import type { Urls } from '../core/urls.js';
import type { ChangeRequest } from '../content/change-request-schemas.js';
import { presentFile } from '../content/page-present.js';
import { presentReusableContent } from '../content/reusable-contents.js';
import type { FileState } from '../content/tree.js';
import type { WrittenBatch } from './changes/write.js';

/**
 * What a batch of content changes did, beside the change request it left:
 * each page it touched, with its location in the change request, and the
 * files it inserted, with `downloadUrl` (signed) for each.
 */
export function presentWrittenBatch(
  changeRequest: ChangeRequest,
  written: WrittenBatch,
  urls: Urls,
  downloadUrl: (file: FileState) => string,
) {
  const pageLocation = (pageId: string) =>
    urls.api('spaces', changeRequest.space, 'change-requests', changeRequest.id, 'content', 'page', pageId);
  return {
    changeRequest,
    changes: written.outcomes.map((outcome) =>
      outcome.object === 'deleted_page'
        ? outcome
        : { ...outcome, page: { object: 'page', id: outcome.page, urls: { location: pageLocation(outcome.page) } } },
    ),
    insertedFiles: written.insertedFiles.map((file) => presentFile(file, downloadUrl(file))),
    // Not in the spec's answer, which knows no content change that makes one: how a caller learns the new ids.
    ...(written.insertedReusableContents.length > 0
      ? { insertedReusableContents: written.insertedReusableContents.map(presentReusableContent) }
      : {}),
  };
}
