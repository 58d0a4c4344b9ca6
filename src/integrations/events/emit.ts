import type { MergeHook } from '../../change-requests/merge-hooks.js';
import type { Context } from '../../context.js';
import type { Db } from '../../db/database.js';
import { recordEvent, type NewEvent } from '../../events/record.js';
import { presentUser } from '../../users/users.js';

/**
 * The events of integrations' own actions (installed, updated, uninstalled
 * on an organization, a space or a site), each written with its action in
 * one transaction.
 */

export interface InstallationRef {
  organizationId: string;
  integrationId: string;
  installationId: string;
}

type Target = { kind: 'organization' } | { kind: 'space'; spaceId: string } | { kind: 'site'; siteId: string };

const PREFIX = { organization: 'installation', space: 'space_installation', site: 'site_installation' } as const;

function installationEvent(
  ref: InstallationRef,
  target: Target,
  change: 'setup' | 'deleted',
  fields: Record<string, unknown>,
  at: Date,
): NewEvent {
  return {
    organizationId: ref.organizationId,
    type: `${PREFIX[target.kind]}_${change}`,
    // Only the integration installed hears of it, even from a space its other installations share.
    integrationId: ref.integrationId,
    installationId: ref.installationId,
    ...(target.kind === 'space' ? { spaceId: target.spaceId } : {}),
    ...(target.kind === 'site' ? { siteId: target.siteId } : {}),
    fields,
    at,
  };
}

/**
 * Runs `write` and, when it changed something (a truthy answer), records that
 * the installation was set up (`previous`: its state before an update) or
 * deleted, in the same transaction.
 */
export async function writeWithInstallationEvent<T>(
  context: Context,
  ref: InstallationRef,
  target: Target,
  change:
    | { setup: { previous?: { status: string; configuration: unknown } } }
    | { deleted: { configuration?: unknown } },
  write: (tx: Db) => Promise<T>,
): Promise<T> {
  return context.db.transaction().execute(async (tx) => {
    const written = await write(tx);
    if (!written) return written;
    const at = context.clock.now();
    const event =
      'setup' in change
        ? installationEvent(
            ref,
            target,
            'setup',
            { status: 'active', ...(change.setup.previous ? { previous: change.setup.previous } : {}) },
            at,
          )
        : installationEvent(
            ref,
            target,
            'deleted',
            {
              previous:
                change.deleted.configuration === undefined ? {} : { configuration: change.deleted.configuration },
            },
            at,
          );
    await recordEvent(tx, event);
    return written;
  });
}

/**
 * The events of a merge: the space's content updated (the spec's
 * SpaceContentUpdatedEvent, by who merged) and, for webhooks, the change
 * request merged. Users are named without their e-mail address: an event
 * leaves the service.
 */
export function eventsOnMerge(context: Context): MergeHook {
  return async (tx, merge) => {
    const user = await tx
      .selectFrom('users')
      .select(['id', 'display_name', 'email', 'photo_url'])
      .where('id', '=', merge.userId)
      .executeTakeFirst();
    const at = context.clock.now();
    const updatedBy = user
      ? [
          presentUser(
            { id: user.id, email: user.email, displayName: user.display_name, photoUrl: user.photo_url },
            context.urls,
            () => false,
          ),
        ]
      : [];
    const base = { organizationId: merge.organizationId, spaceId: merge.spaceId, at };
    await recordEvent(tx, {
      ...base,
      type: 'space_content_updated',
      fields: { revisionId: merge.revisionId, updatedBy },
    });
    await recordEvent(tx, {
      ...base,
      type: 'change_request_merged',
      fields: { changeRequestId: merge.changeRequestId, revisionId: merge.revisionId, mergedBy: updatedBy[0] ?? null },
    });
  };
}
