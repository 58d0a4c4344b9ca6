import { requireFullMembership } from '../access/membership.js';
import { findEditableSpace, spaceNotFound } from '../access/spaces.js';
import { BadRequestError, ConflictError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Context } from '../context.js';
import { changeRequestIn } from '../content/change-request-access.js';
import { findRevision } from '../content/state.js';
import { takeUpload } from '../content/files/storage/actions.js';
import { requireWorkable } from '../change-requests/changes/write.js';
import { gitRemote } from '../git-sync/git/remote.js';
import { presentImportRun } from './present.js';
import {
  cancelImportRunRow,
  findImportRun,
  insertImportRun,
  listImportRuns as listRuns,
  type ImportRun,
} from './queries.js';
import { importCredentialsContext } from './run.js';
import type { ContentImportRun, ListImportRunsInput, StartImportRunInput } from './schemas.js';

const importRunNotFound = () => new NotFoundError('No import run with this id in the organization');

/** The folder named by repoProjectDirectory, without empty parts; `.` and `..` name none. */
function projectDirectory(raw: string | undefined): string {
  const parts = (raw ?? '').split('/').filter(Boolean);
  if (parts.some((part) => part === '.' || part === '..'))
    throw new BadRequestError('body/source/repoProjectDirectory must be a folder, with no . or .. in its path');
  return parts.join('/');
}

function websiteUrl(raw: string): string {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BadRequestError('body/source/url must be an http or https URL');
  return url.href;
}

/** The site the run is listed under: the one named (of the organization), else the only one the space is in. */
async function siteOf(context: Context, organizationId: string, spaceId: string, named: string | undefined) {
  if (named !== undefined) {
    const site = await context.db
      .selectFrom('sites')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', named)
      .executeTakeFirst();
    if (!site) throw new NotFoundError('body/site: no site with this id in the organization');
    return site.id;
  }
  const sites = await context.db
    .selectFrom('site_spaces')
    .select('site_id')
    .distinct()
    .where('organization_id', '=', organizationId)
    .where('space_id', '=', spaceId)
    .limit(2)
    .execute();
  return sites.length === 1 ? sites[0]!.site_id : null;
}

/** The target page, which must be a page of the content the run writes into. */
async function requirePage(context: Context, spaceId: string, revisionId: string, pageId: string): Promise<void> {
  const point = await findRevision(context.db, spaceId, revisionId);
  const tree = point ? await context.content.tree(point) : undefined;
  const page = tree?.pages.get(pageId);
  if (!page || page.type !== 'document')
    throw new NotFoundError('body/target/page: no page of the space (or its change request) with this id');
}

/**
 * GitBook's startImportRun: a run queued for the worker, which imports the
 * source into the target space (through a change request of its own, merged
 * at its end) or into the target change request. Needs the edit role on the
 * space; checked again as the run writes.
 */
