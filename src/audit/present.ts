import type { Urls } from '../core/urls.js';
import { AUDIT_ACTIONS, type AuditAction } from './catalog.js';
import type { AuditEventRow } from './queries.js';
import type { AuditEvent, AuditEventAction, AuditEventDetails } from './schemas.js';

const labelled = <T extends object>(value: T, label: string | null): T & { label?: string } =>
  label === null ? value : { ...value, label };

export function presentAuditEvent(row: AuditEventRow, urls: Urls): AuditEvent {
  return {
    object: 'audit-event',
    id: row.id,
    occurredAt: row.occurred_at.toISOString(),
    action: row.action,
    actor: labelled({ type: row.actor_type as AuditEvent['actor']['type'], id: row.actor_id }, row.actor_label),
    source: row.source as AuditEvent['source'],
    target: labelled({ type: row.target_type, id: row.target_id }, row.target_label),
    urls: { location: urls.api('orgs', row.organization_id, 'audit-events', row.id) },
  };
}

/** One event with what it recorded: the request's token and address, and before and after. */
export function presentAuditEventDetails(row: AuditEventRow, urls: Urls): AuditEventDetails {
  const event = presentAuditEvent(row, urls);
  return {
    ...event,
    ...(row.correlation_id === null ? {} : { correlationId: row.correlation_id }),
    schemaVersion: row.schema_version,
    payload: { tokenId: row.token_id, ip: row.ip, ...row.payload },
  };
}

export function presentAuditEventActions(): AuditEventAction[] {
  return (Object.entries(AUDIT_ACTIONS) as [AuditAction, string][]).map(([id, label]) => ({
    object: 'audit-event-action',
    id,
    label,
  }));
}
