import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery } from '../../core/schemas.js';
import { StringEnum } from '../../core/schemas.js';
import { EVENT_TYPES } from '../../events/record.js';
import { IntegrationName } from '../schemas.js';

/** What this service adds to the spec's IntegrationEvent: the delivery's progress. */
export const DeliverySchema = Type.Object({
  state: StringEnum(['pending', 'success', 'failed'] as const, {
    description: 'pending: not yet delivered, retried until a day after the event; then failed',
  }),
  url: Type.String(),
  attempts: Type.Integer({ minimum: 0 }),
  lastStatus: Type.Optional(Type.Integer({ description: 'The HTTP status of the last attempt, if it got one' })),
  lastError: Type.Optional(Type.String({ description: 'Why the last attempt failed' })),
  lastAttemptAt: Type.Optional(DateTime),
  nextAttemptAt: Type.Optional(DateTime),
  deliveredAt: Type.Optional(DateTime),
});

export const IntegrationEventSchema = Type.Object({
  id: Type.String(),
  integrationId: Type.String(),
  installationId: Type.Optional(Type.String()),
  createdAt: DateTime,
  payload: Type.Object({ eventId: Type.String(), type: Type.String() }, { additionalProperties: true }),
  status: StringEnum(['success', 'failed'] as const, {
    description: 'success once delivered; failed until then (delivery.state says whether it is still retried)',
  }),
  delivery: DeliverySchema,
});
export type IntegrationEvent = Static<typeof IntegrationEventSchema>;

export const IntegrationEventParams = Type.Object({ integrationName: IntegrationName, eventId: IdParam });
export const ListIntegrationEventsQuery = Type.Object({ ...ListQuery }, { additionalProperties: false });
export type ListIntegrationEventsQuery = Static<typeof ListIntegrationEventsQuery>;

export const QueueTaskBody = Type.Object(
  {
    task: Type.Object({}, { additionalProperties: true, description: 'Payload for the task, up to 64 KiB as JSON' }),
    schedule: Type.Optional(
      Type.Number({ minimum: 0, maximum: 86400, description: 'Seconds to wait before it is sent (default 0)' }),
    ),
  },
  { additionalProperties: false, examples: [{ task: { type: 'sync', page: 'abc' }, schedule: 60 }] },
);
export type QueueTaskBody = Static<typeof QueueTaskBody>;

export const WebhookSchema = Type.Object({
  object: Type.Literal('webhook'),
  id: Type.String(),
  organizationId: Type.String(),
  spaceId: Type.Optional(Type.String()),
  siteId: Type.Optional(Type.String()),
  url: Type.String(),
  events: Type.Array(Type.String(), { description: 'The event types sent; empty: all of them' }),
  createdAt: DateTime,
  /** Only in the answer that created it. */
  secret: Type.Optional(Type.String({ description: 'The signing secret: shown once, when it is created' })),
});
export type Webhook = Static<typeof WebhookSchema>;

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    events: Type.Optional(Type.Array(StringEnum(EVENT_TYPES), { maxItems: EVENT_TYPES.length, uniqueItems: true })),
    space: Type.Optional(IdParam),
    site: Type.Optional(IdParam),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://hooks.example.com/docs', events: ['space_content_updated', 'change_request_merged'] }],
  },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const WebhookParams = Type.Object({ organizationId: IdParam, webhookId: IdParam });
export const WebhookDeliverySchema = Type.Object({
  id: Type.String(),
  webhookId: Type.String(),
  createdAt: DateTime,
  payload: Type.Object({ eventId: Type.String(), type: Type.String() }, { additionalProperties: true }),
  delivery: DeliverySchema,
});
