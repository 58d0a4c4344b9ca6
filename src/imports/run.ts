import { Readable } from 'node:stream';
import { findEditableSpace } from '../access/spaces.js';
import { ConflictError } from '../core/errors.js';
import type { Context } from '../context.js';
import { findRevision } from '../content/state.js';
import { createStorageUpload, receiveUploadBytes } from '../content/files/storage/actions.js';
import { createChangeRequest, mergeChangeRequest, updateChangeRequest } from '../change-requests/actions.js';
import { requireWorkable, writeChangeRequestContent } from '../change-requests/changes/write.js';
import type { PreparedFile } from '../change-requests/changes/files.js';
import { HtmlReader } from '../change-requests/import/reader.js';
import { websiteBatch } from '../change-requests/import/website.js';
import type { ContentChange } from '../change-requests/schemas.js';
import { bindWrite, changesOfRepository, filesToUpload, type RepositoryContent } from '../git-sync/format/index.js';
import type { GitRemote } from '../git-sync/git/remote.js';
import { readZipOffThread } from './archive-pool.js';
import { noteOnRun, recordProgress, statusOf, type ImportRun } from './queries.js';
import type { ImportedPageItem } from './schemas.js';

/**
 * One claim's turn at an import run. The source is read, then written into
 * a change request one write at a time, each write recorded (the revision it
 * made, the pages it created by ref) so that a run taken again after its
 * instance died goes on after the last recorded write. A write that landed
 * without its record shows as a change request moved past the recorded
 * revision: then a run into a space starts over in a new change request (the
 * old one archived), since its pages cannot be told from the ones written
 * before; a run into the caller's change request fails and says so.
 */

/** Why a claim stops without ending the run: cancelled, or taken again after its lease. */
export class RunReleased extends Error {}

/** A write of the run: changes, with the files the website crawl fetched for it. */
interface Step {
  /** Which of the source's parts it belongs to (a zip of several): refs are that part's. */
  part: number;
  changes: ContentChange[];
  files?: Map<number, PreparedFile[]>;
  /** Files to upload before the write, by the placeholder URL its changes name them with. */
  uploads?: Map<string, { name: string; contentType: string; bytes: Uint8Array }>;
}

interface Target {
  organizationId: string;
  spaceId: string;
  userId: string;
  changeRequestId: string;
}

const PENDING_UPLOAD = 'pending-upload:';

/** The reason a run gives when it fails on its source or target, as a request would be refused. */
export class RunRefused extends Error {}

function remoteOf(context: Context, run: ImportRun): GitRemote {
  return {
    url: run.source_url!,
    ref: run.source_ref!,
    ...(run.authorization_sealed
      ? { authorization: context.keyring.open(run.authorization_sealed, importCredentialsContext(run.id)) }
      : {}),
  };
}

/** The keyring context of a run's sealed Git credentials: they open for that run only. */
export const importCredentialsContext = (runId: string) => `import-run:${runId}`;

/** Top-level pages of the writes put under the target page, where the run names one. */
function intoPage(changes: ContentChange[], pageId: string | null): ContentChange[] {
  if (!pageId) return changes;
  return changes.map((change) =>
    change.operation === 'insert_page' && change.into === undefined && change.type !== 'group'
      ? { ...change, into: pageId }
      : change,
  );
}

/** The writes of repository content: large files named by placeholders, uploaded when their write comes. */
function repositorySteps(content: RepositoryContent, part: number): Step[] {
  const large = filesToUpload(content);
  const urls = new Map(large.map((file) => [file.name, `${PENDING_UPLOAD}${file.name}`]));
  const uploads = new Map(large.map((file) => [`${PENDING_UPLOAD}${file.name}`, file]));
  return changesOfRepository(content, { urls }).map((changes) => ({ part, changes, uploads }));
}

async function uploadBytes(
  context: Context,
  target: Target,
  file: { name: string; contentType: string; bytes: Uint8Array },
) {
  const { url, key } = await createStorageUpload(context, target.userId, target.organizationId, {
    kind: 'import_file',
    file: { name: file.name, size: file.bytes.byteLength, type: file.contentType },
  });
  const signature = new URL(url).searchParams.get('signature') ?? '';
  await receiveUploadBytes(context, key, signature, Readable.from([Buffer.from(file.bytes)]), file.bytes.byteLength);
  return url;
}

/** The step's changes with the files it names by placeholder uploaded, and their URLs named instead. */
async function withUploads(context: Context, target: Target, step: Step): Promise<ContentChange[]> {
  if (!step.uploads || step.uploads.size === 0) return step.changes;
  const out: ContentChange[] = [];
  for (const change of step.changes) {
    if (change.operation !== 'insert_files') {
      out.push(change);
      continue;
    }
    const files = [];
    for (const file of change.files) {
      const pending = 'url' in file && typeof file.url === 'string' ? step.uploads.get(file.url) : undefined;
      files.push(pending ? { ...file, url: await uploadBytes(context, target, pending) } : file);
    }
    out.push({ ...change, files });
  }
  return out;
}

