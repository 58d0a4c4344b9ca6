import { newId } from '../src/core/ids.js';
import type { Db } from '../src/db/database.js';

export const MEMBERS_IN_BIG_ORGANIZATION = 50_000;
const BATCH = 1_000;

/** A search that matches a handful of the seeded members: member4242 and member42420 to member42429. */
export const MEMBER_SEARCH = 'member4242';
export const MEMBER_SEARCH_MATCHES = 11;

/** Gives an organization 50,000 members, each a user of their own, in batched inserts. */
export async function seedMembers(db: Db, organizationId: string): Promise<void> {
  const start = Date.now() - 365 * 86_400_000;
  for (let first = 0; first < MEMBERS_IN_BIG_ORGANIZATION; first += BATCH) {
    const users = Array.from({ length: Math.min(BATCH, MEMBERS_IN_BIG_ORGANIZATION - first) }, (_, k) => {
      const i = first + k;
      const at = new Date(start + i * 500);
      return {
        id: newId(),
        email: `member${i}@bench.example`,
        display_name: `Bench Member ${i}`,
        photo_url: null,
        created_at: at,
        updated_at: at,
      };
    });
    await db.insertInto('users').values(users).execute();
    await db
      .insertInto('organization_members')
      .values(
        users.map((user) => ({
          organization_id: organizationId,
          user_id: user.id,
          role: 'read' as const,
          joined_at: user.created_at,
        })),
      )
      .execute();
  }
}
