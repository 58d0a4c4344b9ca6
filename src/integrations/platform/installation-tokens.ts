import { randomString } from '../../core/ids.js';
import { newId } from '../../core/ids.js';
import { ConflictError, ForbiddenError } from '../../core/errors.js';
import { hashToken } from '../../core/tokens.js';
import type { Caller } from '../../access/auth.js';
import { INSTALLATION_TOKEN_PREFIX } from '../../access/installation-principal.js';
import type { Context } from '../../context.js';
import { findIntegrationToManage } from '../access.js';
import { findInstallationOf } from '../installation-actions.js';
import { insertInstallationToken } from './queries.js';
import { INSTALLATION_TOKEN_TTL_MS, type InstallationToken } from './schemas.js';

/**
 * Makes a token with which the integration calls the API as one of its
 * installations: the integration's declared scopes, on what that
 * installation covers (its organization, spaces and sites), for an hour.
 * The integration's publishers make it, for any installation of their
 * integration; no installation's token makes another (the auth refuses it).
 */
export async function createInstallationToken(
  context: Context,
  caller: Caller,
  integrationName: string,
  installationId: string,
): Promise<InstallationToken> {
  if (caller.installation) throw new ForbiddenError('An installation’s token cannot make tokens');
  const { integration } = await findIntegrationToManage(
    context,
    caller.userId,
    integrationName,
    'Making an installation’s token',
  );
  const { installation } = await findInstallationOf(context, caller.userId, integrationName, installationId);
  if (installation.status !== 'active') {
    throw new ConflictError(`The installation is ${installation.status}: only an active installation gets tokens`);
  }
  const token = `${INSTALLATION_TOKEN_PREFIX}${randomString(40)}`;
  const now = context.clock.now();
  await insertInstallationToken(context.db, {
    id: newId(),
    organization_id: installation.organization_id,
    installation_id: installation.id,
    integration_id: integration.id,
    token_hash: hashToken(token),
    scopes: integration.scopes,
    created_by: caller.userId,
    created_at: now,
    expires_at: new Date(now.getTime() + INSTALLATION_TOKEN_TTL_MS),
  });
  return { token };
}
