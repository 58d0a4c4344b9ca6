import { ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { organizationRole, requireFullMembership } from '../access/membership.js';
import type { Role } from '../access/roles.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import { presentTranslationSettings } from './present.js';
import {
  countTranslationSettings,
  deleteTranslationSettings,
  findTranslationSettings,
  insertTranslationSettings,
  listTranslationSettings,
  replaceTranslationSettings,
  type TranslationSettingsRow,
} from './queries.js';
import type { ListTranslationSettingsQuery, TranslationSettings, TranslationSettingsBody } from './schemas.js';

const settingsNotFound = () => new NotFoundError('No translation settings with this id in the organization');

/*
 * Members of any role read an organization's translation settings and admins
 * change them. A guest sees none of the organization's own resources: a 403
 * on the list and the create, which name none, and a 404 on one by id, as if
 * it did not exist. Non-members get a 404 from organizationRole.
 */

/** The role of a member who may see the organization's translation settings at all. */
const requireFullMember = (context: Context, organizationId: string, callerId: string) =>
  requireFullMembership(context.db, organizationId, callerId, 'see the translation settings of the organization');

function requireAdmin(role: Role | null, action: string): void {
  if (role !== 'admin') throw new ForbiddenError(`${action} needs the admin role in the organization`);
}

function present(context: Context, role: Role, row: TranslationSettingsRow): TranslationSettings {
  return presentTranslationSettings(
    row,
    role === 'admin',
    context.urls.api('orgs', row.organization_id, 'translations', row.id),
  );
}

export async function listSettings(
  context: Context,
  callerId: string,
  organizationId: string,
  query: ListTranslationSettingsQuery,
): Promise<Page<TranslationSettings>> {
  const role = await requireFullMember(context, organizationId, callerId);
  const page = context.cursors.request(`translations:${organizationId}`, query);
  return paginate(context.cursors, page, {
    rows: () => listTranslationSettings(context.db, page, organizationId),
    count: () => countTranslationSettings(context.db, organizationId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => present(context, role, row),
  });
}

export async function createSettings(
  context: Context,
  callerId: string,
  organizationId: string,
  body: TranslationSettingsBody,
): Promise<TranslationSettings> {
  const role = await requireFullMember(context, organizationId, callerId);
  requireAdmin(role, 'Creating translation settings');
  const now = context.clock.now();
  const row: TranslationSettingsRow = {
    id: newId(),
    organization_id: organizationId,
    title: body.title,
    languages: body.languages ?? [],
    created_at: now,
    updated_at: now,
  };
  await insertTranslationSettings(context.db, row);
  return present(context, role, row);
}

/** The settings as the caller may see them: guests and non-members get a 404. */
async function findVisible(context: Context, callerId: string, organizationId: string, id: string) {
  const role = await organizationRole(context.db, organizationId, callerId);
  if (role === null) throw settingsNotFound();
  const row = await findTranslationSettings(context.db, organizationId, id);
  if (!row) throw settingsNotFound();
  return { role, row };
}

export async function getSettings(
  context: Context,
  callerId: string,
  organizationId: string,
  id: string,
): Promise<TranslationSettings> {
  const { role, row } = await findVisible(context, callerId, organizationId, id);
  return present(context, role, row);
}

/** Replaces the title, and the languages when the body names them. */
export async function replaceSettings(
  context: Context,
  callerId: string,
  organizationId: string,
  id: string,
  body: TranslationSettingsBody,
): Promise<TranslationSettings> {
  const { role } = await findVisible(context, callerId, organizationId, id);
  requireAdmin(role, 'Changing translation settings');
  const row = await replaceTranslationSettings(context.db, organizationId, id, {
    title: body.title,
    ...(body.languages ? { languages: body.languages } : {}),
    updated_at: context.clock.now(),
  });
  if (!row) throw settingsNotFound();
  return present(context, role, row);
}

export async function deleteSettings(
  context: Context,
  callerId: string,
  organizationId: string,
  id: string,
): Promise<void> {
  const { role } = await findVisible(context, callerId, organizationId, id);
  requireAdmin(role, 'Deleting translation settings');
  if (!(await deleteTranslationSettings(context.db, organizationId, id))) throw settingsNotFound();
}

/**
 * Asks for the translation to run again (admins). No machine translation
 * runs here, GitBook's being a hosted AI service: the request is checked
 * and recorded in the audit log, where whoever translates finds it.
 */
export async function runTranslation(
  context: Context,
  callerId: string,
  organizationId: string,
  id: string,
): Promise<void> {
  const { role, row } = await findVisible(context, callerId, organizationId, id);
  requireAdmin(role, 'Running a translation');
  const now = context.clock.now();
  await recordAuditEvent(context.db, {
    organizationId,
    action: 'translation.run_requested',
    actorId: callerId,
    target: { type: 'translation', id: row.id, label: row.title },
    at: now,
    details: { languages: row.languages },
  });
}
