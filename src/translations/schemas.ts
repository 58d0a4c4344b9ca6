import { Type, type Static } from '@sinclair/typebox';
import { TRANSLATION_LANGUAGES } from '../core/languages.js';
import { DateTime, IdParam, ListQuery, StringEnum } from '../core/schemas.js';

export { TRANSLATION_LANGUAGES } from '../core/languages.js';

const Title = Type.String({ minLength: 1, maxLength: 100 });
const Languages = Type.Array(StringEnum(TRANSLATION_LANGUAGES, { description: 'A language code' }), {
  maxItems: TRANSLATION_LANGUAGES.length,
  uniqueItems: true,
  description: 'The languages content is translated into, each once',
});

export const TranslationSettingsSchema = Type.Object(
  {
    object: Type.Literal('translation-settings'),
    id: Type.String(),
    title: Type.String(),
    languages: Type.Array(Type.String()),
    createdAt: DateTime,
    updatedAt: DateTime,
    permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'TranslationSettings' },
);
export type TranslationSettings = Static<typeof TranslationSettingsSchema>;

export const TranslationSettingsParams = Type.Object({ organizationId: IdParam, translationSettingsId: IdParam });

/** A create and a replace take the same fields: `languages` left out is none on a create, and unchanged on a replace. */
export const TranslationSettingsBody = Type.Object(
  { title: Title, languages: Type.Optional(Languages) },
  { additionalProperties: false, examples: [{ title: 'Docs in Europe', languages: ['fr', 'de'] }] },
);
export type TranslationSettingsBody = Static<typeof TranslationSettingsBody>;

export const ListTranslationSettingsQuery = Type.Object(ListQuery);
export type ListTranslationSettingsQuery = Static<typeof ListTranslationSettingsQuery>;
