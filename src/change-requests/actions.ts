import { ConflictError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { roleAtLeast } from '../access/roles.js';
import { findEditableSpace, findSpaceAsMember } from '../access/spaces.js';
import { changeRequestIn, changeRequestNotFound } from '../content/change-request-access.js';
import { lockSpaceThenChangeRequest } from '../content/write-locks.js';
import { presentChangeRequest } from '../content/change-request-present.js';
import {
  findChangeRequest,
  moveStatusCounters,
  updateChangeRequestFields,
  type ChangeRequestFields,
} from '../content/change-request-queries.js';
import type { ChangeRequest } from '../content/change-request-schemas.js';
import { recordEvent } from '../events/record.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { emailVisibilityFor } from '../users/user-queries.js';
import { requireWorkable, writeChangeRequestContent } from './changes/write.js';
import { mergeIntoSpace, type MergeOutcome } from './merge.js';
import { unmetRulesFor } from './merge-check.js';
import type { MergeOrigin } from './merge-hooks.js';
import { updateFromSpace, type UpdateOutcome } from './update.js';
import { presentWrittenBatch } from './present.js';
import { insertChangeRequest, lockSpaceForNumbering, spaceLineRevision } from './queries.js';
import { readDescription } from './description.js';
import type { ContentChange, CreateChangeRequestInput, UpdateChangeRequestInput } from './schemas.js';

/** One change request of the space, as the caller (a member of the space's organization) sees it. */
async function presentOne(
  context: Context,
  space: { id: string; organization_id: string },
  changeRequestId: string,
  userId: string,
): Promise<ChangeRequest> {
  const row = await changeRequestIn(context, space.id, changeRequestId);
  return presentRow(context, row, userId);
}

/** A change request as the caller, a member of its organization, sees it. */
async function presentRow(context: Context, row: ChangeRequestFields, userId: string) {
  const authors = row.author_is_member && row.author_id ? [row.author_id] : [];
  const emails = await emailVisibilityFor(context.db, userId, [row.author_id], row.organization_id, authors);
  return presentChangeRequest(row, context.urls, emails);
}

/**
 * Opens a draft change request, numbered next in the space, on the space's
 * current revision, or on an earlier revision of the space's own line
 * (`baseRevisionId`: what a Git sync last saw), so that a merge finds as
 * conflicts only the pages both sides changed since. A base that is no
 * revision of the space's line is the current revision.
 */
export async function createChangeRequest(
  context: Context,
  userId: string,
  spaceId: string,
  input: CreateChangeRequestInput,
  options: { baseRevisionId?: string } = {},
): Promise<ChangeRequest> {
  const { space } = await findEditableSpace(context, spaceId, userId, 'Creating a change request');
  const id = newId();
  const description = input.description ? await readDescription(context, input.description) : undefined;
  await context.db.transaction().execute(async (tx) => {
    // The space's row lock makes numbers follow each other without gaps or repeats.
    const { revision_id: head, change_requests_count: count } = await lockSpaceForNumbering(tx, space.id);
    const base = options.baseRevisionId && (await spaceLineRevision(tx, space.id, options.baseRevisionId));
    const revisionId = base || head;
    const now = context.clock.now();
    await insertChangeRequest(tx, {
      id,
      organization_id: space.organization_id,
      space_id: space.id,
      number: count + 1,
      subject: input.subject ?? '',
      ...(description ? { description: description.markdown, description_document: description.document } : {}),
      status: 'draft',
      created_by: userId,
      revision_id: revisionId,
      revision_initial_id: revisionId,
      created_at: now,
      updated_at: now,
    });
    await moveStatusCounters(tx, space.id, null, 'draft');
    await recordEvent(tx, {
      organizationId: space.organization_id,
      type: 'change_request_opened',
      spaceId: space.id,
      fields: { changeRequestId: id, number: count + 1, subject: input.subject ?? '', createdBy: { id: userId } },
      at: now,
    });
  });
  return presentOne(context, space, id, userId);
}

/** A change request of the space, by id or by number. */
export async function getChangeRequest(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
): Promise<ChangeRequest> {
  const { space, role } = await findSpaceAsMember(context, spaceId, userId);
  const row = await findChangeRequest(context.db, spaceId, changeRequestId);
  if (!row) throw changeRequestNotFound();
  const [changeRequest, unmet] = await Promise.all([
    presentRow(context, row, userId),
    unmetRulesFor(context, context.db, {
      organizationId: space.organization_id,
      spaceId: space.id,
      changeRequestId: row.id,
      userId,
    }),
  ]);
  const workable = row.status === 'draft' || row.status === 'open';
  const live = space.edit_mode === 'live';
  return {
    ...changeRequest,
    permissions: {
      merge: workable && live && roleAtLeast(role, 'edit') && unmet.length === 0,
      review: workable && live && roleAtLeast(role, 'review'),
    },
  };
}

/** Changes a change request's subject, description or status; a merged one no longer changes. */
export async function updateChangeRequest(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  input: UpdateChangeRequestInput,
): Promise<ChangeRequest> {
  const { space } = await findEditableSpace(context, spaceId, userId, 'Updating a change request');
  const { id } = await changeRequestIn(context, space.id, changeRequestId);
  const { subject, status } = input;
  const description = input.description === undefined ? undefined : await readDescription(context, input.description);
  await context.db.transaction().execute(async (tx) => {
    // For update, as a merge takes it: a status change moves the space's counters, and a
    // key-share lock upgraded there could deadlock with another change request's update.
    const { changeRequest: locked } = await lockSpaceThenChangeRequest(tx, space.id, id, 'update');
    if (locked.status === 'merged') throw new ConflictError('The change request is merged; it can no longer change');
    await updateChangeRequestFields(tx, { organizationId: space.organization_id, spaceId: space.id }, id, {
      subject,
      description,
      status,
      updatedAt: context.clock.now(),
    });
    if (status !== undefined) await moveStatusCounters(tx, space.id, locked.status, status);
    // Archiving puts a change request's work away, and reopening brings it back: both are recorded.
    if (status !== undefined && status !== locked.status && (status === 'archived' || locked.status === 'archived')) {
      await recordAuditEvent(tx, {
        organizationId: space.organization_id,
        action: status === 'archived' ? 'change_request.archived' : 'change_request.unarchived',
        actorId: userId,
        target: { type: 'change-request', id },
        at: context.clock.now(),
        before: { status: locked.status },
        after: { status },
        details: { spaceId: space.id },
      });
    }
  });
  return presentOne(context, space, id, userId);
}

/**
 * Applies a batch of content changes as one new revision of the change
 * request. `compat`: answer with the change request alone, as older clients
 * expect; otherwise also with the pages and files the batch touched.
 */
export async function updateChangeRequestContent(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  changes: readonly ContentChange[],
  compat: boolean,
) {
  const { space } = await findEditableSpace(context, spaceId, userId, 'Editing a change request');
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  // Checked again under the lock; checked here too so that no file is fetched for a closed change request.
  requireWorkable(changeRequest.status);
  const target = {
    organizationId: space.organization_id,
    spaceId: space.id,
    changeRequestId: changeRequest.id,
    userId,
  };
  const written = await writeChangeRequestContent(context, target, changes);
  const updated = await presentOne(context, space, changeRequest.id, userId);
  if (compat) return { compat: true as const, changeRequest: updated };
  const now = context.clock.now();
  const downloadUrl = (file: { versionId: string; name: string }) =>
    context.fileUrls.sign(file.versionId, file.name, now);
  return { compat: false as const, batch: presentWrittenBatch(updated, written, context.urls, downloadUrl) };
}

/** Merges the change request into the space, unless it conflicts with changes made since it was opened. */
export async function mergeChangeRequest(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
  origin: MergeOrigin = 'user',
): Promise<MergeOutcome> {
  const { space } = await findEditableSpace(context, spaceId, userId, 'Merging a change request');
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  return mergeIntoSpace(context, {
    organizationId: space.organization_id,
    spaceId: space.id,
    changeRequestId: changeRequest.id,
    userId,
    origin,
  });
}

/**
 * Brings the change request up to date with the space's current revision,
 * unless its changes conflict with the space's since its base. Needs the edit
 * role, as a merge does: it writes a revision of the change request.
 */
export async function updateChangeRequestFromSpace(
  context: Context,
  userId: string,
  spaceId: string,
  changeRequestId: string,
): Promise<UpdateOutcome> {
  const { space } = await findEditableSpace(context, spaceId, userId, 'Updating a change request from its space');
  const changeRequest = await changeRequestIn(context, space.id, changeRequestId);
  return updateFromSpace(context, {
    organizationId: space.organization_id,
    spaceId: space.id,
    changeRequestId: changeRequest.id,
    userId,
  });
}
