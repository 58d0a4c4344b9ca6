import type { Context } from '../context.js';
import { MAX_ATTEMPTS, type ImportRun } from './queries.js';
import type { ContentImportRun, ImportedPageItem, ImportRunStatus } from './schemas.js';

/**
 * Whether a run was left behind: its last claim's lease ran out and no worker
 * may take it again. GitBook answers such a run as failed; the next worker to
 * look ends it so.
 */
function leftBehind(context: Context, run: ImportRun): boolean {
  return (
    run.status === 'in-progress' &&
    run.attempts >= MAX_ATTEMPTS &&
    run.lease_expires_at !== null &&
    run.lease_expires_at < context.clock.now()
  );
}

/** A run as GitBook's ContentImportRun, with how far it is; a Git run's branch under `git`, GitBook's source knowing none. */
export function presentImportRun(context: Context, run: ImportRun): ContentImportRun {
  const abandoned = leftBehind(context, run);
  const source =
    run.source_type === 'website'
      ? { source: { type: 'website' as const, url: run.source_url! } }
      : run.source_type === 'file'
        ? { source: { type: 'file' as const, files: run.source_files } }
        : { git: { url: run.source_url!, ref: run.source_ref!, repoProjectDirectory: run.source_project_directory } };
  return {
    object: 'import-run',
    id: run.id,
    status: abandoned ? 'failed' : (run.status as ImportRunStatus),
    ...(abandoned
      ? { reason: `The import stopped ${run.attempts} times before it could finish` }
      : run.reason !== null
        ? { reason: run.reason }
        : {}),
    createdAt: run.created_at.toISOString(),
    updatedAt: run.updated_at.toISOString(),
    ...(run.started_at ? { startedAt: run.started_at.toISOString() } : {}),
    ...(run.completed_at ? { completedAt: run.completed_at.toISOString() } : {}),
    ...source,
    target: {
      space: run.space_id,
      ...(run.change_request_id ? { changeRequest: run.change_request_id } : {}),
      ...(run.page_id ? { page: run.page_id } : {}),
    },
    ...(run.site_id ? { site: run.site_id } : {}),
    createdBy: run.created_by,
    progress: {
      stepsDone: run.steps_done,
      ...(run.steps_total !== null ? { stepsTotal: run.steps_total } : {}),
      ...(run.draft_change_request_id ? { changeRequest: run.draft_change_request_id } : {}),
    },
    urls: { location: context.urls.api('org', run.organization_id, 'imports', run.id) },
    pages: run.pages as ImportedPageItem[],
  };
}
