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

type IntegrationEndpointRow = Parameters<typeof requestUrlFor>[0] & { id: string };
interface InstallationRow extends IntegrationEndpointRow {
  installation_id: string;
  installation_organization_id: string;
  /** The space or site it is installed on. */
  on: string;
}
interface WebhookRow {
  id: string;
  organization_id: string;
  url: string;
  events: string[];
  space_id: string | null;
  site_id: string | null;
}

/** What a batch of events may go to, read in three queries whatever its size. */
interface Candidates {
  integrations: Map<string, IntegrationEndpointRow>;
  /** By space or site id. */
  installations: Map<string, InstallationRow[]>;
  /** By organization id. */
  webhooks: Map<string, WebhookRow[]>;
}

const ENDPOINT_COLUMNS = [
  'i.organization_id',
  'i.endpoint_url',
  'i.dev_tunnel_url',
  'i.dev_all_organizations',
] as const;

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
}

async function candidatesOf(tx: Db, events: readonly OutboxEvent[]): Promise<Candidates> {
  const unique = (values: Array<string | null>) => [...new Set(values.filter((value): value is string => !!value))];
  const integrationIds = unique(events.map((event) => event.integration_id));
  const spec = events.filter((event) => !event.integration_id && isSpecEventType(event.type));
  const spaceIds = unique(spec.map((event) => event.space_id));
  const siteIds = unique(spec.map((event) => event.site_id));
  const organizationIds = unique(events.filter((event) => !event.integration_id).map((e) => e.organization_id));
  const onSpaces = () =>
    tx
      .selectFrom('integration_space_installations as x')
      .innerJoin('integration_installations as ii', 'ii.id', 'x.installation_id')
      .innerJoin('integrations as i', 'i.id', 'ii.integration_id')
      .select(['i.id', ...ENDPOINT_COLUMNS, 'ii.id as installation_id', 'x.space_id as on'])
      .select('ii.organization_id as installation_organization_id')
      .where('x.space_id', 'in', spaceIds)
      .whereRef('x.organization_id', '=', 'ii.organization_id')
      .where('ii.status', '=', 'active')
      .where((eb) => eb.or([eb('i.endpoint_url', 'is not', null), eb('i.dev_tunnel_url', 'is not', null)]))
      .orderBy('ii.id')
      .execute();
  const onSites = () =>
    tx
      .selectFrom('integration_site_installations as x')
      .innerJoin('integration_installations as ii', 'ii.id', 'x.installation_id')
      .innerJoin('integrations as i', 'i.id', 'ii.integration_id')
      .select(['i.id', ...ENDPOINT_COLUMNS, 'ii.id as installation_id', 'x.site_id as on'])
      .select('ii.organization_id as installation_organization_id')
      .where('x.site_id', 'in', siteIds)
      .whereRef('x.organization_id', '=', 'ii.organization_id')
      .where('ii.status', '=', 'active')
      .where((eb) => eb.or([eb('i.endpoint_url', 'is not', null), eb('i.dev_tunnel_url', 'is not', null)]))
      .orderBy('ii.id')
      .execute();
  const [integrations, spaceRows, siteRows, webhooks] = await Promise.all([
    integrationIds.length === 0
      ? []
      : tx
          .selectFrom('integrations as i')
          .select(['i.id', ...ENDPOINT_COLUMNS])
          .where('i.id', 'in', integrationIds)
          .execute(),
    spaceIds.length === 0 ? [] : onSpaces(),
    siteIds.length === 0 ? [] : onSites(),
    organizationIds.length === 0
      ? []
      : tx
          .selectFrom('webhooks')
          .select(['id', 'organization_id', 'url', 'events', 'space_id', 'site_id'])
          .where('organization_id', 'in', organizationIds)
          .orderBy('id')
          .execute(),
  ]);
  return {
    integrations: new Map(integrations.map((row) => [row.id, row])),
    installations: groupBy<InstallationRow>([...spaceRows, ...siteRows], (row) => row.on),
    webhooks: groupBy(webhooks, (row) => row.organization_id),
  };
}

function targetsOf(event: OutboxEvent, candidates: Candidates): Target[] {
  if (event.integration_id) {
    // Its own installation's setup or deletion, or a task it queued: to that integration alone, at its
    // endpoint or its development tunnel where development mode covers the event's organization.
    const integration = candidates.integrations.get(event.integration_id);
    const url = integration && requestUrlFor(integration, event.organization_id);
    return integration && url
      ? [{ integrationId: integration.id, installationId: event.installation_id, webhookId: null, url }]
      : [];
  }
  const targets: Target[] = [];
  const on = event.space_id ?? event.site_id;
  if (isSpecEventType(event.type) && on) {
    // The active installations of this organization on the space or site, of integrations with an endpoint.
    for (const row of candidates.installations.get(on) ?? []) {
      if (row.installation_organization_id !== event.organization_id) continue;
      const url = requestUrlFor(row, event.organization_id);
      if (url) targets.push({ integrationId: row.id, installationId: row.installation_id, webhookId: null, url });
    }
  }
  // The organization's webhooks for every event of it, or for this space or site, that take this type.
  for (const webhook of candidates.webhooks.get(event.organization_id) ?? []) {
    const wanted = webhook.events.length === 0 || webhook.events.includes(event.type);
    const reaches =
      (webhook.space_id === null && webhook.site_id === null) ||
      (webhook.space_id !== null && webhook.space_id === event.space_id) ||
      (webhook.site_id !== null && webhook.site_id === event.site_id);
    if (wanted && reaches)
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
export async function fanOutEvents(db: Db, limit = 1000): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(hashtext('quire:event-fan-out')) as locked`.execute(tx);
    if (!rows[0]?.locked) return 0;
    const events = await tx.selectFrom('events').selectAll().orderBy('seq').limit(limit).execute();
    if (events.length === 0) return 0;
    const candidates = await candidatesOf(tx, events);
    const deliveries = [];
    for (const event of events) {
      for (const target of targetsOf(event, candidates)) {
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
