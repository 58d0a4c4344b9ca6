import type { SamlProviderFields } from './queries.js';
import type { SamlProvider, SsoLogin } from './schemas.js';
import type { Team } from '../members/member-schemas.js';

export function isActive(row: SamlProviderFields): boolean {
  return row.entity_id !== null && row.sso_url !== null && row.certificate !== null;
}

/** Where the identity provider talks to this service about a provider. */
export function serviceEndpoints(publicUrl: string, providerId: string): SamlProvider['service'] {
  const base = `${publicUrl}/sso/saml/${encodeURIComponent(providerId)}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base };
}

export function presentSamlProvider(
  row: SamlProviderFields,
  defaultTeam: Team | undefined,
  publicUrl: string,
  location: string,
): SamlProvider {
  const provider: SamlProvider = {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    ssoURL: row.sso_url ?? '',
    entityID: row.entity_id ?? '',
    certificate: row.certificate ?? '',
    defaultRole: row.default_role,
    createdAt: row.created_at.toISOString(),
    status: isActive(row) ? 'active' : 'pending',
    service: serviceEndpoints(publicUrl, row.id),
    urls: { location },
  };
  if (defaultTeam) provider.defaultTeam = defaultTeam;
  return provider;
}

/** Where to start signing in with a provider. */
export function presentSsoLogin(row: SamlProviderFields, publicUrl: string): SsoLogin {
  return { id: row.id, label: row.label, startURL: serviceEndpoints(publicUrl, row.id).startURL };
}
