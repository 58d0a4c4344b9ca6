import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../core/schemas.js';
import { SPACE_TEMPLATE_IDS } from './catalog.js';

/** A content reference a template may be given; the built-in templates name none. */
const TemplateContentRef = Type.Object(
  { kind: Type.String({ minLength: 1, maxLength: 32 }) },
  { additionalProperties: Type.String({ maxLength: 2048 }) },
);

/** The spec's ApplySpaceTemplate with its changeRequestId. */
export const ApplySpaceTemplateBody = Type.Object(
  {
    id: StringEnum(SPACE_TEMPLATE_IDS, { description: 'The built-in template to write into the space' }),
    params: Type.Optional(
      Type.Object(
        {
          contentRefs: Type.Optional(
            Type.Record(Type.String({ maxLength: 64 }), TemplateContentRef, { maxProperties: 20 }),
          ),
        },
        { additionalProperties: false, description: 'Accepted for GitBook’s clients; the built-in templates use none' },
      ),
    ),
    changeRequestId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'A change request of the space (id or number) to write into instead of the space’s content',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ id: 'api-docs' }, { id: 'product-docs', changeRequestId: '3' }] },
);
export type ApplySpaceTemplateBody = Static<typeof ApplySpaceTemplateBody>;