/** The bytes of a completed storage upload of the organization, or a refusal naming it. */
async function uploadedZip(context: Context, run: ImportRun, key: string): Promise<Uint8Array> {
  const row = await context.db
    .selectFrom('storage_uploads as u')
    .innerJoin('blobs as b', 'b.sha256', 'u.sha256')
    .select('b.bytes')
    .where('u.organization_id', '=', run.organization_id)
    .where('u.id', '=', key)
    .where('u.uploaded_at', 'is not', null)
    .executeTakeFirst();
  if (!row) throw new RunRefused(`source/files: no completed upload ${key} in this organization`);
  return row.bytes;
}

/** The steps of the run's source; `version` names what was read (a commit), for a run taken again. */
async function readSource(
  context: Context,
  run: ImportRun,
  target: Target,
  signal: AbortSignal | undefined,
): Promise<{ steps: Step[]; version: string | null }> {
  if (run.source_type === 'git') {
    const { commit, read } = await context.git.readRepository(
      remoteOf(context, run),
      run.source_project_directory,
      signal,
    );
    if (commit === null || read === null)
      throw new RunRefused(`The repository has no branch ${run.source_ref!.replace(/^refs\/heads\//, '')}`);
    return { steps: repositorySteps(read.content, 0), version: commit };
  }
  if (run.source_type === 'file') {
    const steps: Step[] = [];
    for (const [part, key] of run.source_files.entries()) {
      const bytes = await uploadedZip(context, run, key);
      const read = await readZipOffThread(context.importArchives, bytes, `source/files/${part}`);
      if (read.content.entries.length === 0)
        throw new RunRefused(`source/files/${part}: ${read.problems[0]?.message ?? 'the zip holds no page to import'}`);
      steps.push(...repositorySteps(read.content, part));
    }
    return { steps, version: run.source_files.join(',') };
  }
  const revision = await changeRequestRevision(context, target);
  const point = await findRevision(context.db, target.spaceId, revision);
  if (!point) throw new Error(`Change request ${target.changeRequestId} points at a missing revision`);
  const tree = await context.content.tree(point);
  const batch = await websiteBatch(
    { outbound: context.outbound, reader: new HtmlReader(context.workPools.html) },
    new URL(run.source_url!),
    context.config.importLimits,
    tree,
  );
  return { steps: [{ part: 0, changes: batch.changes, files: batch.files }], version: null };
}

async function changeRequestRevision(context: Context, target: Target): Promise<string> {
  const row = await context.db
    .selectFrom('change_requests')
    .select(['revision_id', 'status'])
    .where('organization_id', '=', target.organizationId)
    .where('id', '=', target.changeRequestId)
    .executeTakeFirst();
  if (!row) throw new RunRefused('The change request the import writes into was deleted');
  return row.revision_id;
}

async function changeRequestStatus(context: Context, target: Target) {
  return context.db
    .selectFrom('change_requests')
    .select(['status', 'number', 'revision_id'])
    .where('organization_id', '=', target.organizationId)
    .where('id', '=', target.changeRequestId)
    .executeTakeFirst();
}

/** Still this claim's run: not cancelled, not taken by another claim; else RunReleased. */
async function stillHeld(context: Context, run: ImportRun, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) throw new RunReleased('The worker stopped');
  const now = await statusOf(context.db, run);
  if (!now || now.status !== 'in-progress' || now.attempts !== run.attempts) throw new RunReleased('Released');
}

/** Where a run writes: the caller's change request, or one of its own (made, or made again, here). */
async function prepareTarget(
  context: Context,
  run: ImportRun,
  progress: { draft: string | null },
  describe: string,
): Promise<Target> {
  const base = { organizationId: run.organization_id, spaceId: run.space_id, userId: run.created_by };
  if (run.change_request_id) return { ...base, changeRequestId: run.change_request_id };
  if (progress.draft) return { ...base, changeRequestId: progress.draft };
  const changeRequest = await createChangeRequest(context, run.created_by, run.space_id, {
    subject: `Import ${describe}`.slice(0, 100),
  });
  const target = { ...base, changeRequestId: changeRequest.id };
  const revision = await changeRequestRevision(context, target);
  progress.draft = changeRequest.id;
  const held = await recordProgress(
    context.db,
    run,
    { draftChangeRequestId: changeRequest.id, stepsDone: 0, written: {}, writtenRevisionId: revision, pages: [] },
    context.clock.now(),
  );
  if (!held) {
    await archive(context, run, changeRequest.id);
    throw new RunReleased('Released');
  }
  return target;
}

async function archive(context: Context, run: ImportRun, changeRequestId: string): Promise<void> {
  await updateChangeRequest(context, run.created_by, run.space_id, changeRequestId, { status: 'archived' }).catch(
    () => undefined,
  );
}

export function describeSource(run: ImportRun): string {
  if (run.source_type === 'git') return `${run.source_ref!.replace(/^refs\/heads\//, '')} from ${run.source_url}`;
  if (run.source_type === 'file')
    return run.source_files.length === 1 ? 'of an uploaded zip' : `of ${run.source_files.length} uploaded zips`;
  return `of ${run.source_url}`;
}

