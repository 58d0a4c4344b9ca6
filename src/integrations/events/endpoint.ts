import { isIP } from 'node:net';
import { BadRequestError } from '../../core/errors.js';
import { isPublicAddress } from '../../core/outbound.js';
import type { Context } from '../../context.js';

/**
 * Checks a URL events are to be sent to, when it is given: https (http only
 * where the operator lets the service reach private addresses, as on a
 * developer's machine), no credentials, and no literal private address. The
 * guarded fetcher checks the resolved address again at each delivery.
 */
export function checkEndpointUrl(context: Context, raw: string, field: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequestError(`${field} must be an absolute https URL`);
  }
  const allowPrivate = context.config.outbound.allowPrivate;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) {
    throw new BadRequestError(`${field} must be an https URL`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new BadRequestError(`${field} must not contain credentials`);
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new BadRequestError(`${field} names a private address, which this service does not send to`);
  }
  url.hash = '';
  return url.href;
}
