import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { DEFAULT_PAGE_SIZE, paginate, type Page } from '../../core/pagination.js';
import { organizationRole, requireFullMembership } from '../../access/membership.js';
import type { Context } from '../../context.js';
import { recordAuditEvent } from '../../audit/record.js';
import {
  countGlossaryEntries,
  existingGlossaryIds,
  findGlossaryEntry,
  glossaryByCreation,
  glossaryByLanguage,
  lockGlossary,
  writeGlossary,
  type GlossaryEntryRow,
  type GlossaryWrites,
} from './queries.js';
import { GLOSSARY_LIMITS, type GlossaryEntry, type ListGlossaryQuery, type UpdateGlossaryBody } from './schemas.js';

const entryNotFound = () => new NotFoundError('No glossary entry with this id in the organization');

const READ_REFUSED = 'see the translation glossary of the organization';

function present(context: Context, row: GlossaryEntryRow): GlossaryEntry {
  return {
    object: 'glossary-entry',
    id: row.id,
    translations: row.translations,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    urls: { location: context.urls.api('orgs', row.organization_id, 'translations-glossary', row.id) },
  };
}

/** Members with a role read the glossary; guests get a 403, non-members a 404. */
export async function listGlossary(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListGlossaryQuery,
): Promise<Page<GlossaryEntry>> {
  await requireFullMembership(context.db, organizationId, callerId, READ_REFUSED);
  if (query.orderBy === undefined) {
    const page = context.cursors.request(`translations-glossary:${organizationId}`, query);
    return paginate(context.cursors, page, {
      rows: () => glossaryByCreation(context.db, organizationId, page),
      count: () => countGlossaryEntries(context.db, organizationId),
      keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
      toItem: (row) => present(context, row),
    });
  }
  const language = query.orderBy;
  // The cursor names the list and the language: one made for another order is refused.
  const list = `translations-glossary:${organizationId}:${language}`;
  const cursor = query.page ? context.cursors.decodePosition(query.page, list, 3) : undefined;
  const after = cursor && ([cursor[0] === '1', cursor[1]!, cursor[2]!] as const);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const rows = limit === 0 ? [] : await glossaryByLanguage(context.db, organizationId, language, { limit, after });
  const items = rows.slice(0, limit);
  const count =
    after === undefined && rows.length <= limit && limit > 0
      ? rows.length
      : await countGlossaryEntries(context.db, organizationId);
  const page: Page<GlossaryEntry> = { count, items: items.map((row) => present(context, row)) };
  const last = items.at(-1);
  if (rows.length > limit && last)
    page.next = { page: context.cursors.encodePosition(list, [last.missing ? '1' : '0', last.term, last.id]) };
  return page;
}

/** An entry, for members with a role; a 404 to guests and non-members, as for anything else of the organization. */
export async function getGlossaryEntry(
  context: Context,
  callerId: string,
  organizationId: string,
  entryId: string,
): Promise<GlossaryEntry> {
  const role = await organizationRole(context.db, organizationId, callerId);
  if (role === null) throw entryNotFound();
  const row = await findGlossaryEntry(context.db, organizationId, entryId);
  if (!row) throw entryNotFound();
  return present(context, row);
}

/** The writes of a batch, checked as a whole before any is made: an id once, and only ids the glossary holds. */
function planWrites(body: UpdateGlossaryBody, existing: Set<string>): GlossaryWrites {
  const writes: GlossaryWrites = { inserts: [], updates: [], deletes: [] };
  const named = new Set<string>();
  body.operations.forEach((operation, index) => {
    if (operation.type === 'insert') {
      writes.inserts.push({ id: newId(), translations: operation.translations });
      return;
    }
    if (named.has(operation.id))
      throw new BadRequestError(`body/operations/${index}/id: the batch already names entry "${operation.id}"`);
    named.add(operation.id);
    if (!existing.has(operation.id))
      throw new BadRequestError(`body/operations/${index}/id: the glossary has no entry "${operation.id}"`);
    if (operation.type === 'update') writes.updates.push({ id: operation.id, translations: operation.translations });
    else writes.deletes.push(operation.id);
  });
  return writes;
}

/**
 * Inserts, updates (replacing an entry's translations) and deletes entries,
 * all or none (admins). At most GLOSSARY_LIMITS.entries in a glossary (409).
 */
export async function updateGlossary(
  context: Context,
  callerId: string,
  organizationId: string,
  body: UpdateGlossaryBody,
): Promise<void> {
  const role = await requireFullMembership(context.db, organizationId, callerId, READ_REFUSED);
  if (role !== 'admin') throw new ForbiddenError('Changing the translation glossary needs the admin role');
  if (body.operations.length === 0) return;
  const named = body.operations.flatMap((operation) => (operation.type === 'insert' ? [] : [operation.id]));
  await context.db.transaction().execute(async (tx) => {
    await lockGlossary(tx, organizationId);
    const writes = planWrites(body, await existingGlossaryIds(tx, organizationId, named));
    const size = await countGlossaryEntries(tx, organizationId);
    if (size - writes.deletes.length + writes.inserts.length > GLOSSARY_LIMITS.entries) {
      throw new ConflictError(`A glossary holds at most ${GLOSSARY_LIMITS.entries} entries`);
    }
    const now = context.clock.now();
    await writeGlossary(tx, organizationId, writes, now);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'translation.glossary_updated',
      actorId: callerId,
      target: { type: 'organization', id: organizationId },
      at: now,
      details: { inserted: writes.inserts.length, updated: writes.updates.length, deleted: writes.deletes.length },
    });
  });
}
