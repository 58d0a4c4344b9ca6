import { ConflictError, ForbiddenError, NotFoundError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { paginate, type Page } from '../core/pagination.js';
import { containsPattern } from '../core/text.js';
import type { Context } from '../context.js';
import { recordAuditEvent } from '../audit/record.js';
import type { Membership } from '../orgs/present.js';
import { findIntegrationToManage, findVisibleIntegration, isAdmin, membershipOf } from './access.js';
import { blockDomains, domainMatches } from './block-domains.js';
import { checkDefinition } from './definition.js';
import type { ImageDecoder } from './image-pool.js';
import type { DecodedImage } from './images.js';
import { presentIntegration } from './present.js';
import {
  countIntegrations,
  deleteIntegration,
  findOrganizationByIdOrSubdomain,
  findOwners,
  isAdminOfAnyOrganization,
  listIntegrations as listIntegrationRows,
  replaceAssets,
  replaceSecrets,
  upsertIntegration,
  type IntegrationFields,
  type IntegrationFilters,
  type OwnerWithCaller,
  type NewAsset,
} from './queries.js';
import type { Integration, ListIntegrationsQuery, PublishIntegrationBody } from './schemas.js';
import { claimIntegrationName, retireIntegrationName } from './retired-names.js';
import { sealSecrets } from './secrets.js';
import { checkEndpointUrl } from './events/endpoint.js';

/** Presents integrations for the caller, their owners read in one query. */
/** `read`: the rows' owners and isAdminOfAnyOrganization, where the caller read them already. */
export async function presentIntegrations(
  context: Context,
  callerId: string,
  rows: readonly IntegrationFields[],
  read?: { owners: OwnerWithCaller[]; adminsAnOrganization: boolean },
): Promise<Integration[]> {
  const [owners, admins] = read
    ? [read.owners, read.adminsAnOrganization]
    : await Promise.all([
        findOwners(context.db, [...new Set(rows.map((row) => row.organization_id))], callerId),
        isAdminOfAnyOrganization(context.db, callerId),
      ]);
  const byId = new Map(owners.map((owner) => [owner.id, owner]));
  return rows.map((row) => {
    const owner = byId.get(row.organization_id)!;
    return presentIntegration(row, owner, { owner: membershipOf(owner), adminsAnOrganization: admins }, context.urls);
  });
}

/** The list filters of a query, in the forms their indexes serve. */
export function integrationFilters(query: ListIntegrationsQuery): IntegrationFilters {
  return {
    search: query.search === undefined ? undefined : containsPattern(query.search.toLowerCase()),
    category: query.category,
    blockDomains: query.blockDomain === undefined ? undefined : domainMatches(query.blockDomain),
    blocks: query.blocks,
    contentSources: query.contentSources,
    owner: query.owner,
    scope: query.scope,
    target: query.target,
  };
}

/** A name for the list a query's filters make, in a fixed order: a cursor belongs to it, however the query spells them. */
export function integrationListName(query: ListIntegrationsQuery): string {
  const { search, category, blockDomain, blocks, contentSources, owner, scope, target } = query;
  return JSON.stringify([search, category, blockDomain, blocks, contentSources, owner, scope, target]);
}

export async function listIntegrations(
  context: Context,
  callerId: string,
  query: ListIntegrationsQuery,
): Promise<Page<Integration>> {
  const filters = integrationFilters(query);
  const page = context.cursors.request(`integrations:${integrationListName(query)}`, query);
  let read: { owners: OwnerWithCaller[]; adminsAnOrganization: boolean } | undefined;
  const rows = await paginate(context.cursors, page, {
    rows: async () => {
      const { rows: listed, ...rest } = await listIntegrationRows(context.db, page, callerId, filters);
      read = rest;
      return listed;
    },
    count: () => countIntegrations(context.db, callerId, filters),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => row,
  });
  return { ...rows, items: await presentIntegrations(context, callerId, rows.items, read) };
}

export async function getIntegration(context: Context, callerId: string, name: string): Promise<Integration> {
  const { integration } = await findVisibleIntegration(context, callerId, name);
  return (await presentIntegrations(context, callerId, [integration]))[0]!;
}

/** The organization an integration is published under: one where the caller is an admin. */
async function publishingOrganization(context: Context, callerId: string, idOrSubdomain: string): Promise<string> {
  const organization = await findOrganizationByIdOrSubdomain(context.db, idOrSubdomain, callerId);
  const membership: Membership | undefined = organization && membershipOf(organization);
  if (!organization || !membership?.isMember) {
    throw new NotFoundError('body/organization: no organization with this id or subdomain is visible to you');
  }
  if (!isAdmin(membership)) {
    throw new ForbiddenError('Publishing an integration needs the admin role in the organization');
  }
  return organization.id;
}

interface PublishedImages {
  icon: (DecodedImage & { file: string; id: string }) | undefined;
  previews: Array<DecodedImage & { file: string; id: string }>;
}

/** Every image of the publish, decoded and checked off the event loop, each under a new asset id. */
async function decodeImages(
  context: Context,
  images: ImageDecoder,
  body: PublishIntegrationBody,
): Promise<PublishedImages> {
  const maxBytes = context.config.integrations.maxImageBytes;
  const named = async (base64: string, field: string) => {
    const image = await images.decode(base64, maxBytes, field);
    const id = newId();
    return { ...image, id, file: `${id}.${image.extension}` };
  };
  const [icon, ...previews] = await Promise.all([
    body.icon === undefined ? undefined : named(body.icon, 'body/icon'),
    ...(body.previewImages ?? []).map((base64, index) => named(base64, `body/previewImages/${index}`)),
  ]);
  return { icon, previews };
}

const toAsset = (image: DecodedImage & { id: string }): NewAsset => ({
  id: image.id,
  content_type: image.contentType,
  width: image.width,
  height: image.height,
  bytes: Buffer.from(image.bytes),
  sha256: Buffer.from(image.sha256),
});

/**
 * Publishes an integration under `name` for an organization where the caller
 * is an admin: the first publish creates it (version 1); the next ones by the
 * same organization replace its definition, images and secrets and bump the
 * version. A name another organization publishes under, or once did, is a 409.
 */
export async function publishIntegration(
  context: Context,
  images: ImageDecoder,
  callerId: string,
  name: string,
  body: PublishIntegrationBody,
): Promise<Integration> {
  const organizationId = await publishingOrganization(context, callerId, body.organization);
  checkDefinition(body);
  const endpoint = body.endpoint === undefined ? null : checkEndpointUrl(context, body.endpoint, 'body/endpoint');
  const decoded = await decodeImages(context, images, body);
  const now = context.clock.now();
  const blocks = body.blocks ?? [];
  await context.db.transaction().execute(async (tx) => {
    await claimIntegrationName(tx, organizationId, name);
    const published = await upsertIntegration(tx, newId(), {
      organization_id: organizationId,
      name,
      runtime: body.runtime ?? 'v1',
      title: body.title,
      description: body.description,
      summary: body.summary ?? null,
      visibility: body.visibility ?? 'private',
      target: body.target ?? 'all',
      scopes: body.scopes ?? [],
      categories: body.categories ?? [],
      blocks: JSON.stringify(blocks),
      content_sources: JSON.stringify(body.contentSources ?? []),
      configurations: JSON.stringify(body.configurations ?? {}),
      external_links: JSON.stringify(body.externalLinks ?? []),
      content_security_policy:
        body.contentSecurityPolicy === undefined ? null : JSON.stringify(body.contentSecurityPolicy),
      block_domains: blockDomains(blocks),
      icon: decoded.icon?.file ?? null,
      preview_images: decoded.previews.map((image) => image.file),
      script: body.script,
      endpoint_url: endpoint,
      updated_at: now,
    });
    if (!published) {
      throw new ConflictError(`The integration name "${name}" is taken by another organization`);
    }
    const assets = [...(decoded.icon ? [decoded.icon] : []), ...decoded.previews].map(toAsset);
    await replaceAssets(tx, organizationId, published.id, assets);
    await replaceSecrets(
      tx,
      organizationId,
      published.id,
      sealSecrets(context.keyring, published.id, body.secrets ?? {}),
    );
    // Its secrets are replaced on every publish: their names, never their values, are recorded.
    await recordAuditEvent(tx, {
      organizationId,
      action: 'integration.published',
      actorId: callerId,
      target: { type: 'integration', id: published.id, label: name },
      at: now,
      details: { visibility: body.visibility ?? 'private', storedValueNames: Object.keys(body.secrets ?? {}) },
    });
  });
  return getIntegration(context, callerId, name);
}

/**
 * Unpublishes: the integration, its images, secrets and installations (with
 * their spaces and sites) are removed; its name stays the organization's.
 */
export async function unpublishIntegration(context: Context, callerId: string, name: string): Promise<void> {
  const { integration } = await findIntegrationToManage(context, callerId, name, 'Unpublishing an integration');
  await context.db.transaction().execute(async (tx) => {
    await retireIntegrationName(tx, integration.organization_id, integration.name, context.clock.now());
    await deleteIntegration(tx, integration.organization_id, integration.id);
    await recordAuditEvent(tx, {
      organizationId: integration.organization_id,
      action: 'integration.unpublished',
      actorId: callerId,
      target: { type: 'integration', id: integration.id, label: integration.name },
      at: context.clock.now(),
    });
  });
}
