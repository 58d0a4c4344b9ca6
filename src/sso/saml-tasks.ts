/**
 * The SAML pool's task, on a worker thread, never on the event loop: a
 * provider's answer parsed, its signature checked against the provider's
 * certificate (node-saml), and who signed in read from it.
 */
import type { Profile } from '@node-saml/node-saml';
import type { TaskOutcome, TaskRequest } from '../core/work-pool.js';
import { EMAIL_NAME_ID, onlyRequest, samlOf, type AssertionCheck, type SamlIdentity } from './saml-client.js';

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

function firstString(profile: Profile, names: string[]): string | undefined {
  for (const name of names) {
    const value: unknown = profile[name];
    const first: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
    if (typeof first === 'string' && first.trim()) return first.trim();
  }
  return undefined;
}

/**
 * Who signed in, from an answer signed with the provider's key, for this
 * service, from the provider's entity id, to this browser's request: the
 * name id, and the address from an attribute or an e-mail name id; or why not.
 */
async function checkAssertion({
  provider,
  publicUrl,
  pending,
  samlResponse,
}: AssertionCheck): Promise<TaskOutcome<SamlIdentity>> {
  let profile: Profile | null;
  try {
    ({ profile } = await samlOf(provider, publicUrl, onlyRequest(pending)).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (error) {
    return { ok: false, refused: error instanceof Error ? error.message : String(error) };
  }
  if (!profile?.nameID) return { ok: false, refused: 'the assertion names no one' };
  // node-saml checks the issuer of logout messages only: the assertion must come from the provider's entity id.
  if (profile.issuer !== provider.entity_id) {
    return { ok: false, refused: `the assertion was issued by ${profile.issuer}` };
  }
  const email =
    firstString(profile, EMAIL_ATTRIBUTES) ??
    (profile.nameIDFormat === EMAIL_NAME_ID || profile.nameID.includes('@') ? profile.nameID : undefined);
  return { ok: true, value: { nameId: profile.nameID, email, name: firstString(profile, NAME_ATTRIBUTES) } };
}

/** The pool's entry: it says the task started, then checks the assertion. */
export default async function run({ task, data, started }: TaskRequest): Promise<TaskOutcome<unknown>> {
  started.postMessage(null);
  started.close();
  if (task !== 'checkAssertion') throw new Error(`No task ${task} in this module`);
  return checkAssertion(data as AssertionCheck);
}
