import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { Keyring } from '../core/keyring.js';
import type { SamlProviderFields } from './queries.js';
import { serviceEndpoints } from './present.js';

/** An active provider: every field a sign-in needs is set. */
export type ActiveSamlProvider = SamlProviderFields & { sso_url: string; entity_id: string; certificate: string };

/**
 * What a sign-in keeps in the browser while the person is at the identity
 * provider (sealed in a cookie, so that any instance finishes it): the id of
 * the request sent, which the answer must name, and where to go afterwards.
 */
export interface PendingSamlSignIn {
  providerId: string;
  requestId: string;
  next: string;
  startedAt: number;
}

/** How long a person may take at the identity provider. */
export const PENDING_SAML_SECONDS = 600;
/** How far the provider's clock may be from ours. */
const CLOCK_SKEW_MS = 60_000;
const SEALED_FOR = 'saml-sign-in';

/** Who the provider says signed in, as the assertion names them. */
export interface SamlIdentity {
  nameId: string;
  email: string | undefined;
  name: string | undefined;
}

/** The assertion was refused: unsigned, signed with another key, for another audience, expired, or not an answer to this browser's request. */
export class SamlRefusal extends Error {}

/** A cache of request ids that knows one: the request this browser sent. */
function onlyRequest(pending: PendingSamlSignIn | undefined): CacheProvider {
  return {
    saveAsync: async () => null,
    getAsync: async (key) => (pending && key === pending.requestId ? new Date(pending.startedAt).toISOString() : null),
    removeAsync: async () => null,
  };
}

/**
 * node-saml for one provider: this service's entity id and ACS URL are the
 * provider's service endpoints; assertions must be signed with the
 * provider's certificate, be for this service (audience), come from the
 * provider's entity id, and answer the request this browser made.
 */
function samlOf(provider: ActiveSamlProvider, publicUrl: string, cache: CacheProvider): SAML {
  const service = serviceEndpoints(publicUrl, provider.id);
  return new SAML({
    entryPoint: provider.sso_url,
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    audience: service.entityID,
    idpIssuer: provider.entity_id,
    idpCert: provider.certificate,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: PENDING_SAML_SECONDS * 1000,
    cacheProvider: cache,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => `_${randomBytes(20).toString('hex')}`,
  });
}

/** Where to send the person to sign in (the provider's SSO URL with a request), and the sealed pending sign-in. */
export async function startSamlSignIn(
  provider: ActiveSamlProvider,
  publicUrl: string,
  keyring: Keyring,
  next: string,
  now: Date,
): Promise<{ url: string; sealed: string }> {
  let requestId: string | undefined;
  const recording: CacheProvider = {
    saveAsync: async (key, value) => {
      requestId = key;
      return { value, createdAt: now.getTime() };
    },
    getAsync: async () => null,
    removeAsync: async () => null,
  };
  const url = await samlOf(provider, publicUrl, recording).getAuthorizeUrlAsync('', undefined, {});
  if (!requestId) throw new Error('node-saml made a request without an id');
  const pending: PendingSamlSignIn = { providerId: provider.id, requestId, next, startedAt: now.getTime() };
  return { url, sealed: keyring.seal(JSON.stringify(pending), SEALED_FOR) };
}

/** The pending sign-in a cookie holds for the provider, while young enough; undefined for anything else. */
export function pendingSamlSignIn(
  keyring: Keyring,
  sealed: string | undefined,
  providerId: string,
  now: Date,
): PendingSamlSignIn | undefined {
  if (!sealed) return undefined;
  try {
    const pending = JSON.parse(keyring.open(sealed, SEALED_FOR)) as PendingSamlSignIn;
    const age = now.getTime() - pending.startedAt;
    return pending.providerId === providerId && age >= 0 && age <= PENDING_SAML_SECONDS * 1000 ? pending : undefined;
  } catch {
    return undefined;
  }
}

/** The attribute names providers put an address under (Entra ID, AD FS, Okta, Google, Keycloak). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  'urn:oid:2.16.840.1.113730.3.1.241',
];
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

function firstString(profile: Profile, names: string[]): string | undefined {
  for (const name of names) {
    const value: unknown = profile[name];
    const first: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
    if (typeof first === 'string' && first.trim()) return first.trim();
  }
  return undefined;
}

/**
 * Checks the provider's answer (the posted `SAMLResponse`) to the request
 * this browser made, and reads who signed in: the name id, and the address
 * from an attribute or an e-mail name id.
 */
export async function finishSamlSignIn(
  provider: ActiveSamlProvider,
  publicUrl: string,
  pending: PendingSamlSignIn,
  samlResponse: string,
): Promise<SamlIdentity> {
  let profile: Profile | null;
  try {
    ({ profile } = await samlOf(provider, publicUrl, onlyRequest(pending)).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (error) {
    throw new SamlRefusal(error instanceof Error ? error.message : String(error));
  }
  if (!profile?.nameID) throw new SamlRefusal('the assertion names no one');
  // node-saml checks the issuer of logout messages only: the assertion must come from the provider's entity id.
  if (profile.issuer !== provider.entity_id) throw new SamlRefusal(`the assertion was issued by ${profile.issuer}`);
  const email =
    firstString(profile, EMAIL_ATTRIBUTES) ??
    (profile.nameIDFormat === EMAIL_NAME_ID || profile.nameID.includes('@') ? profile.nameID : undefined);
  return { nameId: profile.nameID, email, name: firstString(profile, NAME_ATTRIBUTES) };
}

/** This service's metadata for the provider, to load into it. */
export function serviceMetadata(provider: SamlProviderFields, publicUrl: string): string {
  const service = serviceEndpoints(publicUrl, provider.id);
  return new SAML({
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    idpCert: provider.certificate ?? 'unset',
    wantAssertionsSigned: true,
    identifierFormat: EMAIL_NAME_ID,
  }).generateServiceProviderMetadata(null);
}
