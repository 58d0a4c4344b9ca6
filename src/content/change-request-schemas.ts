import { Type, type Static } from '@sinclair/typebox';
import { DateTime, StringEnum } from '../core/schemas.js';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;

export const ChangeRequestSubject = Type.String({ maxLength: 100, description: 'Subject of the change request' });

export const ChangeRequestSchema = Type.Object(
  {
    object: Type.Literal('change-request'),
    id: Type.String(),
    number: Type.Integer({ description: 'Counts from 1 in each space' }),
    status: StringEnum(CHANGE_REQUEST_STATUSES),
    subject: Type.String(),
    description: Type.Optional(Type.Unknown({ description: 'A JSON document, as written' })),
    createdBy: Type.Ref('User'),
    createdAt: DateTime,
    updatedAt: DateTime,
    space: Type.String(),
    revision: Type.String({ description: 'Its newest revision' }),
    revisionInitial: Type.String({ description: 'The space revision it was opened on' }),
    revisionMerged: Type.Optional(Type.String({ description: 'Once merged, the space revision the merge made' })),
    comments: Type.Integer(),
    outdated: Type.Boolean({
      description: 'Whether the space has a newer revision than its base (where it was opened, or last updated)',
    }),
    urls: Type.Object({ app: Type.String({ format: 'uri' }), location: Type.String({ format: 'uri' }) }),
    permissions: Type.Optional(
      Type.Object(
        {
          merge: Type.Boolean({
            description: 'Whether the caller may merge it now: their role, its status, and the merge rules in force',
          }),
          review: Type.Boolean({ description: 'Whether the caller may review it' }),
        },
        { description: 'Beyond the spec: what the caller may do, shown when a change request is read alone' },
      ),
    ),
  },
  { $id: 'ChangeRequest' },
);
export type ChangeRequest = Static<typeof ChangeRequestSchema>;
