import type { Kysely, Selectable, UpdateObject } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, SamlProvidersTable } from '../db/types.js';
import { pageQuery, TOTAL_COUNT } from '../core/pagination.js';
import { domainProvenInOrganization } from '../orgs/organization-queries.js';
import { sql } from 'kysely';

const SAML_FIELDS = [
  'id',
  'organization_id',
  'label',
  'sso_url',
  'entity_id',
  'certificate',
  'default_team_id',
  'default_role',
  'created_at',
] as const;

/** The columns a SamlProvider response is made from. */
export type SamlProviderFields = Pick<Selectable<SamlProvidersTable>, (typeof SAML_FIELDS)[number]>;

const providersOf = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom('saml_providers').where('organization_id', '=', organizationId);

export async function findSamlProvider(
  db: Db,
  organizationId: string,
  id: string,
): Promise<SamlProviderFields | undefined> {
  return providersOf(db, organizationId).select(SAML_FIELDS).where('id', '=', id).executeTakeFirst();
}

/** A provider by its id alone, as the sign-in routes name it. */
export async function findSamlProviderById(db: Db, id: string): Promise<SamlProviderFields | undefined> {
  return db.selectFrom('saml_providers').select(SAML_FIELDS).where('id', '=', id).executeTakeFirst();
}

/** How many providers an address's domain lists at most. */
export const DOMAIN_PROVIDERS_LISTED = 20;

/**
 * The active providers of the organizations that have proven `domain` as one
 * of their e-mail domains: where a person with an address there signs in.
 */
export async function activeSamlProvidersForDomain(db: Db, domain: string) {
  return db
    .selectFrom('saml_providers as p')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .select(['p.id', 'p.label', 'o.title as organizationTitle'])
    .where('o.email_domains', '@>', sql<string[]>`ARRAY[${domain}]::text[]`)
    .where((eb) => domainProvenInOrganization(eb.ref('o.id'), domain))
    .where('p.entity_id', 'is not', null)
    .where('p.sso_url', 'is not', null)
    .where('p.certificate', 'is not', null)
    .orderBy('o.title')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .limit(DOMAIN_PROVIDERS_LISTED)
    .execute();
}

/** A page of an organization's SAML providers, newest first, each row carrying the total count. */
export const listSamlProviders = pageQuery({ createdAt: 'created_at', id: 'id' }, (db, organizationId: string) =>
  providersOf(db, organizationId)
    .select(SAML_FIELDS)
    .select(() =>
      providersOf(db, organizationId)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .as(TOTAL_COUNT),
    ),
);

export async function countSamlProviders(db: Db, organizationId: string): Promise<number> {
  const { n } = await providersOf(db, organizationId)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Providers complete enough to sign in with, oldest first. */
export async function listActiveSamlProviders(db: Db, organizationId: string): Promise<SamlProviderFields[]> {
  return providersOf(db, organizationId)
    .select(SAML_FIELDS)
    .where('entity_id', 'is not', null)
    .where('sso_url', 'is not', null)
    .where('certificate', 'is not', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1000)
    .execute();
}

export async function insertSamlProvider(db: Db, values: SamlProviderFields & { updated_at: Date }): Promise<void> {
  await db.insertInto('saml_providers').values(values).execute();
}

export async function updateSamlProvider(
  db: Db,
  organizationId: string,
  id: string,
  changes: UpdateObject<Database, 'saml_providers'>,
): Promise<void> {
  await db
    .updateTable('saml_providers')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

/**
 * The issuer an organization's provider's identities are kept under: its id
 * here, never the entity id it claims, which another organization's provider
 * could claim as well.
 */
export const samlIssuer = (providerId: string) => `saml:${providerId}`;

/** Deletes the provider, and the identities it linked (`saml:<id>`); false when the organization has no such provider. */
export async function deleteSamlProvider(db: Db, organizationId: string, id: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('saml_providers')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) return false;
  await db.deleteFrom('user_identities').where('issuer', '=', samlIssuer(id)).execute();
  return true;
}
