import type { Db } from '../../src/db/database.js';
import type { OrganizationRow, Role, UserRow } from '../../src/db/types.js';
import { systemClock } from '../../src/core/clock.js';
import { randomString } from '../../src/core/ids.js';
import { createOrganization, type NewOrganizationInput } from '../../src/orgs/queries.js';
import { createUser } from '../../src/users/user-queries.js';
import { createApiToken } from '../../src/users/api-token-queries.js';

export interface Account {
  user: UserRow;
  token: string;
  tokenId: string;
  /** Headers for app.inject. */
  headers: { authorization: string };
}

/** Makes users, tokens and organizations straight in the database, through the service's own queries. */
export class Factory {
  constructor(private readonly db: Db) {}

  /** `verified`: whether the address counts as proven, as the operator's or an accepted invitee's does. */
  async user(fields: { email?: string; name?: string; verified?: boolean } = {}): Promise<UserRow> {
    const handle = randomString(8).toLowerCase();
    return createUser(this.db, systemClock, {
      email: fields.email ?? `${handle}@example.com`,
      displayName: fields.name ?? `User ${handle}`,
      emailVerified: fields.verified ?? false,
    });
  }

  async account(
    fields: { email?: string; name?: string; verified?: boolean; scopes?: string[]; expiresAt?: Date } = {},
  ): Promise<Account> {
    const user = await this.user(fields);
    const { id, token } = await createApiToken(this.db, systemClock, {
      userId: user.id,
      scopes: fields.scopes ?? null,
      expiresAt: fields.expiresAt ?? null,
    });
    return { user, token, tokenId: id, headers: { authorization: `Bearer ${token}` } };
  }

  async token(userId: string, fields: { scopes?: string[]; expiresAt?: Date } = {}): Promise<Account> {
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    const { id, token } = await createApiToken(this.db, systemClock, {
      userId,
      scopes: fields.scopes ?? null,
      expiresAt: fields.expiresAt ?? null,
    });
    return { user, token, tokenId: id, headers: { authorization: `Bearer ${token}` } };
  }

  async organization(
    adminUserId: string,
    fields: Partial<NewOrganizationInput> = {},
  ): Promise<Omit<OrganizationRow, 'live_spaces_count' | 'members_count'>> {
    return this.db
      .transaction()
      .execute((tx) =>
        createOrganization(tx, systemClock, { title: `Org ${randomString(6)}`, ...fields }, adminUserId),
      );
  }

  /** An organization with its admin and one member for each of `roles` (null: a guest). */
  async team(roles: Array<Role | null> = []) {
    const admin = await this.account();
    const organization = await this.organization(admin.user.id);
    const members = new Map<Role | null, Account>();
    for (const role of roles) {
      const member = await this.account();
      await this.member(organization.id, member.user.id, role);
      members.set(role, member);
    }
    return {
      admin,
      organization,
      member: (role: Role | null): Account => {
        const member = members.get(role);
        if (!member) throw new Error(`This team has no ${role ?? 'guest'} member`);
        return member;
      },
    };
  }

  async member(
    organizationId: string,
    userId: string,
    role: Role | null,
    fields: { disabled?: boolean } = {},
  ): Promise<void> {
    await this.db
      .insertInto('organization_members')
      .values({
        organization_id: organizationId,
        user_id: userId,
        role,
        disabled: fields.disabled ?? false,
        joined_at: new Date(),
      })
      .execute();
  }
}
