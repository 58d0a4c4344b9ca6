import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { AuditAction, AuditTargetType } from './catalog.js';
import { currentOrigin } from './origin.js';

export interface AuditRecord {
  organizationId: string;
  action: AuditAction;
  /** The user who acted (the caller's id); null for the service itself (a job). */
  actorId: string | null;
  target: { type: AuditTargetType; id: string; label?: string | null };
  at: Date;
  /** What the change replaced and what it made: only the fields that changed (see `changed`). */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** Whatever else tells the event apart; never a secret. */
  details?: Record<string, unknown>;
}

/** Field names whose values are secrets or handles on them: never recorded, whatever a caller passes. */
const SECRET_FIELD = /secret|password|token(?!Id$)|private|sealed|credential|key$/i;

/** A copy of `value` without its secret fields, at every depth. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name, field]) => !SECRET_FIELD.test(name) && field !== undefined)
      .map(([name, field]) => [name, withoutSecrets(field)]),
  );
}

/**
 * How the audit log names a resource whose id is itself a secret (an invite
 * link's, which lets anyone join): a short hash, the same for every event of it.
 */
export function secretIdFingerprint(id: string): string {
  return `sha256:${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields of `after` that differ from `before`, each side with its own
 * value: what the audit log shows of an update. Undefined fields of `after`
 * (left out of a patch) did not change.
 */
export function changed<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Partial<T>; after: Partial<T> } | undefined {
  const names = Object.keys(after).filter((name) => after[name] !== undefined && !same(before[name], after[name]));
  if (names.length === 0) return undefined;
  return {
    before: Object.fromEntries(names.map((name) => [name, before[name] ?? null])) as Partial<T>,
    after: Object.fromEntries(names.map((name) => [name, after[name]])) as Partial<T>,
  };
}

/**
 * Records an administrative or destructive action in the audit log. Call it
 * in the action's own transaction, after its checks: the row then exists
 * exactly when the action committed. The token, address and request come
 * from the request being served (origin.ts); the actor's label is their
 * name as it is now.
 */
export async function recordAuditEvent(tx: Db, record: AuditRecord): Promise<void> {
  const origin = currentOrigin();
  // A request's token is recorded only for the caller it authenticated, not for someone an action names.
  const fromCaller = origin !== undefined && origin.userId !== null && origin.userId === record.actorId;
  const payload: Record<string, unknown> = { ...(record.details ?? {}) };
  if (record.before !== undefined) payload.before = record.before;
  if (record.after !== undefined) payload.after = record.after;
  // An integration acting as its installation is named by the installation, and came in as an integration.
  const installation = fromCaller ? origin.installation : null;
  const actorLabel =
    record.actorId === null
      ? null
      : installation
        ? installation.integrationName
        : fromCaller
          ? origin.userLabel
          : sql<string | null>`(select u.display_name from users u where u.id = ${record.actorId})`;
  await tx
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      organization_id: record.organizationId,
      occurred_at: record.at,
      action: record.action,
      actor_type: record.actorId === null ? 'system' : installation ? 'installation' : 'user',
      actor_id: installation?.id ?? record.actorId ?? 'system',
      actor_label: actorLabel,
      token_id: fromCaller ? origin.tokenId : null,
      ip: origin?.ip ?? null,
      source: installation ? 'integration' : origin ? 'api' : record.actorId === null ? 'workflow' : 'script',
      target_type: record.target.type,
      target_id: record.target.id,
      target_label: record.target.label ?? null,
      correlation_id: origin?.requestId ?? null,
      payload: JSON.stringify(withoutSecrets(payload)),
    })
    .execute();
}

/**
 * Records an action of a user's own (a token made or revoked) in every
 * organization where it acts: the one a token is bound to, else each one the
 * user is an active member of, whose admins answer for what it may do there.
 */
export async function recordUserAuditEvent(
  tx: Db,
  userId: string,
  boundTo: string | null,
  record: Omit<AuditRecord, 'organizationId'>,
): Promise<void> {
  const organizations =
    boundTo !== null
      ? [boundTo]
      : (
          await tx
            .selectFrom('organization_members')
            .select('organization_id')
            .where('user_id', '=', userId)
            .where('disabled', '=', false)
            .execute()
        ).map((row) => row.organization_id);
  for (const organizationId of organizations) await recordAuditEvent(tx, { ...record, organizationId });
}
