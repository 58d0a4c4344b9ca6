import type { Db } from '../db/database.js';

export interface FontRow {
  id: string;
  font_family: string;
  faces: Array<{ weight: number; sha256: string }>;
}

/** Fonts of the organization (all, or those of `ids`), oldest first, each with its faces by weight: two statements. */
export async function findFonts(db: Db, organizationId: string, ids?: readonly string[]): Promise<FontRow[]> {
  if (ids?.length === 0) return [];
  let fonts = db
    .selectFrom('custom_fonts')
    .select(['id', 'font_family'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id');
  if (ids) fonts = fonts.where('id', 'in', ids);
  const rows = await fonts.execute();
  if (rows.length === 0) return [];
  const faces = await db
    .selectFrom('custom_font_faces')
    .select(['font_id', 'weight', 'sha256'])
    .where('organization_id', '=', organizationId)
    .where(
      'font_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('weight')
    .execute();
  return rows.map((row) => ({
    ...row,
    faces: faces.filter((face) => face.font_id === row.id).map(({ weight, sha256 }) => ({ weight, sha256 })),
  }));
}

export async function findFont(db: Db, organizationId: string, fontId: string): Promise<FontRow | undefined> {
  return (await findFonts(db, organizationId, [fontId]))[0];
}

export async function countFonts(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('custom_fonts')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertFont(
  tx: Db,
  font: { id: string; organizationId: string; fontFamily: string; createdBy: string; now: Date },
): Promise<void> {
  await tx
    .insertInto('custom_fonts')
    .values({
      id: font.id,
      organization_id: font.organizationId,
      font_family: font.fontFamily,
      created_by: font.createdBy,
      created_at: font.now,
      updated_at: font.now,
    })
    .execute();
}

/** Locks the font for a change; false when the organization has no such font. */
export async function lockFont(tx: Db, organizationId: string, fontId: string, now: Date, fontFamily?: string) {
  const updated = await tx
    .updateTable('custom_fonts')
    .set({ updated_at: now, ...(fontFamily !== undefined ? { font_family: fontFamily } : {}) })
    .where('organization_id', '=', organizationId)
    .where('id', '=', fontId)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

export interface StoredFace {
  weight: number;
  sha256: string;
  size: number;
}

/** Sets the faces of these weights, replacing any the font had. */
export async function upsertFaces(tx: Db, organizationId: string, fontId: string, faces: StoredFace[]): Promise<void> {
  if (faces.length === 0) return;
  await tx
    .insertInto('custom_font_faces')
    .values(faces.map((face) => ({ organization_id: organizationId, font_id: fontId, ...face })))
    .onConflict((conflict) =>
      conflict.columns(['font_id', 'weight']).doUpdateSet((eb) => ({
        sha256: eb.ref('excluded.sha256'),
        size: eb.ref('excluded.size'),
      })),
    )
    .execute();
}

export async function deleteFaces(tx: Db, organizationId: string, fontId: string, weights: number[]): Promise<void> {
  if (weights.length === 0) return;
  await tx
    .deleteFrom('custom_font_faces')
    .where('organization_id', '=', organizationId)
    .where('font_id', '=', fontId)
    .where('weight', 'in', weights)
    .execute();
}

export async function fontWeights(tx: Db, organizationId: string, fontId: string): Promise<number[]> {
  const rows = await tx
    .selectFrom('custom_font_faces')
    .select('weight')
    .where('organization_id', '=', organizationId)
    .where('font_id', '=', fontId)
    .execute();
  return rows.map((row) => row.weight);
}

export async function deleteFont(db: Db, organizationId: string, fontId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('custom_fonts')
    .where('organization_id', '=', organizationId)
    .where('id', '=', fontId)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** A face's bytes, for its served file: the organization comes with the font, whose id is in the address. */
export async function findFaceBytes(db: Db, fontId: string, weight: number) {
  return db
    .selectFrom('custom_font_faces')
    .innerJoin('blobs', 'blobs.sha256', 'custom_font_faces.sha256')
    .select(['custom_font_faces.sha256', 'blobs.bytes'])
    .where('custom_font_faces.font_id', '=', fontId)
    .where('custom_font_faces.weight', '=', weight)
    .executeTakeFirst();
}

export async function blobBytes(db: Db, sha256: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('blobs').select('bytes').where('sha256', '=', sha256).executeTakeFirst();
  return row?.bytes;
}
