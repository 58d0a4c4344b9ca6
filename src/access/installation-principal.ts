import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';

/**
 * An integration calling the API as one of its installations, with a token
 * from createIntegrationInstallationToken. It is no user: its principal id
 * (`installation:<id>`) holds a colon, which no user id does, so every
 * membership and grant lookup made with it finds nothing, and what it may do
 * is only what `installationReach` and `installationSpaceRole` let it.
 */
export interface InstallationPrincipal {
  installationId: string;
  integrationId: string;
  integrationName: string;
  /** The organization it is installed on: the only one it reaches. */
  organizationId: string;
  /** The integration's scopes (GitBook's integration scopes) when the token was made. */
  scopes: string[];
}

const PRINCIPAL_PREFIX = 'installation:';

/** The `userId` an installation's caller acts under. */
export const installationPrincipalId = (installationId: string) => `${PRINCIPAL_PREFIX}${installationId}`;

/** The installation a principal id names, or undefined for a user's id. */
export function installationOfPrincipal(userId: string): string | undefined {
  return userId.startsWith(PRINCIPAL_PREFIX) ? userId.slice(PRINCIPAL_PREFIX.length) : undefined;
}

/** Installation tokens carry their own prefix, so that one lookup tells them from users' tokens. */
export const INSTALLATION_TOKEN_PREFIX = 'quire_inst_';

const principalByTokenHash = precompiled((db, tokenHash: Buffer) =>
  db
    .selectFrom('integration_installation_tokens as t')
    .innerJoin('integration_installations as ii', (join) =>
      join.onRef('ii.organization_id', '=', 't.organization_id').onRef('ii.id', '=', 't.installation_id'),
    )
    .innerJoin('integrations as i', 'i.id', 't.integration_id')
    .select([
      't.id as tokenId',
      't.installation_id as installationId',
      't.integration_id as integrationId',
      't.organization_id as organizationId',
      't.scopes',
      't.expires_at as expiresAt',
      'i.name as integrationName',
      'i.title as integrationTitle',
      sql<boolean>`ii.status = 'active' and ii.integration_id = t.integration_id`.as('active'),
    ])
    .where('t.token_hash', '=', tokenHash),
);

export interface InstallationTokenRow {
  tokenId: string;
  expiresAt: Date;
  title: string;
  principal: InstallationPrincipal;
}

/** The installation a token hash names, while it is installed and active; undefined otherwise. */
export async function findInstallationToken(db: Db, tokenHash: Buffer): Promise<InstallationTokenRow | undefined> {
  const [row] = await principalByTokenHash(db, tokenHash);
  if (!row?.active) return undefined;
  return {
    tokenId: row.tokenId,
    expiresAt: row.expiresAt,
    title: row.integrationTitle,
    principal: {
      installationId: row.installationId,
      integrationId: row.integrationId,
      integrationName: row.integrationName,
      organizationId: row.organizationId,
      scopes: row.scopes,
    },
  };
}

const spaceInstalled = precompiled((db, installationId: string, spaceId: string) =>
  db
    .selectFrom('integration_space_installations as si')
    .innerJoin('spaces as s', (join) =>
      join.onRef('s.organization_id', '=', 'si.organization_id').onRef('s.id', '=', 'si.space_id'),
    )
    .select('si.space_id')
    .where('si.installation_id', '=', installationId)
    .where('si.space_id', '=', spaceId)
    .where('s.deleted_at', 'is', null),
);

/** Whether the installation is on this live space of its organization. */
export async function isSpaceOfInstallation(db: Db, installationId: string, spaceId: string): Promise<boolean> {
  return (await spaceInstalled(db, installationId, spaceId)).length > 0;
}

const siteInstalled = precompiled((db, installationId: string, siteId: string) =>
  db
    .selectFrom('integration_site_installations as ti')
    .innerJoin('sites as x', (join) =>
      join.onRef('x.organization_id', '=', 'ti.organization_id').onRef('x.id', '=', 'ti.site_id'),
    )
    .select('ti.site_id')
    .where('ti.installation_id', '=', installationId)
    .where('ti.site_id', '=', siteId),
);

/** Whether the installation is on this site of its organization. */
export async function isSiteOfInstallation(db: Db, installationId: string, siteId: string): Promise<boolean> {
  return (await siteInstalled(db, installationId, siteId)).length > 0;
}
