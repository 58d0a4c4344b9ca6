import { seedIntegrations, type SeededIntegrations } from './seed-integrations.js';
import { seedSearch, type SeededSearch } from './seed-search.js';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Clock } from '../src/core/clock.js';
import { systemClock } from '../src/core/clock.js';
import { newId } from '../src/core/ids.js';
import type { NewOrganization, Role } from '../src/db/types.js';
import { createOrganization } from '../src/orgs/queries.js';
import { createUser } from '../src/users/user-queries.js';
import { createApiToken } from '../src/users/api-token-queries.js';
import { DEEP_COMMENTS_OFFSET, findCommentsPage, seedComments, type SeededComments } from './seed-comments.js';
import { BIG_SPACE, seedContentSpace, SMALL_SPACE, type SeededContentSpace } from './seed-content.js';
import { seedMembers } from './seed-members.js';
import { seedSites, type SeededSites } from './seed-sites.js';
import { seedReaderSite, type SeededReader } from './seed-reader.js';
import { seedAppSession, type SeededApp } from './seed-app.js';
import { seedSpaces, SPACES_IN_COLLECTION, type SeededSpaces } from './seed-spaces.js';
import { seedGrants, type SeededGrants } from './seed-grants.js';

export interface SeedSizes {
  /** Organizations the measured user belongs to; 50 fills exactly one default page of GET /v1/orgs. */
  memberOrganizations: number;
  /** Organizations of the typical user, who belongs to a handful as most people do. */
  typicalUserOrganizations: number;
  /** Organizations of other users, so indexes and joins work on tables of a realistic size. */
  otherOrganizations: number;
  otherUsers: number;
  /** Members of each other organization (an admin plus ordinary members). */
  membersPerOtherOrganization: number;
}

export const DEFAULT_SIZES: SeedSizes = {
  memberOrganizations: 50,
  typicalUserOrganizations: 3,
  otherOrganizations: 20_000,
  otherUsers: 2_000,
  membersPerOtherOrganization: 3,
};

/** What the scenarios need to know about the seeded data. */
export interface Seeded {
  userId: string;
  /** `Bearer <token>` of the measured user: full rights, no expiry. */
  authorization: string;
  memberOrganizationIds: string[];
  otherOrganizationIds: string[];
  /** `Bearer <token>` of a user in `typicalUserOrganizations` organizations. */
  typicalAuthorization: string;
  /** The first member organization, which holds 20,000 spaces. */
  spaces: SeededSpaces;
  /** Spaces of the second member organization with pages: 5,000 of them, and 50. */
  content: { organizationId: string; big: SeededContentSpace; small: SeededContentSpace };
  /** A space of the third member organization with 100,000 comments on it. */
  comments: SeededComments;
  /** A site of 200 site spaces in the fourth member organization; 1,000 sites in the fifth. */
  sites: SeededSites;
  /** A public site publishing both content spaces, for the reader. */
  reader: SeededReader;
  /** The measured user signed in to the app reader, and the app's addresses of the content spaces' leaf pages. */
  appReader: SeededApp;
  /** 100 spaces of 1,000 indexed pages in the sixth member organization. */
  search: SeededSearch;
  /** 1,000 public integrations published by the seventh member organization. */
  integrations: SeededIntegrations;
  /** A guest of the first member organization reaching 400 of its spaces through 5 teams. */
  grants: SeededGrants;
}

/** Creation times are spread over this window, as in real data, so keyset ordering compares distinct times. */
const SPREAD_MS = 30 * 24 * 3600 * 1000;
/** Rows per INSERT: well under PostgreSQL's 65,535 parameters per statement. */
const BATCH = 500;
const MEMBER_ROLES: Role[] = ['admin', 'edit', 'read', 'comment'];

const fixedClock = (date: Date): Clock => ({ now: () => date });

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Seeds in one transaction. The measured user, its token and its
 * organizations go through the service's own queries, so they are exactly what
 * the API would have written; the bulk of other organizations is inserted in
 * batches, since 2,000 round trips each would only slow the setup. The
 * spaces with pages come after, through the API (seed-content.ts), then the
 * comments, in batches again (seed-comments.ts).
 */
