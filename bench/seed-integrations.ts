import type { FastifyInstance } from 'fastify';
import { publishIntegration } from '../src/integrations/actions.js';
import { ImageDecoder } from '../src/integrations/image-pool.js';
import {
  INTEGRATION_CATEGORIES,
  INTEGRATION_SCOPES,
  INTEGRATION_TARGETS,
  type PublishIntegrationBody,
} from '../src/integrations/schemas.js';
import type { Scenario } from './scenarios.js';
import type { Seeded } from './seed.js';

export const INTEGRATIONS_IN_ORGANIZATION = 1_000;
const PAGE = 50;

export interface SeededIntegrations {
  organizationId: string;
  /** The newest integration: the first item of the list. */
  newestName: string;
  /** How many of them have the category `analytics` and blocks: what the filtered list counts. */
  analyticsWithBlocks: number;
}

/** The i-th integration's definition: categories, scopes, targets, blocks and content sources spread over the set. */
function definition(i: number, organizationId: string): PublishIntegrationBody {
  const withBlocks = i % 3 === 0;
  return {
    title: `Bench integration ${i}`,
    description: `Integration number ${i} of the bench`,
    summary: `# Bench integration ${i}\n\nSeeded for the list benchmark.`,
    visibility: 'public',
    target: INTEGRATION_TARGETS[i % INTEGRATION_TARGETS.length]!,
    categories: [INTEGRATION_CATEGORIES[i % INTEGRATION_CATEGORIES.length]!],
    scopes: [
      INTEGRATION_SCOPES[i % INTEGRATION_SCOPES.length]!,
      INTEGRATION_SCOPES[(i + 5) % INTEGRATION_SCOPES.length]!,
    ],
    blocks: withBlocks
      ? [{ id: 'embed', title: 'Embed', urlUnfurl: [`https://*.service${i % 50}.example.com/*`] }]
      : [],
    contentSources: i % 4 === 0 ? [{ id: 'pages', title: 'Pages', configuration: { componentId: 'configure' } }] : [],
    externalLinks: [{ url: `https://example.com/integrations/${i}`, label: 'Website' }],
    configurations: { account: { properties: { token: { type: 'string', title: 'Token' } }, required: ['token'] } },
    secrets: { API_KEY: `bench-secret-${i}` },
    script: `export default { name: 'bench-${i}' };`,
    organization: organizationId,
  };
}

/**
 * Publishes 1,000 public integrations for the organization, through the
 * service's own action (as its admin `userId`), one after the other.
 */
export async function seedIntegrations(
  app: FastifyInstance,
  userId: string,
  organizationId: string,
): Promise<SeededIntegrations> {
  // No seeded integration has images: the decoder's threads never start.
  const images = new ImageDecoder(app.context.workPools.images);
  let analyticsWithBlocks = 0;
  for (let i = 0; i < INTEGRATIONS_IN_ORGANIZATION; i++) {
    const body = definition(i, organizationId);
    if (body.categories?.includes('analytics') && (body.blocks?.length ?? 0) > 0) analyticsWithBlocks++;
    await publishIntegration(app.context, images, userId, `bench-integration-${i}`, body);
  }
  const newest = await app.context.db
    .selectFrom('integrations')
    .select('name')
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return { organizationId, newestName: newest.name, analyticsWithBlocks };
}

const integrationsOf = (seed: Seeded) => seed.integrations;

/** A page of integrations: `size` items, each presented with its owner, and the count of all that match. */
function integrationsPage(body: unknown, size: number, count: number, firstName?: string): string | undefined {
  const page = body as { items?: Array<{ name?: string; owner?: { object?: string } }>; count?: number };
  if (page.items?.length !== size)
    return `expected ${size} integrations, got ${page.items?.length ?? 'no items array'}`;
  if (page.count !== count) return `expected a count of ${count}, got ${page.count}`;
  if (firstName !== undefined && page.items[0]?.name !== firstName) {
    return `expected ${firstName} first, got ${page.items[0]?.name}`;
  }
  return page.items.every((item) => item.owner?.object === 'organization') ? undefined : 'an item has no owner';
}

/** The first page of the 1,000 public integrations, each with its owner organization. */
export const INTEGRATIONS_SCENARIO: Scenario = {
  name: `GET /v1/integrations (first page of ${INTEGRATIONS_IN_ORGANIZATION.toLocaleString('en')})`,
  path: () => '/v1/integrations',
  headers: (seed) => ({ authorization: seed.authorization }),
  aim: 0.8,
  check: (body, seed) => integrationsPage(body, PAGE, INTEGRATIONS_IN_ORGANIZATION, integrationsOf(seed).newestName),
};

/** The same list through two filters and the owner: the array and boolean indexes at work. */
export const INTEGRATIONS_FILTERED_SCENARIO: Scenario = {
  name: 'GET /v1/integrations?owner&category&blocks',
  path: (seed) => `/v1/integrations?owner=${integrationsOf(seed).organizationId}&category=analytics&blocks=true`,
  headers: (seed) => ({ authorization: seed.authorization }),
  aim: 0.8,
  check: (body, seed) => {
    const count = integrationsOf(seed).analyticsWithBlocks;
    return integrationsPage(body, Math.min(PAGE, count), count);
  },
};