/**
 * Runs the claimed run to its end: completed (its change request merged, or
 * its writes in the caller's change request), or a thrown RunRefused /
 * ConflictError / ApiError for the processor to record as its failure.
 */
export async function executeRun(context: Context, run: ImportRun, signal?: AbortSignal): Promise<void> {
  await stillHeld(context, run, signal);
  await findEditableSpace(context, run.space_id, run.created_by, 'Importing content');
  const describe = describeSource(run);
  const progress = { draft: run.draft_change_request_id };
  let target = await prepareTarget(context, run, progress, describe);

  let stepsDone = run.steps_done;
  let written = new Map(Object.entries(run.written));
  let pages = [...(run.pages as ImportedPageItem[])];
  let writtenRevision = run.written_revision_id;

  // A draft this run already merged, before its instance could record the end: done.
  const state = await changeRequestStatus(context, target);
  if (!state) throw new RunRefused('The change request the import writes into was deleted');
  if (!run.change_request_id && state.status === 'merged') return;
  requireWorkable(state.status);

  const moved = writtenRevision !== null && state.revision_id !== writtenRevision;
  // A crawl is one write: once it is recorded, only the merge is left, and the site is not crawled again.
  const { steps, version } =
    run.source_type === 'website' && stepsDone >= 1 && !moved
      ? { steps: [], version: null }
      : await readSource(context, run, target, signal);
  await stillHeld(context, run, signal);
  const changedSource = stepsDone > 0 && run.source_version !== null && run.source_version !== version;
  if (moved || changedSource) {
    if (run.change_request_id)
      throw new RunRefused(
        `The run stopped after ${stepsDone} of its writes and the change request changed since, or its source did; ` +
          'it is left as it is rather than written twice',
      );
    // Its pages cannot be told from those written before: a new change request, from the start.
    await archive(context, run, target.changeRequestId);
    progress.draft = null;
    target = await prepareTarget(context, run, progress, describe);
    stepsDone = 0;
    written = new Map();
    pages = [];
    writtenRevision = null;
  }
  if (
    !(await recordProgress(
      context.db,
      run,
      { sourceVersion: version, stepsTotal: Math.max(steps.length, stepsDone) },
      context.clock.now(),
    ))
  )
    throw new RunReleased('Released');

  for (let at = stepsDone; at < steps.length; at++) {
    await stillHeld(context, run, signal);
    await findEditableSpace(context, run.space_id, run.created_by, 'Importing content');
    const step = steps[at]!;
    const prefix = `${step.part}/`;
    const own = new Map(
      [...written].filter(([key]) => key.startsWith(prefix)).map(([key, id]) => [key.slice(prefix.length), id]),
    );
    const changes = intoPage(bindWrite(await withUploads(context, target, step), own), run.page_id);
    const batch = await writeChangeRequestContent(context, target, changes, step.files);
    for (const outcome of batch.outcomes) {
      if (outcome.object !== 'created_page') continue;
      if (outcome.ref !== undefined) written.set(`${prefix}${outcome.ref}`, outcome.page);
      pages.push({ id: outcome.page, type: outcome.ref?.startsWith('group:') ? 'folder' : 'page', status: 'complete' });
    }
    writtenRevision = batch.revisionId;
    const held = await recordProgress(
      context.db,
      run,
      { stepsDone: at + 1, written: Object.fromEntries(written), writtenRevisionId: batch.revisionId, pages },
      context.clock.now(),
    );
    if (!held) throw new RunReleased('Released');
  }

  if (run.change_request_id) return;
  await stillHeld(context, run, signal);
  const merged = await mergeChangeRequest(context, run.created_by, run.space_id, target.changeRequestId);
  if (merged.result !== 'merge') {
    const number = (await changeRequestStatus(context, target))?.number;
    throw new ConflictError(
      `The import conflicts with changes made in the space meanwhile; change request #${number} holds it, open`,
    );
  }
}

/** What a cancelled run left behind, said in its reason once its worker has stopped. */
export async function noteCancelled(context: Context, run: ImportRun): Promise<void> {
  const now = await context.db
    .selectFrom('import_runs')
    .select(['status', 'steps_done', 'steps_total', 'draft_change_request_id', 'reason'])
    .where('organization_id', '=', run.organization_id)
    .where('id', '=', run.id)
    .executeTakeFirst();
  if (now?.status !== 'cancelled') return;
  const of = now.steps_total === null ? '' : ` of ${now.steps_total}`;
  let reason = `${now.reason ?? 'Cancelled'}; stopped after ${now.steps_done}${of} writes`;
  if (!now.draft_change_request_id && !run.change_request_id) {
    reason = `${now.reason ?? 'Cancelled'}; stopped before it wrote anything: the space is as it was`;
  } else if (now.draft_change_request_id) {
    await archive(context, run, now.draft_change_request_id);
    reason += ', and the change request that held them is archived: the space is as it was';
  } else {
    reason += ', which the change request keeps';
  }
  await noteOnRun(context.db, run, reason, context.clock.now());
}
