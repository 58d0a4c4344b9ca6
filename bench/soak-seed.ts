import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { systemClock } from '../src/core/clock.js';
import { newId } from '../src/core/ids.js';
import { createSpace } from '../src/spaces/create.js';
import { createUser } from '../src/users/user-queries.js';
import { createApiToken } from '../src/users/api-token-queries.js';
import { random, seedContentSpace, type ContentShape } from './seed-content.js';

/** One organization of the soak, as the load needs to know it. */
export interface SoakTenant {
  organizationId: string;
  /** A space with pages, comments and a published site: what most reads and writes go to. */
  spaceId: string;
  /** Pages without subpages: read one at a time, and updated by the merges. */
  pageIds: string[];
  /** Comments already on the space, for the replies to answer. */
  commentIds: string[];
  siteId: string;
}

export interface SoakSeeded {
  /** `Bearer <token>` of a user who is admin of every tenant. */
  authorization: string;
  tenants: SoakTenant[];
}

/** A small documentation team's organization, and two smaller ones: the first's space has 200 pages, the others 50. */
const CONTENT_SHAPES: ContentShape[] = [
  { sections: 10, pagesPerSection: 20 },
  { sections: 5, pagesPerSection: 10 },
  { sections: 5, pagesPerSection: 10 },
];
const SPACES_PER_TENANT = 100;
const MEMBERS_PER_TENANT = 30;
const COMMENTS_PER_TENANT = 100;
/** Comments posted concurrently while seeding: the API's write path in parallel, as several reviewers would. */
const COMMENTS_AT_ONCE = 10;

type Call = <T>(method: 'GET' | 'POST', url: string, payload?: object) => Promise<T>;

function caller(app: FastifyInstance, authorization: string): Call {
  return async <T>(method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
    if (response.statusCode < 200 || response.statusCode > 299) {
      throw new Error(
        `Seeding the soak: ${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 500)}`,
      );
    }
    return response.json<T>();
  };
}

/** Users who are read members of the organization, so its member list is more than its admin. */
async function seedMembers(app: FastifyInstance, organizationId: string, tenant: number): Promise<void> {
  const users = Array.from({ length: MEMBERS_PER_TENANT }, (_, i) => ({
    id: newId(),
    email: `soak-${tenant}-${i}@example.com`,
    display_name: `Soak member ${tenant}.${i}`,
    photo_url: null,
  }));
  await app.context.db.insertInto('users').values(users).execute();
  await app.context.db
    .insertInto('organization_members')
    .values(users.map((user) => ({ organization_id: organizationId, user_id: user.id, role: 'read' as const })))
    .execute();
}

async function seedTenant(app: FastifyInstance, authorization: string, tenant: number): Promise<SoakTenant> {
  const call = caller(app, authorization);
  const organization = await call<{ id: string }>('POST', '/v1/orgs', { title: `Soak organization ${tenant}` });
  const organizationId = organization.id;
  const content = await seedContentSpace(
    app,
    authorization,
    organizationId,
    CONTENT_SHAPES[tenant % CONTENT_SHAPES.length]!,
    `Soak docs ${tenant}`,
  );
  for (let i = 0; i < SPACES_PER_TENANT; i++) {
    await createSpace(app.context.db, systemClock, {
      organizationId,
      parentId: null,
      title: `Soak space ${tenant}.${i}`,
      emoji: null,
      editMode: 'live',
      visibility: 'private',
    });
  }
  await seedMembers(app, organizationId, tenant);
  const next = random(tenant + 1);
  const commentIds: string[] = [];
  for (let first = 0; first < COMMENTS_PER_TENANT; first += COMMENTS_AT_ONCE) {
    const posted = Array.from({ length: Math.min(COMMENTS_AT_ONCE, COMMENTS_PER_TENANT - first) }, (_, k) => {
      // Most on a page, as reviews are; some on the space as a whole.
      const page = next() < 0.8 ? content.leafPageIds[Math.floor(next() * content.leafPageIds.length)] : undefined;
      return call<{ id: string }>('POST', `/v1/spaces/${content.spaceId}/comments`, {
        body: { markdown: `Seeded comment ${first + k}: should this page mention the \`v${k % 3}\` API?` },
        ...(page ? { page } : {}),
      });
    });
    for (const comment of await Promise.all(posted)) commentIds.push(comment.id);
  }
  const site = await call<{ id: string }>('POST', `/v1/orgs/${organizationId}/sites`, {
    title: `Soak site ${tenant}`,
    spaces: [content.spaceId],
  });
  await call('POST', `/v1/orgs/${organizationId}/sites/${site.id}/publish`);
  return { organizationId, spaceId: content.spaceId, pageIds: content.leafPageIds, commentIds, siteId: site.id };
}

/**
 * Three organizations of modest size, made through the API where it is cheap
 * (organizations, pages by change requests, comments, sites) and by direct
 * inserts for the bulk that the API would only slow (members, empty spaces).
 */
export async function seedSoak(app: FastifyInstance, tenants = CONTENT_SHAPES.length): Promise<SoakSeeded> {
  const user = await createUser(app.context.db, systemClock, { email: 'soak@example.com', displayName: 'Soak user' });
  const { token } = await createApiToken(app.context.db, systemClock, { userId: user.id, label: 'soak' });
  const authorization = `Bearer ${token}`;
  const seeded: SoakTenant[] = [];
  for (let tenant = 0; tenant < tenants; tenant++) seeded.push(await seedTenant(app, authorization, tenant));
  // Fresh tables have neither statistics nor a visibility map until autovacuum gets to them.
  await sql`VACUUM (ANALYZE)`.execute(app.context.db);
  return { authorization, tenants: seeded };
}
