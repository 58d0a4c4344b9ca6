import { X509Certificate } from 'node:crypto';
import { BadRequestError } from '../core/errors.js';

/**
 * The identity provider's certificate as PEM, checked to parse as X.509 and
 * to be valid at `now`. IdP metadata often gives the bare base64 body, so
 * that is accepted and wrapped.
 */
export function normalizeCertificate(text: string, now: Date): string {
  const trimmed = text.trim();
  const wrapped = () =>
    trimmed
      .replace(/\s+/g, '')
      .replace(/(.{64})/g, '$1\n')
      .trimEnd();
  const pem = trimmed.startsWith('-----BEGIN CERTIFICATE-----')
    ? trimmed
    : `-----BEGIN CERTIFICATE-----\n${wrapped()}\n-----END CERTIFICATE-----`;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch {
    throw new BadRequestError('body/certificate is not an X.509 certificate (PEM or base64 DER)');
  }
  if (new Date(certificate.validTo).getTime() <= now.getTime()) {
    throw new BadRequestError(`body/certificate expired on ${new Date(certificate.validTo).toISOString()}`);
  }
  if (new Date(certificate.validFrom).getTime() > now.getTime()) {
    throw new BadRequestError(`body/certificate is not valid before ${new Date(certificate.validFrom).toISOString()}`);
  }
  return certificate.toString().trim();
}
