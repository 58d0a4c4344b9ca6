import { Type, type Static } from '@sinclair/typebox';
import { NullableString } from '../core/schemas.js';

/** A sibling named as the place to move next to: a space or a collection. */
const Pointer = Type.Union([
  Type.Object(
    { type: Type.Literal('space'), space: Type.String({ minLength: 1, maxLength: 128 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Literal('collection'), collection: Type.String({ minLength: 1, maxLength: 128 }) },
    { additionalProperties: false },
  ),
]);

/** Where to move a space or collection: another parent (null: the top level) and a place among its new siblings. */
export const MoveBody = Type.Object(
  {
    parent: Type.Optional(
      NullableString({
        minLength: 1,
        maxLength: 128,
        description: 'Id of the new parent collection; null for the top level',
      }),
    ),
    position: Type.Optional(
      Type.Object(
        { before: Type.Optional(Pointer), after: Type.Optional(Pointer) },
        {
          additionalProperties: false,
          description: 'Put the item before and/or after siblings; by default it goes last',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      { parent: 'c4Lm9QzR2xTb7NvK1wYe', position: { after: { type: 'space', space: 's8Hd3KpW6qZr1XcV5nTa' } } },
    ],
  },
);
export type MoveBody = Static<typeof MoveBody>;

export const TransferBody = Type.Object(
  { organization: Type.String({ minLength: 1, maxLength: 128, description: 'Id of the organization to move it to' }) },
  { additionalProperties: false, examples: [{ organization: 'o2Fj7RmX4kLq9ZbT6wNe' }] },
);
