import { sql, type Selectable } from 'kysely';
import { keysetAfter, TOTAL_COUNT, type PageRequest } from '../../core/pagination.js';
import type { Db } from '../../db/database.js';
import type { DB } from '../../db/tables.generated.js';

export type DeliveryRow = Selectable<DB['event_deliveries']>;
export type WebhookRow = Selectable<DB['webhooks']>;
/** A row of a page: the count comes from a query of its own. */
type Listed<T> = T & { [TOTAL_COUNT]?: null };

type Owner = { integrationId: string } | { organizationId: string; webhookId: string };

function deliveriesOf(db: Db, owner: Owner) {
  const query = db.selectFrom('event_deliveries');
  return 'integrationId' in owner
    ? query.where('integration_id', '=', owner.integrationId)
    : query.where('organization_id', '=', owner.organizationId).where('webhook_id', '=', owner.webhookId);
}

/** An integration's or a webhook's deliveries, a page of them, newest first by default. */
export async function listDeliveries(db: Db, page: PageRequest, owner: Owner): Promise<Listed<DeliveryRow>[]> {
  let query = deliveriesOf(db, owner).selectAll();
  const after = keysetAfter(page, 'created_at', 'id');
  if (after) query = query.where(after);
  return query
    .orderBy('created_at', page.order)
    .orderBy('id', page.order)
    .limit(page.limit + 1)
    .execute();
}

export async function countDeliveries(db: Db, owner: Owner): Promise<number> {
  const row = await deliveriesOf(db, owner)
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findDelivery(db: Db, owner: Owner, id: string): Promise<DeliveryRow | undefined> {
  return deliveriesOf(db, owner).selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Sends a delivery again: pending from now, for another day, behind any
 * delivery of its stream before it. False when it is pending already.
 */
export async function redeliver(db: Db, owner: Owner, id: string, now: Date): Promise<boolean> {
  let query = db
    .updateTable('event_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: now,
      give_up_at: new Date(now.getTime() + 24 * 60 * 60 * 1000),
      lease_expires_at: null,
    })
    .where('id', '=', id)
    .where('status', '<>', 'pending');
  query =
    'integrationId' in owner
      ? query.where('integration_id', '=', owner.integrationId)
      : query.where('organization_id', '=', owner.organizationId).where('webhook_id', '=', owner.webhookId);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertWebhook(db: Db, row: Omit<WebhookRow, 'events'> & { events: string[] }): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function listWebhooks(db: Db, organizationId: string, page: PageRequest): Promise<Listed<WebhookRow>[]> {
  let query = db.selectFrom('webhooks').selectAll().where('organization_id', '=', organizationId);
  const after = keysetAfter(page, 'created_at', 'id');
  if (after) query = query.where(after);
  return query
    .orderBy('created_at', page.order)
    .orderBy('id', page.order)
    .limit(page.limit + 1)
    .execute();
}

export async function countWebhooks(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select(sql<string>`count(*)`.as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findWebhook(db: Db, organizationId: string, id: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteWebhook(db: Db, organizationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
