import { BadRequestError, NotFoundError } from '../core/errors.js';
import { paginate, type Page } from '../core/pagination.js';
import { requireOrganizationAdmin } from '../access/membership.js';
import type { Context } from '../context.js';
import { presentAuditEvent, presentAuditEventActions, presentAuditEventDetails } from './present.js';
import { countAuditEvents, findAuditEvent, listAuditEvents, type AuditFilters } from './queries.js';
import type { AuditEvent, AuditEventAction, AuditEventDetails, ListAuditEventsQuery } from './schemas.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The spec's page size of the audit log. */
const AUDIT_PAGE_SIZE = 20;

/** Only the organization's admins read its audit log: it names everyone's actions and addresses. */
const requireAuditReader = (context: Context, callerId: string, organizationId: string) =>
  requireOrganizationAdmin(context.db, organizationId, callerId, 'Reading the audit log');

export async function listOrganizationAuditEvents(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListAuditEventsQuery,
): Promise<Page<AuditEvent>> {
  const { action, actor, target } = query;
  const from = query.from === undefined ? undefined : new Date(query.from);
  const to = query.to === undefined ? undefined : new Date(query.to);
  if (from && to && from > to) throw new BadRequestError('querystring/from must not be after querystring/to');
  await requireAuditReader(context, callerId, organizationId);
  const filters: AuditFilters = { action, actor, target, from, to };
  const list = `audit:${organizationId}:${JSON.stringify([action, actor, target, query.from, query.to])}`;
  const page = context.cursors.request(list, {
    page: query.page,
    limit: query.limit ?? AUDIT_PAGE_SIZE,
    order: 'desc',
  });
  return paginate(context.cursors, page, {
    rows: () => listAuditEvents(context.db, page, organizationId, filters),
    count: () => countAuditEvents(context.db, organizationId, filters),
    keyOf: (row) => ({ createdAt: row.occurred_at, id: row.id }),
    toItem: (row) => presentAuditEvent(row, context.urls),
  });
}

export async function getOrganizationAuditEvent(
  context: Context,
  callerId: string,
  organizationId: string,
  auditEventId: string,
): Promise<AuditEventDetails> {
  await requireAuditReader(context, callerId, organizationId);
  const [row] = UUID.test(auditEventId)
    ? await findAuditEvent(context.db, organizationId, auditEventId.toLowerCase())
    : [];
  if (!row) throw new NotFoundError('No audit event with this id in the organization');
  return presentAuditEventDetails(row, context.urls);
}

export async function listOrganizationAuditEventActions(
  context: Context,
  callerId: string,
  organizationId: string,
): Promise<{ items: AuditEventAction[] }> {
  await requireAuditReader(context, callerId, organizationId);
  return { items: presentAuditEventActions() };
}
