import { expect } from 'vitest';
import type { TestContext } from './app.js';
import type { Account } from './factory.js';

/** An organization with its admin, an editor and a reader: who acts in the audit log's tests. */
export interface AuditSetup {
  admin: Account;
  organizationId: string;
  editor: Account;
  reader: Account;
}

/** The audit log tests' helpers on the file's app: an organization, calls as its people, and its audit rows. */
export function auditHelpers(t: TestContext) {
  async function setup(): Promise<AuditSetup> {
    const team = await t.factory.team(['edit', 'read']);
    return {
      admin: team.admin,
      organizationId: team.organization.id,
      editor: team.member('edit'),
      reader: team.member('read'),
    };
  }

  async function call(account: Account, method: string, url: string, payload?: unknown) {
    const response = await t.app.inject({
      method: method as 'GET',
      url,
      headers: account.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.body ? (JSON.parse(response.body) as never) : undefined };
  }

  /** The organization's audit rows, oldest first, straight from the table. */
  function rowsOf(organizationId: string) {
    return t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('occurred_at')
      .orderBy('id')
      .execute();
  }

  async function createSpace(s: AuditSetup, title = 'Handbook'): Promise<string> {
    const made = await call(s.admin, 'POST', `/v1/orgs/${s.organizationId}/spaces`, { title });
    expect(made.status).toBe(201);
    return (made.body as unknown as { id: string }).id;
  }

  return { setup, call, rowsOf, createSpace };
}
