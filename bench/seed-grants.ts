import { systemClock } from '../src/core/clock.js';
import { newId } from '../src/core/ids.js';
import type { Db } from '../src/db/database.js';
import { createUser } from '../src/users/user-queries.js';
import { createApiToken } from '../src/users/api-token-queries.js';
import type { Scenario } from './scenarios.js';
import type { Seeded } from './seed.js';

export interface SeededGrants {
  /** `Bearer <token>` of a guest of the 20,000-space organization, reaching spaces through 5 teams. */
  guestAuthorization: string;
  /** A space the guest reaches through a team's grant on the space itself. */
  grantedSpaceId: string;
  /** How many live spaces the guest reaches. */
  reached: number;
}

const TEAMS = 5;
/** Spaces granted one by one to each team after the first, which is granted the collection. */
const SPACES_PER_TEAM = 50;

/**
 * A guest in 5 teams of the big organization: the first team is granted the
 * bench collection (its 200 spaces), each other one 50 spaces of their own
 * spread over the organization. Rows go in directly, as the API would write them.
 */
export async function seedGrants(
  db: Db,
  organizationId: string,
  collectionId: string,
  collectionSpaces: number,
): Promise<SeededGrants> {
  const guest = await createUser(db, systemClock, { email: 'guest@example.com', displayName: 'Bench guest' });
  const { token } = await createApiToken(db, systemClock, { userId: guest.id, label: 'bench' });
  await db
    .insertInto('organization_members')
    .values({ organization_id: organizationId, user_id: guest.id, role: null, joined_at: new Date() })
    .execute();
  const teamIds = Array.from({ length: TEAMS }, () => newId());
  await db
    .insertInto('teams')
    .values(teamIds.map((id, i) => ({ id, organization_id: organizationId, title: `Bench team ${i}` })))
    .execute();
  await db
    .insertInto('team_members')
    .values(teamIds.map((teamId) => ({ team_id: teamId, organization_id: organizationId, user_id: guest.id })))
    .execute();
  // Every 97th top-level space, newest first: spread over the whole list.
  const spread = await db
    .selectFrom('spaces')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('parent_id', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
  const picked = spread.filter((_, i) => i % 97 === 0).slice(0, (TEAMS - 1) * SPACES_PER_TEAM);
  const grant = (teamId: string, target: { space_id: string } | { collection_id: string }) => ({
    id: newId(),
    organization_id: organizationId,
    team_id: teamId,
    role: 'read' as const,
    ...target,
  });
  await db
    .insertInto('content_grants')
    .values([
      grant(teamIds[0]!, { collection_id: collectionId }),
      ...picked.map((space, i) => grant(teamIds[1 + (i % (TEAMS - 1))]!, { space_id: space.id })),
    ])
    .execute();
  return {
    guestAuthorization: `Bearer ${token}`,
    grantedSpaceId: picked[0]!.id,
    reached: collectionSpaces + picked.length,
  };
}

/** A page of spaces as the guest sees it: full, and counting exactly what the grants reach. */
function guestPage(body: unknown, seed: Seeded): string | undefined {
  const page = body as { count?: number; items?: unknown[] };
  if (page.count !== seed.grants.reached) return `expected the guest to reach ${seed.grants.reached} spaces`;
  return page.items?.length === 50 ? undefined : 'expected a full page of 50 spaces';
}

export const GRANTS_SCENARIOS: Scenario[] = [
  {
    name: 'GET /v1/orgs/{id}/spaces (guest, 5 teams)',
    path: (seed) => `/v1/orgs/${seed.memberOrganizationIds[0]!}/spaces`,
    headers: (seed) => ({ authorization: seed.grants.guestAuthorization }),
    aim: 0.8,
    check: guestPage,
  },
  {
    name: 'GET /v1/spaces/{id} (guest, team grant)',
    path: (seed) => `/v1/spaces/${seed.grants.grantedSpaceId}`,
    headers: (seed) => ({ authorization: seed.grants.guestAuthorization }),
    aim: 0.8,
    check: (body) =>
      (body as { permissions?: { view?: boolean } }).permissions?.view === true
        ? undefined
        : 'expected the guest to read the space',
  },
];
