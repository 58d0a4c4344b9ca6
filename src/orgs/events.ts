import type { Db } from '../db/database.js';
import type { OrganizationEventType } from '../db/types.js';
import { newId } from '../core/ids.js';

export interface OrganizationEvent {
  organizationId: string;
  type: OrganizationEventType;
  /** The user who acted. */
  actorId: string;
  /** The user it was done to, if any. */
  userId?: string;
  /** What else tells the event apart; never a secret. */
  details: Record<string, unknown>;
  at: Date;
}

/** Records an event of the organization; in the transaction of what it records, so that both or neither stay. */
export async function recordOrganizationEvent(db: Db, event: OrganizationEvent): Promise<string> {
  const id = newId();
  await db
    .insertInto('organization_events')
    .values({
      id,
      organization_id: event.organizationId,
      type: event.type,
      actor_id: event.actorId,
      user_id: event.userId ?? null,
      details: JSON.stringify(event.details),
      created_at: event.at,
    })
    .execute();
  return id;
}
