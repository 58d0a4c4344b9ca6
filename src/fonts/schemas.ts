import { Type, type Static } from '@sinclair/typebox';
import { IdParam } from '../core/schemas.js';

/** Faces a font may have: one per weight, and there are nine usual weights (100 to 900) and a few odd ones. */
export const MAX_FONT_FACES = 20;

/**
 * The spec's FontFamily, which the reader writes into a stylesheet between
 * quotes: no quote, backslash, angle bracket, brace, semicolon or control
 * character can end the string or the rule it is in.
 */
const FontFamily = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[^"\'\\\\;{}<>\\u0000-\\u001f\\u007f]+$',
  description: 'The family name used in CSS (e.g. "Open Sans")',
});

const FontWeight = Type.Integer({
  minimum: 1,
  maximum: 1000,
  description: 'The weight of the face (400 regular, 700 bold)',
});

/** The key of an upload (generateStorageUploadURL, kind customization_font) whose bytes are a WOFF2 file. */
const StorageFileKey = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'The `key` of a completed upload to the organization’s storage: a WOFF2 file',
});

export const FontParams = Type.Object({
  organizationId: IdParam,
  fontId: Type.String({ minLength: 1, maxLength: 128, description: 'The unique ID of a font' }),
});

export const CreateCustomFontBody = Type.Object(
  {
    fontFamily: FontFamily,
    fontFaces: Type.Array(
      Type.Object({ weight: FontWeight, storageKey: StorageFileKey }, { additionalProperties: false }),
      {
        minItems: 1,
        maxItems: MAX_FONT_FACES,
        description: 'One face per weight; weight 400 (regular) is required',
      },
    ),
  },
  {
    additionalProperties: false,
    examples: [{ fontFamily: 'Acme Sans', fontFaces: [{ weight: 400, storageKey: 'Qm3rT8wXc2LpZ7vN4bKs' }] }],
  },
);
export type CreateCustomFontBody = Static<typeof CreateCustomFontBody>;

export const UpdateCustomFontBody = Type.Object(
  {
    fontFamily: Type.Optional(FontFamily),
    fontFaces: Type.Optional(
      Type.Array(
        Type.Object(
          { weight: FontWeight, storageKey: Type.Union([StorageFileKey, Type.Null()]) },
          { additionalProperties: false },
        ),
        { maxItems: MAX_FONT_FACES, description: 'Faces to add or replace; a null storageKey removes that weight' },
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        fontFaces: [
          { weight: 700, storageKey: 'Hx8pR2mWq5TzL9cV3nBd' },
          { weight: 300, storageKey: null },
        ],
      },
    ],
  },
);
export type UpdateCustomFontBody = Static<typeof UpdateCustomFontBody>;

/** The spec's CustomizationFontDefinition: what a site's customization names as its font. */
export const CustomFontSchema = Type.Object({
  id: Type.String(),
  custom: Type.Boolean({ description: 'Always true: an organization’s own font' }),
  fontFamily: Type.String(),
  fontFaces: Type.Array(
    Type.Object({
      weight: Type.Integer(),
      sources: Type.Array(
        Type.Object({ url: Type.String({ format: 'uri' }), format: Type.Optional(Type.Literal('woff2')) }),
      ),
    }),
  ),
  permissions: Type.Object({ edit: Type.Boolean({ description: 'Whether the caller may change the font' }) }),
});
export type CustomFont = Static<typeof CustomFontSchema>;

export const CustomFontList = Type.Object({
  count: Type.Integer({ description: 'How many fonts the organization has' }),
  items: Type.Array(CustomFontSchema),
});

export const FontFileParams = Type.Object({
  fontId: Type.String({ minLength: 1, maxLength: 128 }),
  file: Type.String({ minLength: 1, maxLength: 64 }),
});
