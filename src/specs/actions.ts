import type { UpdateObject } from 'kysely';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import type { Db } from '../db/database.js';
import type { Database, Role } from '../db/types.js';
import { findMembership, requireFullMembership } from '../access/membership.js';
import type { Context } from '../context.js';
import { enqueueSpecJob } from './jobs.js';
import { presentSpec, presentVersion, versionContentJson, versionUrl } from './present.js';
import {
  countSpecs,
  countVersions,
  deleteSpec as deleteSpecRow,
  findSpec,
  findVersion,
  findVersionContent,
  findVersionEntry,
  insertSpec,
  listSpecs as listSpecRows,
  listVersions as listVersionRows,
  updateSpec as updateSpecRow,
  upsertSpec,
  type SourceColumns,
  type SpecFields,
  type VersionFields,
} from './queries.js';
import type {
  CreateSpecBody,
  ListSpecsQuery,
  OpenAPISpec,
  OpenAPISpecVersion,
  PutSpecBody,
  SpecSource,
  UpdateSpecBody,
} from './schemas.js';

const specNotFound = () => new NotFoundError('No OpenAPI spec with this slug is visible to you');
const versionNotFound = () => new NotFoundError('No version with this id in this OpenAPI spec');
const noVersionYet = () =>
  new NotFoundError(
    'This OpenAPI spec has no version yet: it has not been processed successfully (see its processingState and lastProcessErrorCode)',
  );

/**
 * The caller's role on the organization's specs as a whole (list, create):
 * 404 for non-members; guests know the organization, so theirs is a 403.
 */
const organizationLevelRole = (context: Context, organizationId: string, callerId: string) =>
  requireFullMembership(context.db, organizationId, callerId, 'see the OpenAPI specs of the organization');

/** The caller's role on one spec: non-members and guests see none (404), as for a slug that does not exist. */
async function specLevelRole(context: Context, organizationId: string, callerId: string): Promise<Role> {
  const membership = await findMembership(context.db, organizationId, callerId);
  if (!membership?.role) throw specNotFound();
  return membership.role;
}

function requireAdmin(role: Role, action: string): void {
  if (role !== 'admin') throw new ForbiddenError(`${action} needs the admin role in the organization`);
}

/** The spec and the caller's role, for a member of any role; 404 otherwise or when there is no such spec. */
async function findSpecAsMember(context: Context, organizationId: string, slug: string, callerId: string) {
  const [membership, spec] = await Promise.all([
    findMembership(context.db, organizationId, callerId),
    findSpec(context.db, organizationId, slug),
  ]);
  if (!membership?.role || !spec) throw specNotFound();
  return { spec, role: membership.role };
}

/** A source as stored; a text is bounded by SPEC_MAX_BYTES in UTF-8 bytes (the schema bounds characters). */
function sourceColumns(context: Context, source: SpecSource): SourceColumns {
  if ('url' in source) return { source_url: source.url, source_text: null };
  const limit = context.config.specs.maxBytes;
  if (Buffer.byteLength(source.text, 'utf8') > limit) {
    throw new BadRequestError(`body/source/text is over the ${limit}-byte limit of a spec`);
  }
  return { source_url: null, source_text: source.text };
}

const isUniqueViolation = (error: unknown) => (error as { code?: unknown }).code === '23505';

/** Writes a spec and asks for it to be processed, in one transaction: a spec is never pending without a job. */
async function writeAndEnqueue(
  context: Context,
  organizationId: string,
  write: (tx: Db) => Promise<SpecFields | undefined>,
  process = true,
): Promise<SpecFields | undefined> {
  return context.db.transaction().execute(async (tx) => {
    const row = await write(tx);
    if (row && process) await enqueueSpecJob(tx, organizationId, row.id, context.clock.now());
    return row;
  });
}

/** The organization's specs, newest first, for members of any role. */
export async function listSpecs(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListSpecsQuery,
): Promise<Page<OpenAPISpec>> {
  const role = await organizationLevelRole(context, organizationId, callerId);
  const page = context.cursors.request(`openapi:${organizationId}`, query);
  return paginate(context.cursors, page, {
    rows: () => listSpecRows(context.db, page, organizationId),
    count: () => countSpecs(context.db, organizationId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => presentSpec(row, role, context.urls),
  });
}

/** Creates a spec (admins), pending until a worker has processed it; 409 when its slug is taken. */
export async function createSpec(
  context: Context,
  callerId: string,
  organizationId: string,
  body: CreateSpecBody,
): Promise<OpenAPISpec> {
  requireAdmin(await organizationLevelRole(context, organizationId, callerId), 'Creating an OpenAPI spec');
  const source = sourceColumns(context, body.source);
  const spec = { id: newId(), organization_id: organizationId, slug: body.slug, created_at: context.clock.now() };
  try {
    const row = await writeAndEnqueue(context, organizationId, (tx) => insertSpec(tx, { ...spec, ...source }));
    return presentSpec(row!, 'admin', context.urls);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError(`The slug "${body.slug}" is already taken by another OpenAPI spec of the organization`);
    }
    throw error;
  }
}

