import { BadRequestError, ConflictError, NotFoundError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { paginate, type Page } from '../../core/pagination.js';
import { organizationRole } from '../../access/membership.js';
import { ForbiddenError } from '../../core/errors.js';
import type { Context } from '../../context.js';
import { recordAuditEvent } from '../../audit/record.js';
import { recordEvent } from '../../events/record.js';
import { findIntegrationToManage } from '../access.js';
import { siteExists } from '../content-installation-queries.js';
import { checkEndpointUrl } from './endpoint.js';
import { presentIntegrationEvent, presentWebhook, presentWebhookDelivery, traceOf } from './present.js';
import {
  countDeliveries,
  countWebhooks,
  deleteWebhook,
  findDelivery,
  findWebhook,
  insertWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
} from './queries.js';
import type {
  CreateWebhookBody,
  IntegrationEvent,
  ListIntegrationEventsQuery,
  QueueTaskBody,
  Webhook,
} from './schemas.js';
import { newSigningSecret } from './signature.js';
import { rotateIntegrationSigningSecret, webhookSecretContext } from './signing-secrets.js';

/** A task's payload, as JSON, at most: it is stored and sent as it is. */
const MAX_TASK_BYTES = 64 * 1024;

const eventNotFound = () => new NotFoundError('No event with this id for this integration');

/** An integration's deliveries: for the admins of the organization that publishes it. */
export async function listIntegrationEvents(
  context: Context,
  callerId: string,
  name: string,
  query: ListIntegrationEventsQuery,
): Promise<Page<IntegrationEvent>> {
  const { integration } = await findIntegrationToManage(context, callerId, name, 'Reading its events');
  const owner = { integrationId: integration.id };
  const page = context.cursors.request(`integration-events:${integration.id}`, query);
  return paginate(context.cursors, page, {
    rows: () => listDeliveries(context.db, page, owner),
    count: () => countDeliveries(context.db, owner),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: presentIntegrationEvent,
  });
}

export async function getIntegrationEvent(context: Context, callerId: string, name: string, eventId: string) {
  const { integration } = await findIntegrationToManage(context, callerId, name, 'Reading its events');
  const row = await findDelivery(context.db, { integrationId: integration.id }, eventId);
  if (!row) throw eventNotFound();
  return { event: presentIntegrationEvent(row), trace: traceOf(row) };
}

/** Sends a delivered or failed event again, as it was; one still pending is a 409. */
export async function redeliverIntegrationEvent(context: Context, callerId: string, name: string, eventId: string) {
  const { integration } = await findIntegrationToManage(context, callerId, name, 'Redelivering its events');
  const owner = { integrationId: integration.id };
  if (!(await redeliver(context.db, owner, eventId, context.clock.now()))) {
    if (!(await findDelivery(context.db, owner, eventId))) throw eventNotFound();
    throw new ConflictError('The event is still being delivered');
  }
  return presentIntegrationEvent((await findDelivery(context.db, owner, eventId))!);
}

/** A new signing secret for the integration's deliveries, shown this once; the previous one stops at once. */
export async function rotateSigningSecret(context: Context, callerId: string, name: string) {
  const { integration } = await findIntegrationToManage(context, callerId, name, 'Rotating its signing secret');
  const secret = await context.db.transaction().execute(async (tx) => {
    const made = await rotateIntegrationSigningSecret(tx, context.keyring, integration.organization_id, integration.id);
    await recordAuditEvent(tx, {
      organizationId: integration.organization_id,
      action: 'integration.signing_secret_rotated',
      actorId: callerId,
      target: { type: 'integration', id: integration.id, label: integration.name },
      at: context.clock.now(),
    });
    return made;
  });
  return { secret };
}

/** A task the integration sends itself, `schedule` seconds from now, through its deliveries. */
export async function queueIntegrationTask(context: Context, callerId: string, name: string, body: QueueTaskBody) {
  const { integration } = await findIntegrationToManage(context, callerId, name, 'Queueing a task');
  if (Buffer.byteLength(JSON.stringify(body.task), 'utf8') > MAX_TASK_BYTES) {
    throw new BadRequestError(`body/task must not be over ${MAX_TASK_BYTES} bytes as JSON`);
  }
  const at = new Date(context.clock.now().getTime() + Math.round((body.schedule ?? 0) * 1000));
  await recordEvent(context.db, {
    organizationId: integration.organization_id,
    type: 'task',
    integrationId: integration.id,
    fields: { task: body.task },
    at,
  });
}

// ---- Webhooks: an organization's admins only ----

async function requireAdmin(context: Context, organizationId: string, callerId: string, action: string) {
  if ((await organizationRole(context.db, organizationId, callerId)) !== 'admin') {
    throw new ForbiddenError(`${action} needs the admin role in the organization`);
  }
}

const webhookNotFound = () => new NotFoundError('No webhook with this id in this organization');

export async function createWebhook(
  context: Context,
  callerId: string,
  organizationId: string,
  body: CreateWebhookBody,
): Promise<Webhook> {
  await requireAdmin(context, organizationId, callerId, 'Adding a webhook');
  if (body.space !== undefined && body.site !== undefined) {
    throw new BadRequestError('body: a webhook is for a space or for a site, not both');
  }
  const url = checkEndpointUrl(context, body.url, 'body/url');
  if (body.space !== undefined) {
    const space = await context.db
      .selectFrom('spaces')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', body.space)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!space) throw new NotFoundError('body/space: no space with this id in the organization');
  }
  if (body.site !== undefined && !(await siteExists(context.db, organizationId, body.site))) {
    throw new NotFoundError('body/site: no site with this id in the organization');
  }
  const id = newId();
  const secret = newSigningSecret();
  const now = context.clock.now();
  const row = {
    id,
    organization_id: organizationId,
    space_id: body.space ?? null,
    site_id: body.site ?? null,
    url,
    events: body.events ?? [],
    secret_sealed: context.keyring.seal(secret, webhookSecretContext(id)),
    secret_key_id: context.keyring.currentKeyId,
    created_by: callerId,
    created_at: now,
    updated_at: now,
  };
  await context.db.transaction().execute(async (tx) => {
    await insertWebhook(tx, row);
    await recordAuditEvent(tx, {
      organizationId,
      action: 'webhook.created',
      actorId: callerId,
      target: { type: 'webhook', id, label: url },
      at: now,
      after: { url, events: row.events, space: row.space_id, site: row.site_id },
    });
  });
  return presentWebhook(row, secret);
}

export async function listOrganizationWebhooks(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListIntegrationEventsQuery,
): Promise<Page<Webhook>> {
  await requireAdmin(context, organizationId, callerId, 'Reading webhooks');
  const page = context.cursors.request(`webhooks:${organizationId}`, query);
  return paginate(context.cursors, page, {
    rows: () => listWebhooks(context.db, organizationId, page),
    count: () => countWebhooks(context.db, organizationId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => presentWebhook(row),
  });
}

export async function getWebhook(context: Context, callerId: string, organizationId: string, webhookId: string) {
  await requireAdmin(context, organizationId, callerId, 'Reading webhooks');
  const row = await findWebhook(context.db, organizationId, webhookId);
  if (!row) throw webhookNotFound();
  return presentWebhook(row);
}

/** Removes the webhook and its deliveries, sent or not. */
export async function removeWebhook(context: Context, callerId: string, organizationId: string, webhookId: string) {
  await requireAdmin(context, organizationId, callerId, 'Removing a webhook');
  await context.db.transaction().execute(async (tx) => {
    if (!(await deleteWebhook(tx, organizationId, webhookId))) throw webhookNotFound();
    await recordAuditEvent(tx, {
      organizationId,
      action: 'webhook.deleted',
      actorId: callerId,
      target: { type: 'webhook', id: webhookId },
      at: context.clock.now(),
    });
  });
}

export async function listWebhookDeliveries(
  context: Context,
  callerId: string,
  organizationId: string,
  webhookId: string,
  query: ListIntegrationEventsQuery,
) {
  await requireAdmin(context, organizationId, callerId, 'Reading webhooks');
  if (!(await findWebhook(context.db, organizationId, webhookId))) throw webhookNotFound();
  const owner = { organizationId, webhookId };
  const page = context.cursors.request(`webhook-deliveries:${webhookId}`, query);
  return paginate(context.cursors, page, {
    rows: () => listDeliveries(context.db, page, owner),
    count: () => countDeliveries(context.db, owner),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: presentWebhookDelivery,
  });
}
