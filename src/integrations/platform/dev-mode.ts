import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { isPublicAddress } from '../../core/outbound.js';
import type { Context } from '../../context.js';
import { findIntegrationToManage } from '../access.js';
import { setDevelopmentTunnel, type IntegrationEndpoint } from './queries.js';
import type { DevelopmentModeBody } from './schemas.js';

const refused = (why: string) => new BadRequestError(`body/tunnelUrl ${why}`);

/**
 * The tunnel as the guarded fetcher will reach it: an absolute http(s) URL
 * without credentials, whose host resolves only to public addresses (unless
 * OUTBOUND_ALLOW_PRIVATE). The fetcher checks the address again at each
 * request, so a name that changes its answer later still reaches nothing private.
 */
async function checkTunnelUrl(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('must be an http or https URL');
  if (url.username !== '' || url.password !== '') throw refused('must not hold credentials');
  if (allowPrivate) return url.href;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw refused(`names a host that does not resolve: ${url.hostname}`);
    }
  }
  if (!addresses.every(isPublicAddress)) throw refused('resolves to a private, loopback or link-local address');
  return url.href;
}

/**
 * Development mode, as GitBook's `gitbook dev`: the integration's events and
 * UI renders go to `tunnelUrl` instead of its endpoint, for its own
 * organization's installations, or for every organization's with `all`.
 * Admins of the publishing organization set and clear it.
 */
export async function setDevelopmentMode(
  context: Context,
  callerId: string,
  integrationName: string,
  body: DevelopmentModeBody,
): Promise<void> {
  const { integration } = await findIntegrationToManage(context, callerId, integrationName, 'Setting development mode');
  const url = await checkTunnelUrl(body.tunnelUrl, context.config.outbound.allowPrivate);
  if (url.length > 256) throw refused('must NOT have more than 256 characters');
  const tunnel = { url, all: body.all ?? false };
  if (!(await setDevelopmentTunnel(context.db, integration.organization_id, integration.id, tunnel))) {
    throw new NotFoundError('No integration with this name is visible to you');
  }
}

export async function disableDevelopmentMode(
  context: Context,
  callerId: string,
  integrationName: string,
): Promise<void> {
  const { integration } = await findIntegrationToManage(
    context,
    callerId,
    integrationName,
    'Disabling development mode',
  );
  if (!(await setDevelopmentTunnel(context.db, integration.organization_id, integration.id, null))) {
    throw new NotFoundError('No integration with this name is visible to you');
  }
}

/**
 * Where a request for an installation on `organizationId` goes: the
 * development tunnel while it is set, for the publisher's own organization
 * (or every organization with `all`), else the integration's endpoint; null
 * when it has neither.
 */
export function requestUrlFor(endpoint: IntegrationEndpoint, organizationId: string): string | null {
  const developing =
    endpoint.dev_tunnel_url !== null && (endpoint.dev_all_organizations || endpoint.organization_id === organizationId);
  return developing ? endpoint.dev_tunnel_url : endpoint.endpoint_url;
}