/**
 * Creates the spec with this slug, or gives it this source (admins), and
 * processes it again either way: publishing the same source again is how a
 * build tells the service that the file behind a URL changed.
 */
export async function putSpec(
  context: Context,
  callerId: string,
  organizationId: string,
  slug: string,
  body: PutSpecBody,
): Promise<OpenAPISpec> {
  requireAdmin(await specLevelRole(context, organizationId, callerId), 'Publishing an OpenAPI spec');
  const source = sourceColumns(context, body.source);
  const spec = { id: newId(), organization_id: organizationId, slug, created_at: context.clock.now() };
  const row = await writeAndEnqueue(context, organizationId, (tx) => upsertSpec(tx, { ...spec, ...source }));
  return presentSpec(row!, 'admin', context.urls);
}

/** Changes a spec's visibility or source (admins); a new source is processed. */
export async function updateSpec(
  context: Context,
  callerId: string,
  organizationId: string,
  slug: string,
  body: UpdateSpecBody,
): Promise<OpenAPISpec> {
  const { role } = await findSpecAsMember(context, organizationId, slug, callerId);
  requireAdmin(role, 'Changing an OpenAPI spec');
  const changes: UpdateObject<Database, 'openapi_specs'> = { updated_at: context.clock.now() };
  if (body.visibility !== undefined) changes.visibility = body.visibility;
  if (body.source !== undefined)
    Object.assign(changes, sourceColumns(context, body.source), { processing_state: 'pending' });
  const row = await writeAndEnqueue(
    context,
    organizationId,
    (tx) => updateSpecRow(tx, organizationId, slug, changes),
    body.source !== undefined,
  );
  if (!row) throw specNotFound();
  return presentSpec(row, role, context.urls);
}

/** Deletes a spec with its versions and jobs (admins). */
export async function deleteSpec(
  context: Context,
  callerId: string,
  organizationId: string,
  slug: string,
): Promise<void> {
  requireAdmin(await specLevelRole(context, organizationId, callerId), 'Deleting an OpenAPI spec');
  if (!(await deleteSpecRow(context.db, organizationId, slug))) throw specNotFound();
}

export async function getSpec(
  context: Context,
  callerId: string,
  organizationId: string,
  slug: string,
): Promise<OpenAPISpec> {
  const { spec, role } = await findSpecAsMember(context, organizationId, slug, callerId);
  return presentSpec(spec, role, context.urls);
}

/** A spec's versions, newest first. */
export async function listVersions(
  context: Context,
  callerId: string,
  organizationId: string,
  slug: string,
  query: ListSpecsQuery,
): Promise<Page<OpenAPISpecVersion>> {
  const { spec } = await findSpecAsMember(context, organizationId, slug, callerId);
  const page = context.cursors.request(`openapi-versions:${spec.id}`, query);
  return paginate(context.cursors, page, {
    rows: () => listVersionRows(context.db, page, organizationId, spec.id),
    count: () => countVersions(context.db, organizationId, spec.id),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => presentVersion(row, slug, context.urls),
  });
}

/** `latest` names the spec's newest version; 404 when it has none yet. */
async function versionIdOf(
  context: Context,
  organizationId: string,
  slug: string,
  callerId: string,
  versionId: string,
) {
  const { spec } = await findSpecAsMember(context, organizationId, slug, callerId);
  if (versionId !== 'latest') return { spec, id: versionId };
  if (spec.last_version_id === null) throw noVersionYet();
  return { spec, id: spec.last_version_id };
}

/** A version by id, or the newest as `latest`. */
export async function getVersion(
  context: Context,
  callerId: string,
  organizationId: string,
  slug: string,
  versionId: string,
): Promise<OpenAPISpecVersion> {
  const { spec, id } = await versionIdOf(context, organizationId, slug, callerId, versionId);
  const row: VersionFields | undefined = await findVersion(context.db, organizationId, spec.id, id);
  if (!row) throw versionNotFound();
  return presentVersion(row, slug, context.urls);
}

/** A version's content, `{filesystem, url}`, as JSON text ready to send. */
export async function getVersionContent(
  context: Context,
  callerId: string,
  organizationId: string,
  slug: string,
  versionId: string,
): Promise<string> {
  const { spec, id } = await versionIdOf(context, organizationId, slug, callerId, versionId);
  const row = await findVersionContent(context.db, organizationId, spec.id, id);
  if (!row) throw versionNotFound();
  return versionContentJson(row.filesystem_json, versionUrl(row, slug, context.urls));
}

/** A version's entry file exactly as fetched or given, with its media type. */
export async function getVersionEntry(
  context: Context,
  callerId: string,
  organizationId: string,
  slug: string,
  versionId: string,
): Promise<{ text: string; mediaType: string }> {
  const { spec, id } = await versionIdOf(context, organizationId, slug, callerId, versionId);
  const row = await findVersionEntry(context.db, organizationId, spec.id, id);
  if (!row) throw versionNotFound();
  const mediaType = row.entry_format === 'json' ? 'application/json' : 'application/yaml';
  return { text: row.entry_text, mediaType: `${mediaType}; charset=utf-8` };
}
