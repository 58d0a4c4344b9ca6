import { newId } from '../core/ids.js';
import type { Db } from '../db/database.js';

/**
 * The events the service tells integrations and webhooks of. The first ones
 * are the spec's `Event` objects (`@gitbook/api`); the last ones have no
 * object in the spec and go to webhooks only (docs/api/webhooks.md).
 */
export const SPEC_EVENT_TYPES = [
  'installation_setup',
  'installation_deleted',
  'space_installation_setup',
  'space_installation_deleted',
  'site_installation_setup',
  'site_installation_deleted',
  'space_content_updated',
  'space_visibility_updated',
  'space_gitsync_started',
  'space_gitsync_completed',
  'task',
] as const;
export const WEBHOOK_ONLY_EVENT_TYPES = [
  'change_request_opened',
  'change_request_merged',
  'comment_posted',
  'site_published',
] as const;
export type EventType = (typeof SPEC_EVENT_TYPES)[number] | (typeof WEBHOOK_ONLY_EVENT_TYPES)[number];

export const EVENT_TYPES: readonly EventType[] = [...SPEC_EVENT_TYPES, ...WEBHOOK_ONLY_EVENT_TYPES];

export function isSpecEventType(type: string): boolean {
  return (SPEC_EVENT_TYPES as readonly string[]).includes(type);
}

export interface NewEvent {
  organizationId: string;
  type: EventType;
  /** The space or site it is of: only that space's or site's installations and webhooks receive it. */
  spaceId?: string;
  siteId?: string;
  /** Only this installation receives it (its own setup or deletion). */
  installationId?: string;
  /** Only this integration receives it (a task it queued). */
  integrationId?: string;
  /** The event's own fields, beside `type`, `spaceId` and `siteId`; eventId and installationId are set per delivery. */
  fields: Record<string, unknown>;
  at: Date;
}

/**
 * Writes an event to the outbox in the transaction of the action it tells of:
 * it is delivered exactly when that action commits. Cheap (one insert), as
 * it runs while the action holds its locks.
 */
export async function recordEvent(tx: Db, event: NewEvent): Promise<void> {
  await tx
    .insertInto('events')
    .values({
      id: newId(),
      organization_id: event.organizationId,
      type: event.type,
      space_id: event.spaceId ?? null,
      site_id: event.siteId ?? null,
      installation_id: event.installationId ?? null,
      integration_id: event.integrationId ?? null,
      payload: JSON.stringify({
        type: event.type,
        ...(event.spaceId === undefined ? {} : { spaceId: event.spaceId }),
        ...(event.siteId === undefined ? {} : { siteId: event.siteId }),
        ...event.fields,
      }),
      created_at: event.at,
    })
    .execute();
}
