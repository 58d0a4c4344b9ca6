import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../../access/auth.js';
import { errorResponses, OrganizationParams } from '../../../core/schemas.js';
import { createStorageUpload, receiveUploadBytes } from './actions.js';
import {
  GenerateStorageUploadBody,
  StorageUploadDone,
  StorageUploadURL,
  UploadBytesParams,
  UploadBytesQuery,
} from './schemas.js';

/** GitBook's storage operation, under /v1: a signed URL to upload a file to. */
export const storageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/storage/upload',
    {
      // The bytes become files of spaces in a later content write: uploading them is part of writing content.
      config: { scope: 'space:write' },
      schema: {
        operationId: 'generateStorageUploadURL',
        tags: ['storage'],
        summary: 'Create a signed URL to upload a file to',
        description:
          'Needs the `edit` role in the organization. PUT the file’s bytes to `url` (no token; exactly ' +
          '`file.size` bytes, at most STORAGE_UPLOAD_MAX_BYTES, else 413) within a day, then name `url` as ' +
          'the `url` of a file in an `insert_files` change of a content write of a space of the organization.',
        params: OrganizationParams,
        body: GenerateStorageUploadBody,
        response: { 201: StorageUploadURL, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = await createStorageUpload(
        app.context,
        callerOf(request).userId,
        request.params.organizationId,
        request.body,
      );
      return reply.code(201).send(body);
    },
  );
};

/**
 * Where an upload's bytes are PUT, outside /v1 as signed downloads are: the
 * signature is the permission. The body is read as a stream whatever its
 * type, never buffered whole.
 */
export const storageUploadBytesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.put(
    '/storage/uploads/:uploadId',
    {
      schema: {
        hide: true,
        params: UploadBytesParams,
        querystring: UploadBytesQuery,
        response: { 200: StorageUploadDone, ...errorResponses },
      },
    },
    async (request) => {
      const length = request.headers['content-length'];
      return receiveUploadBytes(
        app.context,
        request.params.uploadId,
        request.query.signature,
        request.body as Readable | undefined,
        length === undefined ? undefined : Number(length),
      );
    },
  );
};
