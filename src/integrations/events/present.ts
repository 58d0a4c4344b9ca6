import type { DeliveryRow, WebhookRow } from './queries.js';
import type { IntegrationEvent, Webhook } from './schemas.js';

type Delivery = IntegrationEvent['delivery'];

function presentDelivery(row: DeliveryRow): Delivery {
  return {
    state: row.status as Delivery['state'],
    url: row.url,
    attempts: row.attempts,
    ...(row.last_status === null ? {} : { lastStatus: row.last_status }),
    ...(row.last_error === null ? {} : { lastError: row.last_error }),
    ...(row.last_attempt_at ? { lastAttemptAt: row.last_attempt_at.toISOString() } : {}),
    ...(row.status === 'pending' ? { nextAttemptAt: row.next_attempt_at.toISOString() } : {}),
    ...(row.delivered_at ? { deliveredAt: row.delivered_at.toISOString() } : {}),
  };
}

const payloadOf = (row: DeliveryRow) => row.payload as IntegrationEvent['payload'];

export function presentIntegrationEvent(row: DeliveryRow): IntegrationEvent {
  return {
    id: row.id,
    integrationId: row.integration_id!,
    ...(row.installation_id ? { installationId: row.installation_id } : {}),
    createdAt: row.created_at.toISOString(),
    payload: payloadOf(row),
    // The spec knows only these two: until it is delivered, an event is not a success.
    status: row.status === 'success' ? 'success' : 'failed',
    delivery: presentDelivery(row),
  };
}

/** The spec's trace of an event: what its last attempt met. */
export function traceOf(row: DeliveryRow) {
  if (!row.last_attempt_at) return { logs: [] };
  const message =
    row.status === 'success'
      ? `Attempt ${row.attempts}: delivered (${row.last_status})`
      : `Attempt ${row.attempts}: ${row.last_error ?? 'not delivered'}`;
  return {
    logs: [
      {
        message,
        timestamp: row.last_attempt_at.toISOString(),
        level: row.status === 'success' ? ('info' as const) : ('error' as const),
      },
    ],
  };
}

export function presentWebhookDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    webhookId: row.webhook_id!,
    createdAt: row.created_at.toISOString(),
    payload: payloadOf(row),
    delivery: presentDelivery(row),
  };
}

export function presentWebhook(row: WebhookRow, secret?: string): Webhook {
  return {
    object: 'webhook',
    id: row.id,
    organizationId: row.organization_id,
    ...(row.space_id ? { spaceId: row.space_id } : {}),
    ...(row.site_id ? { siteId: row.site_id } : {}),
    url: row.url,
    events: row.events,
    createdAt: row.created_at.toISOString(),
    ...(secret === undefined ? {} : { secret }),
  };
}
