import type { TranslationSettingsRow } from './queries.js';
import type { TranslationSettings } from './schemas.js';

export function presentTranslationSettings(
  row: TranslationSettingsRow,
  canEdit: boolean,
  location: string,
): TranslationSettings {
  return {
    object: 'translation-settings',
    id: row.id,
    title: row.title,
    languages: row.languages,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    permissions: { view: true, edit: canEdit },
    urls: { location },
  };
}
