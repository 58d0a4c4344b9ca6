import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { ChangeRequestStatus, Database } from '../db/types.js';
import { precompiled } from '../db/precompiled.js';
import { isMemberOf } from '../users/user-queries.js';

/** What presenting a change request needs: its row, its author, and whether the space moved on since its base. */
export function changeRequestsWithContext(db: Kysely<Database>) {
  return db
    .selectFrom('change_requests as cr')
    .innerJoin('revisions as r', 'r.id', 'cr.revision_id')
    .innerJoin('spaces as s', 's.id', 'cr.space_id')
    .innerJoin('revisions as head', 'head.id', 's.revision_id')
    .leftJoin('users as u', 'u.id', 'cr.created_by')
    .select([
      'cr.id',
      'cr.organization_id',
      'cr.space_id',
      'cr.number',
      'cr.subject',
      'cr.description_document',
      'cr.status',
      'cr.revision_id',
      'cr.revision_initial_id',
      'cr.revision_merged_id',
      'cr.comments_count',
      'cr.comments_total_count',
      'cr.created_at',
      'cr.updated_at',
      'r.seq',
      'r.base_seq',
      'head.seq as head_seq',
      'u.id as author_id',
      'u.display_name as author_display_name',
      'u.email as author_email',
      'u.photo_url as author_photo_url',
      isMemberOf(sql.ref('cr.organization_id'), sql.ref('cr.created_by')).as('author_is_member'),
    ]);
}
export type ChangeRequestFields = NonNullable<
  Awaited<ReturnType<ReturnType<typeof changeRequestsWithContext>['executeTakeFirst']>>
>;
/** `changeRequestId` is its id, or its number in the space (the seeds allow both). */
export async function findChangeRequest(
  db: Db,
  spaceId: string,
  changeRequestId: string,
): Promise<ChangeRequestFields | undefined> {
  const number = numberIn(changeRequestId);
  const rows =
    number === null
      ? await changeRequestById(db, spaceId, changeRequestId)
      : await changeRequestByIdOrNumber(db, spaceId, changeRequestId, number);
  return rows[0];
}

/** A number in the space, where `changeRequestId` is one. */
const numberIn = (changeRequestId: string) =>
  /^[1-9][0-9]{0,8}$/.test(changeRequestId) ? Number(changeRequestId) : null;

const changeRequestById = precompiled((db, spaceId: string, id: string) =>
  changeRequestsWithContext(db).where('cr.space_id', '=', spaceId).where('cr.id', '=', id),
);
const changeRequestByIdOrNumber = precompiled((db, spaceId: string, id: string, number: number) =>
  changeRequestsWithContext(db)
    .where('cr.space_id', '=', spaceId)
    .where((eb) => eb.or([eb('cr.id', '=', id), eb('cr.number', '=', number)])),
);

/** The space's counters of change requests by status, moved as one change request goes from `from` to `to`. */
export async function moveStatusCounters(
  db: Db,
  spaceId: string,
  from: ChangeRequestStatus | null,
  to: ChangeRequestStatus,
): Promise<void> {
  const delta = (status: ChangeRequestStatus) => (to === status ? 1 : 0) - (from === status ? 1 : 0);
  const total = from === null ? 1 : 0;
  if (delta('open') === 0 && delta('draft') === 0 && total === 0) return;
  await db
    .updateTable('spaces')
    .set({
      change_requests_count: sql`change_requests_count + ${total}`,
      change_requests_open_count: sql`change_requests_open_count + ${delta('open')}`,
      change_requests_draft_count: sql`change_requests_draft_count + ${delta('draft')}`,
    })
    .where('id', '=', spaceId)
    .execute();
}
/** Locks the change request's row for a write, and gives its state then. */
export async function lockChangeRequest(db: Db, changeRequestId: string) {
  return db
    .selectFrom('change_requests')
    .select(['id', 'status', 'revision_id'])
    .where('id', '=', changeRequestId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}
/** Sets the change request's subject, description and status, where given, and marks it updated at `updatedAt`. */
export async function updateChangeRequestFields(
  db: Db,
  space: { organizationId: string; spaceId: string },
  changeRequestId: string,
  fields: {
    subject?: string;
    description?: { markdown: string | null; document: string | null };
    status?: ChangeRequestStatus;
    updatedAt: Date;
  },
): Promise<void> {
  const { subject, description, status, updatedAt } = fields;
  await db
    .updateTable('change_requests')
    .set({
      ...(subject !== undefined ? { subject } : {}),
      ...(description !== undefined
        ? { description: description.markdown, description_document: description.document }
        : {}),
      ...(status !== undefined ? { status } : {}),
      updated_at: updatedAt,
    })
    .where('organization_id', '=', space.organizationId)
    .where('space_id', '=', space.spaceId)
    .where('id', '=', changeRequestId)
    .execute();
}
