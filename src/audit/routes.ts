import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListEnvelope, OrganizationParams, ref } from '../core/schemas.js';
import { callerOf } from '../access/auth.js';
import {
  getOrganizationAuditEvent,
  listOrganizationAuditEventActions,
  listOrganizationAuditEvents,
} from './actions.js';
import {
  AuditEventActionSchema,
  AuditEventDetailsSchema,
  AuditEventParams,
  AuditEventSchema,
  ListAuditEventsQuery,
} from './schemas.js';

const ADMINS_ONLY = 'Organization admins only (other members get 403). ';

// No route writes: the audit log is only ever added to, by the actions it records.
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/audit-events',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listOrganizationAuditEvents',
        tags: ['organizations'],
        summary: 'List the audit log of an organization, newest first',
        description:
          ADMINS_ONLY +
          'Filters: `action` (a name of listOrganizationAuditEventActions), `actor` (a user’s id), `target` ' +
          '(the id of what was changed), `from` and `to` (inclusive times).',
        params: OrganizationParams,
        querystring: ListAuditEventsQuery,
        response: { 200: ListEnvelope(ref(AuditEventSchema)), ...errorResponses },
      },
    },
    async (request) =>
      listOrganizationAuditEvents(app.context, callerOf(request).userId, request.params.organizationId, request.query),
  );

  app.get(
    '/orgs/:organizationId/audit-events/:auditEventId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getOrganizationAuditEvent',
        tags: ['organizations'],
        summary: 'Get one audit event, with its token, address, and before and after',
        description: ADMINS_ONLY,
        params: AuditEventParams,
        response: { 200: ref(AuditEventDetailsSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, auditEventId } = request.params;
      return getOrganizationAuditEvent(app.context, callerOf(request).userId, organizationId, auditEventId);
    },
  );

  app.get(
    '/orgs/:organizationId/audit-event-actions',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listOrganizationAuditEventActions',
        tags: ['organizations'],
        summary: 'List the actions the audit log records, with their labels',
        description: ADMINS_ONLY,
        params: OrganizationParams,
        response: {
          200: Type.Object({ items: Type.Array(ref(AuditEventActionSchema)) }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      listOrganizationAuditEventActions(app.context, callerOf(request).userId, request.params.organizationId),
  );
};
