import { sql } from 'kysely';
import { newId } from '../../core/ids.js';
import type { Db } from '../../db/database.js';
import type { Selectable } from 'kysely';
import type { DB } from '../../db/tables.generated.js';
import { isSpecEventType } from '../../events/record.js';
import { requestUrlFor } from '../platform/dev-mode.js';

type OutboxEvent = Selectable<DB['events']>;

/** Where one event goes: an integration's endpoint (through one installation) or a webhook's URL. */
interface Target {
  integrationId: string | null;
  installationId: string | null;
  webhookId: string | null;
  url: string;
}

/** Retries of a delivery stop a day after its event. */
const RETRY_FOR_MS = 24 * 60 * 60 * 1000;

/** Deliveries of one endpoint about one space (or site, or the organization) go out in order. */
function streamOf(event: OutboxEvent, target: Target): string {
  const endpoint = target.webhookId ? `webhook:${target.webhookId}` : `integration:${target.integrationId}`;
  // A task is its own stream: one scheduled for later holds nothing back.
  if (event.type === 'task') return `${endpoint}|task:${event.id}`;
  const about = event.space_id
    ? `space:${event.space_id}`
    : event.site_id
      ? `site:${event.site_id}`
      : `organization:${event.organization_id}`;
  return `${endpoint}|${about}`;
}

async function targetsOf(tx: Db, event: OutboxEvent): Promise<Target[]> {
  const targets: Target[] = [];
  if (event.integration_id) {
    // Its own installation's setup or deletion, or a task it queued: to that integration alone.
    const integration = await tx
      .selectFrom('integrations')
      .select(['id', 'organization_id', 'endpoint_url', 'dev_tunnel_url', 'dev_all_organizations'])
      .where('id', '=', event.integration_id)
      .executeTakeFirst();
    // Its endpoint, or its development tunnel where development mode covers the event's organization.
    const url = integration && requestUrlFor(integration, event.organization_id);
    if (integration && url) {
      targets.push({ integrationId: integration.id, installationId: event.installation_id, webhookId: null, url });
    }
    return targets;
  }
  if (isSpecEventType(event.type) && (event.space_id || event.site_id)) {
    // The active installations of this organization on the space or site, of integrations with an endpoint.
    let query = tx
      .selectFrom('integration_installations as ii')
      .innerJoin('integrations as i', 'i.id', 'ii.integration_id')
      .select([
        'i.id as integration_id',
        'ii.id as installation_id',
        'i.organization_id',
        'i.endpoint_url',
        'i.dev_tunnel_url',
        'i.dev_all_organizations',
      ])
      .where('ii.organization_id', '=', event.organization_id)
      .where('ii.status', '=', 'active')
      .where((eb) => eb.or([eb('i.endpoint_url', 'is not', null), eb('i.dev_tunnel_url', 'is not', null)]));
    query = event.space_id
      ? query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('integration_space_installations as isi')
              .select(sql`1`.as('one'))
              .whereRef('isi.installation_id', '=', 'ii.id')
              .where('isi.organization_id', '=', event.organization_id)
              .where('isi.space_id', '=', event.space_id!),
          ),
        )
      : query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('integration_site_installations as isi')
              .select(sql`1`.as('one'))
              .whereRef('isi.installation_id', '=', 'ii.id')
              .where('isi.organization_id', '=', event.organization_id)
              .where('isi.site_id', '=', event.site_id!),
          ),
        );
    for (const row of await query.orderBy('ii.id').execute()) {
      const url = requestUrlFor({ id: row.integration_id, ...row }, event.organization_id);
      if (url)
        targets.push({ integrationId: row.integration_id, installationId: row.installation_id, webhookId: null, url });
    }
  }
  // The organization's webhooks for every event of it, or for this space or site, that take this type.
  const webhooks = await tx
    .selectFrom('webhooks')
    .select(['id', 'url'])
    .where('organization_id', '=', event.organization_id)
    .where((eb) =>
      eb.or([eb('events', '=', sql<string[]>`'{}'::text[]`), eb(sql.val(event.type), '=', eb.fn.any('events'))]),
    )
    .where((eb) =>
      eb.or([
        eb.and([eb('space_id', 'is', null), eb('site_id', 'is', null)]),
        ...(event.space_id ? [eb('space_id', '=', event.space_id)] : []),
        ...(event.site_id ? [eb('site_id', '=', event.site_id)] : []),
      ]),
    )
    .orderBy('id')
    .execute();
  for (const webhook of webhooks) {
    targets.push({ integrationId: null, installationId: null, webhookId: webhook.id, url: webhook.url });
  }
  return targets;
}

/**
 * Turns the oldest events of the outbox into deliveries, in their order, and
 * removes them, in one transaction. One instance at a time (a transaction
 * lock): two fanning out at once could append one space's events out of order.
 * A space's writers lock its row, so its events commit in seq order; others'
 * events (on no lock in common) are delivered in the order they are fanned out.
 * Answers how many events it took.
 */
export async function fanOutEvents(db: Db, limit = 200): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(hashtext('quire:event-fan-out')) as locked`.execute(tx);
    if (!rows[0]?.locked) return 0;
    const events = await tx.selectFrom('events').selectAll().orderBy('seq').limit(limit).execute();
    if (events.length === 0) return 0;
    const deliveries = [];
    for (const event of events) {
      for (const target of await targetsOf(tx, event)) {
        const id = newId();
        deliveries.push({
          id,
          organization_id: event.organization_id,
          integration_id: target.integrationId,
          installation_id: target.installationId,
          webhook_id: target.webhookId,
          stream: streamOf(event, target),
          type: event.type,
          payload: JSON.stringify({
            ...event.payload,
            eventId: id,
            // A webhook's events name the webhook where an integration's name its installation.
            ...(target.installationId || target.webhookId
              ? { installationId: target.installationId ?? target.webhookId }
              : {}),
          }),
          url: target.url,
          next_attempt_at: event.created_at,
          give_up_at: new Date(event.created_at.getTime() + RETRY_FOR_MS),
          created_at: event.created_at,
        });
      }
    }
    // In event order: a delivery's seq is its place in its stream.
    for (let at = 0; at < deliveries.length; at += 500) {
      await tx
        .insertInto('event_deliveries')
        .values(deliveries.slice(at, at + 500))
        .execute();
    }
    // Exactly those read: one with a smaller seq that committed since (its writer took its number first) is
    // not among them, and waits for the next turn.
    await tx
      .deleteFrom('events')
      .where(
        'seq',
        'in',
        events.map((event) => event.seq),
      )
      .execute();
    return events.length;
  });
}
