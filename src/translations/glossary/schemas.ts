import { Type, type Static } from '@sinclair/typebox';
import { DateTime, IdParam, ListQuery, StringEnum } from '../../core/schemas.js';
import { TRANSLATION_LANGUAGES } from '../schemas.js';

/** At most this many entries in an organization's glossary, and operations in one batch. */
export const GLOSSARY_LIMITS = { entries: 2000, operations: 100 } as const;

const LanguageCode = `^(?:${TRANSLATION_LANGUAGES.join('|')})$`;

/** A term in each language it has: codes of TranslationLanguage, one line of 1 to 255 characters each. */
const GlossaryTranslations = Type.Record(
  Type.String({ pattern: LanguageCode }),
  Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\n\\r]*$' }),
  {
    minProperties: 1,
    maxProperties: TRANSLATION_LANGUAGES.length,
    additionalProperties: false,
    description: 'The term in each language it has, by language code',
  },
);

export const GlossaryEntrySchema = Type.Object({
  object: Type.Literal('glossary-entry'),
  id: Type.String(),
  translations: Type.Record(Type.String(), Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type GlossaryEntry = Static<typeof GlossaryEntrySchema>;

export const GlossaryEntryParams = Type.Object({ organizationId: IdParam, glossaryEntryId: IdParam });

export const ListGlossaryQuery = Type.Object(
  {
    ...ListQuery,
    orderBy: Type.Optional(
      StringEnum(TRANSLATION_LANGUAGES, {
        description: 'By the term in this language, any case; entries without it come last. Default: newest first',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListGlossaryQuery = Static<typeof ListGlossaryQuery>;

const GlossaryOperation = Type.Union([
  Type.Object({ type: Type.Literal('insert'), translations: GlossaryTranslations }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('update'), id: IdParam, translations: GlossaryTranslations },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('delete'), id: IdParam }, { additionalProperties: false }),
]);
export type GlossaryOperation = Static<typeof GlossaryOperation>;

export const UpdateGlossaryBody = Type.Object(
  { operations: Type.Array(GlossaryOperation, { maxItems: GLOSSARY_LIMITS.operations }) },
  {
    additionalProperties: false,
    examples: [
      {
        operations: [
          { type: 'insert', translations: { en: 'workspace', fr: 'espace de travail' } },
          { type: 'delete', id: 'gl4Tq8LmW1xR6NbV2kZc' },
        ],
      },
    ],
  },
);
export type UpdateGlossaryBody = Static<typeof UpdateGlossaryBody>;
