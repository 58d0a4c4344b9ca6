import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../../core/schemas.js';

/** GitBook's StorageUploadKind: what the upload is for. */
export const STORAGE_UPLOAD_KINDS = ['customization_font', 'import_file', 'organization_file'] as const;

const closed = { additionalProperties: false };

/** GitBook's generateStorageUploadURL body: the file to come (StorageFileMetadata) and its kind. */
export const GenerateStorageUploadBody = Type.Object(
  {
    file: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 256, pattern: '^[^/\\\\]+$', description: 'Original filename' }),
        type: Type.String({
          minLength: 3,
          maxLength: 255,
          pattern: '^[\\w.+-]+/[\\w.+-]+$',
          description: 'MIME type of the file',
        }),
        size: Type.Integer({ minimum: 0, description: 'Size of the file in bytes: the PUT must send exactly these' }),
      },
      closed,
    ),
    kind: StringEnum(STORAGE_UPLOAD_KINDS),
  },
  {
    ...closed,
    examples: [{ file: { name: 'architecture.png', type: 'image/png', size: 48213 }, kind: 'organization_file' }],
  },
);
export type GenerateStorageUploadInput = Static<typeof GenerateStorageUploadBody>;

/** GitBook's StorageUploadURL. */
export const StorageUploadURL = Type.Object({
  object: Type.Literal('storage-signed-url'),
  url: Type.String({
    format: 'uri',
    description: 'Where to PUT the bytes, without a token; then name this URL as a file’s `url` in a content write',
  }),
  key: Type.String({ description: 'The upload’s key' }),
});
export type StorageUploadUrlBody = Static<typeof StorageUploadURL>;

export const UploadBytesParams = Type.Object({ uploadId: Type.String({ minLength: 1, maxLength: 128 }) });
export const UploadBytesQuery = Type.Object({ signature: Type.String({ minLength: 1, maxLength: 100 }) });

/** What a completed upload is, answered to its PUT. */
export const StorageUploadDone = Type.Object({
  object: Type.Literal('storage-upload'),
  key: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
});