export async function startImportRun(
  context: Context,
  userId: string,
  organizationId: string,
  input: StartImportRunInput,
): Promise<ContentImportRun> {
  const { space } = await findEditableSpace(context, input.target.space, userId, 'Importing content');
  if (space.organization_id !== organizationId) throw spaceNotFound();
  let changeRequestId: string | null = null;
  let revisionId = space.revision_id;
  if (input.target.changeRequest !== undefined) {
    const changeRequest = await changeRequestIn(context, space.id, input.target.changeRequest);
    requireWorkable(changeRequest.status);
    changeRequestId = changeRequest.id;
    revisionId = changeRequest.revision_id;
  }
  if (input.target.page !== undefined) await requirePage(context, space.id, revisionId, input.target.page);
  const id = newId();
  const source = input.source;
  let sourceFields: Pick<
    Parameters<typeof insertImportRun>[1],
    'sourceType' | 'sourceUrl' | 'sourceRef' | 'sourceProjectDirectory' | 'sourceFiles' | 'authorizationSealed'
  >;
  if (source.type === 'website') {
    sourceFields = {
      sourceType: 'website',
      sourceUrl: websiteUrl(source.url),
      sourceRef: null,
      sourceProjectDirectory: '',
      sourceFiles: [],
      authorizationSealed: null,
    };
  } else if (source.type === 'git') {
    const remote = gitRemote(source.url, source.ref);
    sourceFields = {
      sourceType: 'git',
      sourceUrl: remote.url,
      sourceRef: remote.ref,
      sourceProjectDirectory: projectDirectory(source.repoProjectDirectory),
      sourceFiles: [],
      authorizationSealed: remote.authorization
        ? context.keyring.seal(remote.authorization, importCredentialsContext(id))
        : null,
    };
  } else {
    // Each upload must be complete and the organization's; taking it keeps its bytes while the run waits.
    for (const [at, key] of source.files.entries())
      await takeUpload(context, space.organization_id, key, `body/source/files/${at}`);
    sourceFields = {
      sourceType: 'file',
      sourceUrl: null,
      sourceRef: null,
      sourceProjectDirectory: '',
      sourceFiles: source.files,
      authorizationSealed: null,
    };
  }
  const row = await insertImportRun(context.db, {
    id,
    organizationId: space.organization_id,
    spaceId: space.id,
    changeRequestId,
    pageId: input.target.page ?? null,
    siteId: await siteOf(context, space.organization_id, space.id, input.site),
    ...sourceFields,
    createdBy: userId,
    createdAt: context.clock.now(),
  });
  return presentImportRun(context, row);
}

/** A run of the organization, for a member of it (guests see none). */
async function memberRun(context: Context, userId: string, organizationId: string, runId: string) {
  await requireFullMembership(context.db, organizationId, userId, 'see the organization’s imports');
  const run = await findImportRun(context.db, organizationId, runId);
  if (!run) throw importRunNotFound();
  return run;
}

/** GitBook's getImportRun. */
export async function getImportRun(
  context: Context,
  userId: string,
  organizationId: string,
  runId: string,
): Promise<ContentImportRun> {
  return presentImportRun(context, await memberRun(context, userId, organizationId, runId));
}

/** GitBook's listImportRuns: the organization's runs, newest first, for its members. */
export async function listImportRuns(
  context: Context,
  userId: string,
  organizationId: string,
  query: ListImportRunsInput,
) {
  await requireFullMembership(context.db, organizationId, userId, 'see the organization’s imports');
  const filters = {
    ...(query.space !== undefined ? { space: query.space } : {}),
    ...(query.changeRequest !== undefined ? { changeRequest: query.changeRequest } : {}),
    ...(query.site !== undefined ? { site: query.site } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
  };
  const list = `import-runs:${organizationId}:${JSON.stringify(filters)}`;
  const page = context.cursors.request(list, query);
  const { rows, count } = await listRuns(context.db, organizationId, page, filters);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    ...(rows.length > page.limit && last
      ? { next: { page: context.cursors.encode(list, page.order, { createdAt: last.created_at, id: last.id }) } }
      : {}),
    count,
    items: shown.map((row: ImportRun) => presentImportRun(context, row)),
  };
}

/**
 * GitBook's cancelImportRun: a pending run never starts; a run in progress
 * stops at its next step, and says where (its change request archived when
 * it was the run's own). Needs the edit role on the run's space.
 */
export async function cancelImportRun(
  context: Context,
  userId: string,
  organizationId: string,
  runId: string,
): Promise<ContentImportRun> {
  const run = await memberRun(context, userId, organizationId, runId);
  await findEditableSpace(context, run.space_id, userId, 'Cancelling an import');
  const cancelled = await cancelImportRunRow(
    context.db,
    organizationId,
    run.id,
    `Cancelled by ${userId === run.created_by ? 'the user who started it' : 'another user'}`,
    context.clock.now(),
  );
  if (!cancelled) throw new ConflictError(`The import run has ended (${run.status}); there is nothing to cancel`);
  return presentImportRun(context, cancelled);
}
