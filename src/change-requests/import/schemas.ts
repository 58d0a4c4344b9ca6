import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../core/schemas.js';

/** Every source the GitBook API names; SUPPORTED_SOURCES are the ones this service imports. */
export const IMPORT_SOURCES = [
  'website',
  'docx',
  'markdown',
  'html',
  'zip',
  'confluence',
  'github-wiki',
  'notion',
  'google-docs',
] as const;
export const SUPPORTED_SOURCES = ['website', 'markdown'] as const;
export type SupportedSource = (typeof SUPPORTED_SOURCES)[number];

export const ImportContentBody = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      maxLength: 2048,
      description: 'The page to start crawling from, or the markdown file',
    }),
    source: StringEnum(IMPORT_SOURCES, {
      description: 'website: the site at url, crawled; markdown: the one markdown file at url',
    }),
  },
  { additionalProperties: false, examples: [{ url: 'https://docs.example.com/', source: 'website' }] },
);
export type ImportContentInput = Static<typeof ImportContentBody>;

export const ImportContentResult = Type.Object({
  revision: Type.String({ description: 'The revision the import made' }),
  importedResources: Type.Integer({ description: 'Pages imported' }),
  totalResources: Type.Integer({ description: 'Pages fetched: those imported and those that failed' }),
});
export type ImportContentResult = Static<typeof ImportContentResult>;
