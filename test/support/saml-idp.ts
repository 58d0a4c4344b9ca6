import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/** A test identity provider's signing key and certificate (self-signed, valid until 2126), and another's. */
export const IDP = {
  key: readFileSync(new URL('../fixtures/idp-signing.key', import.meta.url), 'utf8'),
  certificate: readFileSync(new URL('../fixtures/idp-signing.pem', import.meta.url), 'utf8'),
};
export const OTHER_IDP = {
  key: readFileSync(new URL('../fixtures/idp-other.key', import.meta.url), 'utf8'),
  certificate: readFileSync(new URL('../fixtures/idp-other.pem', import.meta.url), 'utf8'),
};

/** The id of the AuthnRequest a redirect to the provider carries (HTTP-Redirect binding: deflated, base64). */
export function requestIdOf(redirect: string): string {
  const request = new URL(redirect).searchParams.get('SAMLRequest');
  if (!request) throw new Error(`no SAMLRequest in ${redirect}`);
  const xml = inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
  return /\sID="([^"]+)"/.exec(xml)![1]!;
}

export interface Assertion {
  /** The provider's entity id, as its Issuer. */
  issuer: string;
  /** This service's entity id for the provider. */
  audience: string;
  /** This service's ACS URL for the provider. */
  acs: string;
  inResponseTo?: string;
  nameId: string;
  attributes?: Record<string, string>;
  /** Signs with this key (the provider's, by default); `false` leaves the assertion unsigned. */
  signer?: typeof IDP | false;
  /** When the assertion was issued; it lasts five minutes from then. */
  issuedAt?: Date;
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A SAML Response as a provider posts it (base64), its assertion signed
 * (RSA-SHA256, exclusive canonicalization) as Okta, Entra ID and Keycloak sign them.
 */
export function samlResponse(assertion: Assertion): string {
  const issued = assertion.issuedAt ?? new Date();
  const until = new Date(issued.getTime() + 5 * 60_000).toISOString();
  const instant = issued.toISOString();
  const inResponseTo = assertion.inResponseTo ? ` InResponseTo="${escape(assertion.inResponseTo)}"` : '';
  const attributes = Object.entries(assertion.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escape(name)}"><saml:AttributeValue>${escape(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${instant}" Destination="${escape(assertion.acs)}"${inResponseTo}>` +
    `<saml:Issuer>${escape(assertion.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="_${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${instant}">` +
    `<saml:Issuer>${escape(assertion.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escape(assertion.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${until}" Recipient="${escape(assertion.acs)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${instant}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${escape(assertion.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`;
  const signer = assertion.signer ?? IDP;
  if (signer === false) return Buffer.from(xml).toString('base64');
  const signature = new SignedXml({
    privateKey: signer.key,
    publicCert: signer.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  signature.computeSignature(xml, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return Buffer.from(signature.getSignedXml()).toString('base64');
}