export async function seed(app: FastifyInstance, sizes: SeedSizes = DEFAULT_SIZES): Promise<Seeded> {
  const { db, cursors } = app.context;
  const start = Date.now() - SPREAD_MS;
  const at = (i: number, n: number) => new Date(start + Math.floor((SPREAD_MS * i) / n));

  const seeded = await db.transaction().execute(async (tx) => {
    const user = await createUser(tx, systemClock, { email: 'bench@example.com', displayName: 'Bench user' });
    const { token } = await createApiToken(tx, systemClock, { userId: user.id, label: 'bench' });

    const memberOrganizationIds: string[] = [];
    for (let i = 0; i < sizes.memberOrganizations; i++) {
      const clock = fixedClock(at(i, sizes.memberOrganizations));
      const organization = await createOrganization(tx, clock, { title: `Bench organization ${i}` }, user.id);
      memberOrganizationIds.push(organization.id);
    }

    const otherUserIds: string[] = [];
    for (let i = 0; i < sizes.otherUsers; i++) {
      const other = await createUser(tx, systemClock, {
        email: `other-${i}@example.com`,
        displayName: `Other user ${i}`,
      });
      otherUserIds.push(other.id);
    }

    const typical = await createUser(tx, systemClock, { email: 'typical@example.com', displayName: 'Typical user' });
    const { token: typicalToken } = await createApiToken(tx, systemClock, { userId: typical.id, label: 'bench' });

    const organizations: NewOrganization[] = [];
    const members: Array<{ organization_id: string; user_id: string; role: Role; joined_at: Date }> = [];
    for (let i = 0; i < sizes.otherOrganizations; i++) {
      const createdAt = at(i, sizes.otherOrganizations);
      const id = newId();
      organizations.push({
        id,
        title: `Organization ${i}`,
        default_role: 'read',
        created_at: createdAt,
        updated_at: createdAt,
      });
      for (let m = 0; m < Math.min(sizes.membersPerOtherOrganization, otherUserIds.length); m++) {
        members.push({
          organization_id: id,
          user_id: otherUserIds[(i + m) % otherUserIds.length]!,
          role: MEMBER_ROLES[m % MEMBER_ROLES.length]!,
          joined_at: createdAt,
        });
      }
    }
    for (const organization of organizations.slice(-sizes.typicalUserOrganizations)) {
      members.push({
        organization_id: organization.id,
        user_id: typical.id,
        role: 'edit',
        joined_at: organization.created_at!,
      });
    }
    for (const batch of chunks(organizations, BATCH)) await tx.insertInto('organizations').values(batch).execute();
    for (const batch of chunks(members, BATCH)) await tx.insertInto('organization_members').values(batch).execute();

    return {
      userId: user.id,
      authorization: `Bearer ${token}`,
      memberOrganizationIds,
      otherOrganizationIds: organizations.map((organization) => organization.id),
      typicalAuthorization: `Bearer ${typicalToken}`,
    };
  });

  const spaces = await seedSpaces(db, seeded.memberOrganizationIds[0]!, cursors);
  await seedMembers(db, seeded.memberOrganizationIds[0]!);
  const grants = await seedGrants(db, seeded.memberOrganizationIds[0]!, spaces.collectionId, SPACES_IN_COLLECTION);
  // Pages go through the API, as the measured user, once the transaction above has made that user real.
  const contentOrganization = seeded.memberOrganizationIds[1]!;
  const big = await seedContentSpace(
    app,
    seeded.authorization,
    contentOrganization,
    BIG_SPACE,
    'Bench docs (5,000 pages)',
  );
  const small = await seedContentSpace(
    app,
    seeded.authorization,
    contentOrganization,
    SMALL_SPACE,
    'Bench docs (50 pages)',
  );
  const reader = await seedReaderSite(app, seeded.authorization, contentOrganization, big, small);
  const appReader = await seedAppSession(app, seeded.authorization, contentOrganization, big, small);
  const comments = await seedComments(app, seeded.authorization, seeded.memberOrganizationIds[2]!);
  const sites = await seedSites(
    app,
    seeded.authorization,
    seeded.memberOrganizationIds[3]!,
    seeded.memberOrganizationIds[4]!,
  );

  const search = await seedSearch(app, seeded.authorization, seeded.memberOrganizationIds[5]!);
  const integrations = await seedIntegrations(app, seeded.userId, seeded.memberOrganizationIds[6]!);

  // Fresh tables have neither statistics nor a visibility map until
  // autovacuum gets to them, which it does after a bulk load within minutes:
  // without them the planner may pick plans that production would not, and
  // every index-only scan (a count, say) reads the table's pages as well.
  await sql`VACUUM (ANALYZE)`.execute(db);
  // Walked after VACUUM, so the 90 requests get the plans the scenarios will.
  const deepPage = await findCommentsPage(app, seeded.authorization, comments.spaceId, DEEP_COMMENTS_OFFSET);
  return {
    ...seeded,
    spaces,
    content: { organizationId: contentOrganization, big, small },
    comments: { ...comments, deepPage },
    sites,
    reader,
    appReader,
    search,
    integrations,
    grants,
  };
}
