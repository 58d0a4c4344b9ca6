import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { noContent } from '../../core/replies.js';
import { errorResponses, ListEnvelope, OrganizationParams } from '../../core/schemas.js';
import { callerOf } from '../../access/auth.js';
import { IntegrationParams } from '../schemas.js';
import {
  createWebhook,
  getIntegrationEvent,
  getWebhook,
  listIntegrationEvents,
  listOrganizationWebhooks,
  listWebhookDeliveries,
  queueIntegrationTask,
  redeliverIntegrationEvent,
  removeWebhook,
  rotateSigningSecret,
} from './actions.js';
import {
  CreateWebhookBody,
  IntegrationEventParams,
  IntegrationEventSchema,
  ListIntegrationEventsQuery,
  QueueTaskBody,
  WebhookDeliverySchema,
  WebhookParams,
  WebhookSchema,
} from './schemas.js';

const TraceSchema = Type.Object({
  logs: Type.Array(
    Type.Object({
      message: Type.String(),
      timestamp: Type.String({ format: 'date-time' }),
      level: Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]),
    }),
  ),
});

/** An integration's deliveries, its signing secret and its tasks; an organization's webhooks. */
export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/integrations/:integrationName/events',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'listIntegrationEvents',
        tags: ['integrations'],
        summary: 'List the events sent to an integration (admins of the publishing organization)',
        description:
          'Each delivery of an event to the integration’s endpoint, newest first: `payload` as sent, `status` ' +
          '`success` once delivered, and `delivery` (an extension) with its state, attempts and last error.',
        params: IntegrationParams,
        querystring: ListIntegrationEventsQuery,
        response: { 200: ListEnvelope(IntegrationEventSchema), ...errorResponses },
      },
    },
    async (request) =>
      listIntegrationEvents(app.context, callerOf(request).userId, request.params.integrationName, request.query),
  );

  app.get(
    '/integrations/:integrationName/events/:eventId',
    {
      config: { scope: 'integration:read' },
      schema: {
        operationId: 'getIntegrationEvent',
        tags: ['integrations'],
        summary: 'Get an event sent to an integration, with what its last attempt met',
        description:
          'Admins of the publishing organization. `trace.logs` holds the last attempt: delivered with its ' +
          'status, or why it failed.',
        params: IntegrationEventParams,
        response: { 200: Type.Object({ event: IntegrationEventSchema, trace: TraceSchema }), ...errorResponses },
      },
    },
    async (request) =>
      getIntegrationEvent(
        app.context,
        callerOf(request).userId,
        request.params.integrationName,
        request.params.eventId,
      ),
  );

  app.post(
    '/integrations/:integrationName/events/:eventId/redeliver',
    {
      config: { scope: 'integration:publish' },
      schema: {
        operationId: 'redeliverIntegrationEvent',
        tags: ['integrations'],
        summary: 'Send an event to the integration again (an extension of this service)',
        description: 'A delivered or failed event is sent again, retried for another day; a pending one is a 409.',
        params: IntegrationEventParams,
        response: { 200: IntegrationEventSchema, ...errorResponses },
      },
    },
    async (request) =>
      redeliverIntegrationEvent(
        app.context,
        callerOf(request).userId,
        request.params.integrationName,
        request.params.eventId,
      ),
  );

  app.post(
    '/integrations/:integrationName/signing-secret',
    {
      config: { scope: 'integration:publish' },
      schema: {
        operationId: 'rotateIntegrationSigningSecret',
        tags: ['integrations'],
        summary: 'Make a new signing secret for the integration’s events (an extension of this service)',
        description: 'Answers the new secret, the only time it is shown; deliveries are signed with it from now on.',
        params: IntegrationParams,
        response: { 200: Type.Object({ secret: Type.String() }), ...errorResponses },
      },
    },
    async (request) => rotateSigningSecret(app.context, callerOf(request).userId, request.params.integrationName),
  );

  app.post(
    '/integrations/:integrationName/tasks',
    {
      config: { scope: 'integration:publish' },
      schema: {
        operationId: 'queueIntegrationTask',
        tags: ['integrations'],
        summary: 'Queue a task the integration receives as a `task` event, now or `schedule` seconds later',
        description:
          'Admins of the publishing organization. The task (up to 64 KiB as JSON) is sent to the ' +
          'integration’s endpoint, signed, as any event is, and retried for a day.',
        params: IntegrationParams,
        body: QueueTaskBody,
        response: { 204: Type.Null({ description: 'Queued' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await queueIntegrationTask(app.context, callerOf(request).userId, request.params.integrationName, request.body);
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listOrganizationWebhooks',
        tags: ['integrations'],
        summary: 'List the organization’s webhooks (admins)',
        description: 'Admins of the organization; their signing secrets are never shown again.',
        params: OrganizationParams,
        querystring: ListIntegrationEventsQuery,
        response: { 200: ListEnvelope(WebhookSchema), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationWebhooks(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.post(
    '/orgs/:organizationId/webhooks',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'createOrganizationWebhook',
        tags: ['integrations'],
        summary: 'Send the organization’s events, or a space’s or a site’s, to a URL, signed (admins)',
        description: 'Answers the webhook with its signing `secret`, the only time it is shown.',
        params: OrganizationParams,
        body: CreateWebhookBody,
        response: { 201: WebhookSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const webhook = await createWebhook(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.body,
      );
      return reply.code(201).send(webhook);
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks/:webhookId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getOrganizationWebhook',
        tags: ['integrations'],
        summary: 'Get a webhook (admins)',
        description: 'Admins of the organization; its signing secret is not shown.',
        params: WebhookParams,
        response: { 200: WebhookSchema, ...errorResponses },
      },
    },
    async (request) =>
      getWebhook(app.context, callerOf(request).userId, request.params.organizationId, request.params.webhookId),
  );

  app.delete(
    '/orgs/:organizationId/webhooks/:webhookId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'deleteOrganizationWebhook',
        tags: ['integrations'],
        summary: 'Remove a webhook and its deliveries (admins)',
        description: 'Admins of the organization. Nothing more is sent to its URL, not even what was pending.',
        params: WebhookParams,
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeWebhook(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.webhookId,
      );
      return noContent(reply, 204);
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks/:webhookId/deliveries',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listOrganizationWebhookDeliveries',
        tags: ['integrations'],
        summary: 'List a webhook’s deliveries, with their state, attempts and last error (admins)',
        description: 'Admins of the organization, newest first: each event as sent, and its delivery.',
        params: WebhookParams,
        querystring: ListIntegrationEventsQuery,
        response: { 200: ListEnvelope(WebhookDeliverySchema), ...errorResponses },
      },
    },
    async (request) =>
      listWebhookDeliveries(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.params.webhookId,
        request.query,
      ),
  );
};
