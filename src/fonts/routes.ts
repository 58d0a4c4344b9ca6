import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../access/auth.js';
import { NotFoundError } from '../core/errors.js';
import { noContent, sendBytes } from '../core/replies.js';
import { errorResponses, OrganizationParams } from '../core/schemas.js';
import {
  createCustomFont,
  deleteCustomFont,
  getCustomFont,
  listCustomFonts,
  MAX_FONTS_PER_ORGANIZATION,
  updateCustomFont,
} from './actions.js';
import { parseFontFileName } from './present.js';
import { findFaceBytes } from './queries.js';
import {
  CreateCustomFontBody,
  CustomFontList,
  CustomFontSchema,
  FontFileParams,
  FontParams,
  UpdateCustomFontBody,
} from './schemas.js';
import { FONT_FILE_MAX_BYTES } from './woff2.js';

const tags = ['custom-fonts'];

const FACES_FROM_UPLOADS =
  'Each face names the `key` of a completed upload of the organization (generateStorageUploadURL with kind ' +
  `\`customization_font\`): a WOFF2 file of at most ${FONT_FILE_MAX_BYTES} bytes whose header, table directory ` +
  'and compressed tables are checked (400 otherwise). One face per weight.';

/** An organization's own fonts, which its sites name in their customization (styling.font, styling.monospaceFont). */
export const customFontRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/fonts',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'listCustomFonts',
        tags,
        summary: 'List all custom fonts',
        description: `Members of the organization. Every font, oldest first (at most ${MAX_FONTS_PER_ORGANIZATION}).`,
        params: OrganizationParams,
        response: { 200: CustomFontList, ...errorResponses },
      },
    },
    async (request) => listCustomFonts(app.context, callerOf(request).userId, request.params.organizationId),
  );

  app.put(
    '/orgs/:organizationId/fonts',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'createCustomFont',
        tags,
        summary: 'Create a custom font (admins)',
        description:
          `Admins of the organization. ${FACES_FROM_UPLOADS} A face of weight 400 is required (412 without). ` +
          `An organization has at most ${MAX_FONTS_PER_ORGANIZATION} fonts (409).`,
        params: OrganizationParams,
        body: CreateCustomFontBody,
        response: { 201: CustomFontSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const font = await createCustomFont(app.context, callerOf(request).userId, organizationId, request.body);
      return reply
        .code(201)
        .header('location', app.urls.api('orgs', organizationId, 'fonts', font.id))
        .send(font);
    },
  );

  app.get(
    '/orgs/:organizationId/fonts/:fontId',
    {
      config: { scope: 'organization:read' },
      schema: {
        operationId: 'getCustomFont',
        tags,
        summary: 'Get a custom font by its ID',
        description: 'Members of the organization.',
        params: FontParams,
        response: { 200: CustomFontSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { organizationId, fontId } = request.params;
      return getCustomFont(app.context, callerOf(request).userId, organizationId, fontId);
    },
  );

  app.post(
    '/orgs/:organizationId/fonts/:fontId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'updateCustomFont',
        tags,
        summary: 'Update a custom font (admins)',
        description:
          `Admins of the organization. A new \`fontFamily\` renames the font; a face sets or replaces its weight, ` +
          `a null \`storageKey\` removes it. ${FACES_FROM_UPLOADS} The font must keep its weight 400 (412).`,
        params: FontParams,
        body: UpdateCustomFontBody,
        response: { 201: CustomFontSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { organizationId, fontId } = request.params;
      const font = await updateCustomFont(app.context, callerOf(request).userId, organizationId, fontId, request.body);
      return reply.code(201).send(font);
    },
  );

  app.delete(
    '/orgs/:organizationId/fonts/:fontId',
    {
      config: { scope: 'organization:write' },
      schema: {
        operationId: 'deleteCustomFont',
        tags,
        summary: 'Delete a custom font (admins)',
        description:
          'Admins of the organization: 205 when the font is deleted, 204 when the organization has no such ' +
          'font (as GitBook answers). Sites that named it are shown in their default font.',
        params: FontParams,
        response: {
          204: Type.Null({ description: 'No such font: nothing changed' }),
          205: Type.Null({ description: 'Deleted' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { organizationId, fontId } = request.params;
      return noContent(reply, await deleteCustomFont(app.context, callerOf(request).userId, organizationId, fontId));
    },
  );
};

/**
 * A face's file, for the stylesheets of published sites (on this host or
 * their own): no token, loadable from any origin as web fonts are. Its name
 * carries the bytes' hash, so it never changes and is cached for good.
 */
export const fontFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/fonts/:fontId/:file',
    { schema: { hide: true, params: FontFileParams, response: errorResponses } },
    async (request, reply) => {
      const name = parseFontFileName(request.params.file);
      const face = name && (await findFaceBytes(app.context.db, request.params.fontId, name.weight));
      if (!name || !face || !face.sha256.startsWith(name.hash)) throw new NotFoundError('No font file here');
      reply
        .header('content-type', 'font/woff2')
        .header('x-content-type-options', 'nosniff')
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', `"${face.sha256}"`);
      return sendBytes(reply, face.bytes);
    },
  );
};
