import { requireFullMembership, requireOrganizationAdmin } from '../access/membership.js';
import { BadRequestError, ConflictError, NotFoundError, PreconditionFailedError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Context } from '../context.js';
import { takeUpload } from '../content/files/storage/actions.js';
import { presentFont } from './present.js';
import {
  blobBytes,
  countFonts,
  deleteFaces,
  deleteFont,
  findFont,
  findFonts,
  fontWeights,
  insertFont,
  lockFont,
  upsertFaces,
  type StoredFace,
} from './queries.js';
import type { CreateCustomFontBody, CustomFont, UpdateCustomFontBody } from './schemas.js';
import { checkWoff2, FONT_FILE_MAX_BYTES, FontFileError } from './woff2.js';

/** Fonts an organization may have: the list is answered whole, so it stays short. */
export const MAX_FONTS_PER_ORGANIZATION = 100;
/** The weight every font needs: what text is set in when no other weight is asked for. */
const REGULAR = 400;
const MANAGING = 'Managing custom fonts';

const fontNotFound = () => new NotFoundError('No font with this id in the organization');

/** Members read the organization's fonts; only admins change them (they are part of sites' customization). */
async function canEdit(context: Context, organizationId: string, callerId: string): Promise<boolean> {
  const role = await requireFullMembership(context.db, organizationId, callerId, 'read the organization’s fonts');
  return role === 'admin';
}

export async function listCustomFonts(context: Context, callerId: string, organizationId: string) {
  const edit = await canEdit(context, organizationId, callerId);
  const fonts = await findFonts(context.db, organizationId);
  return { count: fonts.length, items: fonts.map((font) => presentFont(context.urls, font, edit)) };
}

export async function getCustomFont(
  context: Context,
  callerId: string,
  organizationId: string,
  fontId: string,
): Promise<CustomFont> {
  const edit = await canEdit(context, organizationId, callerId);
  const font = await findFont(context.db, organizationId, fontId);
  if (!font) throw fontNotFound();
  return presentFont(context.urls, font, edit);
}

function refuseDuplicateWeights(faces: ReadonlyArray<{ weight: number }>): void {
  const weights = new Set<number>();
  for (const [index, face] of faces.entries()) {
    if (weights.has(face.weight)) {
      throw new BadRequestError(`body/fontFaces/${index}/weight ${face.weight} is given twice: one face per weight`);
    }
    weights.add(face.weight);
  }
}

/**
 * The face an upload makes: the upload must be a completed one of the
 * organization, no larger than a font file may be (known before a byte is
 * read), and its bytes a WOFF2 font.
 */
async function faceFromUpload(
  context: Context,
  organizationId: string,
  face: { weight: number; storageKey: string },
  field: string,
): Promise<StoredFace> {
  const upload = await takeUpload(context, organizationId, face.storageKey, field);
  if (upload.size > FONT_FILE_MAX_BYTES) {
    throw new BadRequestError(`${field}: the file is over the ${FONT_FILE_MAX_BYTES}-byte limit of a font file`);
  }
  const bytes = await blobBytes(context.db, upload.sha256);
  if (!bytes) throw new BadRequestError(`${field}: the upload’s bytes are gone; upload the file again`);
  try {
    await checkWoff2(bytes);
  } catch (error) {
    if (error instanceof FontFileError) throw new BadRequestError(`${field}: the file ${error.message}`);
    throw error;
  }
  return { weight: face.weight, sha256: upload.sha256, size: upload.size };
}

/** Faces from uploads one after another: each holds its file in memory while it is checked. */
async function facesFromUploads(
  context: Context,
  organizationId: string,
  faces: ReadonlyArray<{ weight: number; storageKey: string | null }>,
): Promise<StoredFace[]> {
  const stored: StoredFace[] = [];
  for (const [index, face] of faces.entries()) {
    if (face.storageKey === null) continue;
    const field = `body/fontFaces/${index}/storageKey`;
    stored.push(await faceFromUpload(context, organizationId, { ...face, storageKey: face.storageKey }, field));
  }
  return stored;
}

const regularMissing = () =>
  new PreconditionFailedError(`A font needs a face of weight ${REGULAR} (regular): add one with a storageKey`);

export async function createCustomFont(
  context: Context,
  callerId: string,
  organizationId: string,
  body: CreateCustomFontBody,
): Promise<CustomFont> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, MANAGING);
  refuseDuplicateWeights(body.fontFaces);
  if (!body.fontFaces.some((face) => face.weight === REGULAR)) throw regularMissing();
  if ((await countFonts(context.db, organizationId)) >= MAX_FONTS_PER_ORGANIZATION) {
    throw new ConflictError(`An organization has at most ${MAX_FONTS_PER_ORGANIZATION} fonts; delete one first`);
  }
  const faces = await facesFromUploads(context, organizationId, body.fontFaces);
  const id = newId();
  await context.db.transaction().execute(async (tx) => {
    await insertFont(tx, {
      id,
      organizationId,
      fontFamily: body.fontFamily,
      createdBy: callerId,
      now: context.clock.now(),
    });
    await upsertFaces(tx, organizationId, id, faces);
  });
  return getCustomFont(context, callerId, organizationId, id);
}

/**
 * Renames a font and sets or removes faces by weight; the font must keep its
 * regular face (412 otherwise, and nothing changes).
 */
export async function updateCustomFont(
  context: Context,
  callerId: string,
  organizationId: string,
  fontId: string,
  body: UpdateCustomFontBody,
): Promise<CustomFont> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, MANAGING);
  if (!(await findFont(context.db, organizationId, fontId))) throw fontNotFound();
  const changes = body.fontFaces ?? [];
  refuseDuplicateWeights(changes);
  const faces = await facesFromUploads(context, organizationId, changes);
  const removed = changes.filter((face) => face.storageKey === null).map((face) => face.weight);
  await context.db.transaction().execute(async (tx) => {
    if (!(await lockFont(tx, organizationId, fontId, context.clock.now(), body.fontFamily))) throw fontNotFound();
    await deleteFaces(tx, organizationId, fontId, removed);
    await upsertFaces(tx, organizationId, fontId, faces);
    // Thrown inside the transaction, so the font is left as it was.
    if (!(await fontWeights(tx, organizationId, fontId)).includes(REGULAR)) throw regularMissing();
  });
  return getCustomFont(context, callerId, organizationId, fontId);
}

/** Deletes a font (205); 204 when the organization has no such font, as GitBook answers. */
export async function deleteCustomFont(
  context: Context,
  callerId: string,
  organizationId: string,
  fontId: string,
): Promise<204 | 205> {
  await requireOrganizationAdmin(context.db, organizationId, callerId, MANAGING);
  // Sites that named it go back to their default font: their stylesheet reads the fonts on every request.
  return (await deleteFont(context.db, organizationId, fontId)) ? 205 : 204;
}
