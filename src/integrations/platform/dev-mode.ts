import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { isPublicAddress } from '../../core/outbound.js';
import type { Context } from '../../context.js';
import { findIntegrationToManage } from '../access.js';
import { checkEndpointUrl } from '../events/endpoint.js';
import { setDevelopmentTunnel, type IntegrationEndpoint } from './queries.js';
import type { DevelopmentModeBody } from './schemas.js';

const FIELD = 'body/tunnelUrl';

/**
 * The tunnel as the guarded fetcher will reach it: an endpoint URL as an
 * integration's (checkEndpointUrl: https, no credentials, no literal private
 * address), whose host name also resolves only to public addresses, unless
 * OUTBOUND_ALLOW_PRIVATE. The fetcher checks the address again at each
 * request, so a name that changes its answer later still reaches nothing private.
 */
async function checkTunnelUrl(context: Context, raw: string): Promise<string> {
  const href = checkEndpointUrl(context, raw, FIELD);
  if (href.length > 256) throw new BadRequestError(`${FIELD} must NOT have more than 256 characters`);
  if (context.config.outbound.allowPrivate) return href;
  const host = new URL(href).hostname;
  if (isIP(host.replace(/^\[(.*)\]$/, '$1')) !== 0) return href;
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw new BadRequestError(`${FIELD} names a host that does not resolve: ${host}`);
  }
  if (!addresses.every(isPublicAddress)) {
    throw new BadRequestError(`${FIELD} resolves to a private address, which this service does not send to`);
  }
  return href;
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
  const tunnel = { url: await checkTunnelUrl(context, body.tunnelUrl), all: body.all ?? false };
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
