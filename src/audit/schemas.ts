import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, StringEnum } from '../core/schemas.js';
import { AUDIT_ACTIONS, type AuditAction } from './catalog.js';

const ACTOR_TYPES = ['user', 'integration', 'installation', 'system', 'support'] as const;
const SOURCES = ['ui', 'api', 'integration', 'webhook', 'workflow', 'script', 'support'] as const;
const ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

const Reference = (what: string) =>
  Type.Object({
    type: Type.String({ description: `Kind of ${what}` }),
    id: Type.String({ description: `Stable identifier of the ${what}` }),
    label: Type.Optional(Type.String({ description: 'Display label captured when the event was recorded' })),
  });

const AuditEventActor = Type.Object({
  type: StringEnum(ACTOR_TYPES, { description: 'Kind of actor that initiated the change' }),
  id: Type.String({ description: 'Stable identifier of the actor' }),
  label: Type.Optional(Type.String({ description: 'Display label captured when the event was recorded' })),
});

const auditEventFields = {
  object: Type.Literal('audit-event'),
  id: Type.String({ format: 'uuid' }),
  occurredAt: DateTime,
  action: Type.String({ description: 'Stable action name (listOrganizationAuditEventActions lists them)' }),
  actor: AuditEventActor,
  source: StringEnum(SOURCES, { description: 'Entry point that initiated the change' }),
  target: Reference('resource affected by the change'),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
};

export const AuditEventSchema = Type.Object(auditEventFields, { $id: 'AuditEvent' });
export type AuditEvent = Static<typeof AuditEventSchema>;

export const AuditEventDetailsSchema = Type.Object(
  {
    ...auditEventFields,
    correlationId: Type.Optional(
      Type.String({ description: 'The request that recorded it: shared by the events of one request' }),
    ),
    schemaVersion: Type.Integer({ minimum: 1 }),
    payload: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The token (`tokenId`) and client address (`ip`) of the request, `before` and `after` of the fields ' +
        'that changed, and what else tells the action apart; never a secret',
    }),
  },
  { $id: 'AuditEventDetails' },
);
export type AuditEventDetails = Static<typeof AuditEventDetailsSchema>;

export const AuditEventActionSchema = Type.Object(
  {
    object: Type.Literal('audit-event-action'),
    id: Type.String({ description: 'Stable action identifier stored on audit events' }),
    label: Type.String({ description: 'Human-readable label for the action' }),
  },
  { $id: 'AuditEventAction' },
);
export type AuditEventAction = Static<typeof AuditEventActionSchema>;

/** An identifier to filter on: a user's, a space's …, as events show them. */
const Identifier = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });

export const ListAuditEventsQuery = Type.Object({
  page: Type.Optional(
    Type.String({ minLength: 1, maxLength: 2000, description: 'The `next.page` of the previous response' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Events per page' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or before this time' })),
  action: Type.Optional(StringEnum(ACTION_NAMES, { description: 'An action name, exactly' })),
  actor: Type.Optional(Identifier('The id of the actor (a user’s id), exactly')),
  target: Type.Optional(Identifier('The id of the resource affected, exactly')),
});
export type ListAuditEventsQuery = Static<typeof ListAuditEventsQuery>;

export const AuditEventParams = Type.Object({
  organizationId: IdParam,
  // Any id: one that is not a UUID is answered as an unknown one (404), as every resource's is.
  auditEventId: Type.String({ minLength: 1, maxLength: 128, description: 'The audit event’s id (a UUID)' }),
});
