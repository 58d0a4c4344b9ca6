import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { ApiError } from '../core/api-errors.js';
import type { Keyring } from '../core/keyring.js';
import {
  poolLikeConversions,
  taskModuleBeside,
  type ConversionSettings,
  type WorkPool,
  type WorkPoolOptions,
} from '../core/work-pool.js';
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
const WORKER_MODULE = taskModuleBeside(import.meta.url, 'saml-tasks');

/** The name id format of an address, which this service asks providers for. */
export const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Who the provider says signed in, as the assertion names them. */
export interface SamlIdentity {
  nameId: string;
  email: string | undefined;
  name: string | undefined;
}

/** The assertion was refused: unsigned, signed with another key, for another audience, expired, or not an answer to this browser's request. */
export class SamlRefusal extends Error {}

/** A cache of request ids that knows one: the request this browser sent. */
export function onlyRequest(pending: PendingSamlSignIn | undefined): CacheProvider {
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
export function samlOf(
  provider: Pick<ActiveSamlProvider, 'id' | 'sso_url' | 'entity_id' | 'certificate'>,
  publicUrl: string,
  cache: CacheProvider,
): SAML {
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

/** Time an assertion's check is given beyond CONVERSION_TIMEOUT_MS for each KiB: canonicalising XML to check a signature costs more than parsing markdown. */
const MS_PER_KIB = 4;

/** The pool assertions are checked on, built once by the app: the conversions' threads, deadline and wait. */
export function samlAssertionPool(
  conversion: ConversionSettings,
  onThreadError: (error: unknown) => void,
): WorkPoolOptions {
  return poolLikeConversions(WORKER_MODULE, conversion, { msPerKib: MS_PER_KIB, queuePerThread: 8 }, onThreadError);
}

/** What a thread is given to check an assertion: plain data, as a thread takes it. */
export interface AssertionCheck {
  provider: Pick<ActiveSamlProvider, 'id' | 'sso_url' | 'entity_id' | 'certificate'>;
  publicUrl: string;
  pending: PendingSamlSignIn;
  samlResponse: string;
}

/**
 * Checks the provider's answer (the posted `SAMLResponse`) to the request
 * this browser made, and reads who signed in (saml-tasks.ts). XML parsing
 * and the signature check run on the pool within a deadline, never on the
 * event loop: an answer refused there, or stopped past its deadline, is a
 * SamlRefusal.
 */
export async function finishSamlSignIn(
  pool: WorkPool,
  provider: ActiveSamlProvider,
  publicUrl: string,
  pending: PendingSamlSignIn,
  samlResponse: string,
): Promise<SamlIdentity> {
  const { id, sso_url, entity_id, certificate } = provider;
  const check: AssertionCheck = { provider: { id, sso_url, entity_id, certificate }, publicUrl, pending, samlResponse };
  try {
    return await pool.run<SamlIdentity>('checkAssertion', check, {
      field: 'The SAML response',
      characters: samlResponse.length,
    });
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) throw new SamlRefusal(error.message);
    throw error;
  }
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
