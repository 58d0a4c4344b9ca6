import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { customPlan } from '../src/db/prepared-pool.js';
import { useTestApp } from './support/app.js';

const t = useTestApp();

describe('prepared statements', () => {
  it('keep every route working when a migration adds columns under a running instance', async () => {
    const me = await t.factory.account();
    const org = await t.factory.organization(me.user.id);
    const routes = [
      () => t.app.inject({ method: 'GET', url: `/v1/orgs/${org.id}`, headers: me.headers }),
      () => t.app.inject({ method: 'GET', url: '/v1/orgs', headers: me.headers }),
      () => t.app.inject({ method: 'PATCH', url: `/v1/orgs/${org.id}`, headers: me.headers, payload: { ai: true } }),
      () => t.app.inject({ method: 'GET', url: `/v1/users/${me.user.id}`, headers: me.headers }),
      () => t.app.inject({ method: 'POST', url: '/v1/orgs', headers: me.headers, payload: { title: 'Another' } }),
    ];
    // Twice, so that each statement is prepared on the connections before the change.
    for (let round = 0; round < 2; round++)
      for (const route of routes) expect((await route()).statusCode).toBeLessThan(300);

    await sql`ALTER TABLE organizations ADD COLUMN rolled_out_later text`.execute(t.db);
    await sql`ALTER TABLE users ADD COLUMN rolled_out_later text`.execute(t.db);
    try {
      for (const route of routes) expect((await route()).statusCode).toBeLessThan(300);
    } finally {
      await sql`ALTER TABLE organizations DROP COLUMN rolled_out_later`.execute(t.db);
      await sql`ALTER TABLE users DROP COLUMN rolled_out_later`.execute(t.db);
    }
  });

  it('are skipped for queries marked for a custom plan, which are planned for each call’s values', async () => {
    const prepared = await t.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 7; i++) {
        await tx
          .selectFrom('users')
          .select('id')
          .where('email', 'like', `%marked${i}%`)
          .modifyEnd(customPlan)
          .execute();
        await tx.selectFrom('users').select('id').where('email', 'like', `%plain${i}%`).execute();
      }
      return sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(tx);
    });
    const statements = prepared.rows.map((row) => row.statement);
    expect(
      statements.some((statement) => statement.includes('"email" like $1') && !statement.includes('custom plan')),
    ).toBe(true);
    expect(statements.some((statement) => statement.includes('custom plan'))).toBe(false);
  });

  it('drops a connection whose cached plan no longer fits, so the next query succeeds', async () => {
    const everything = () => t.db.selectFrom('service_settings').selectAll().execute();
    await everything();
    await sql`ALTER TABLE service_settings ADD COLUMN extra text`.execute(t.db);
    try {
      await expect(everything()).rejects.toMatchObject({ code: '0A000' });
      await expect(everything()).resolves.toBeInstanceOf(Array);
    } finally {
      await sql`ALTER TABLE service_settings DROP COLUMN extra`.execute(t.db);
    }
  });
});

describe('the connections of the pool', () => {
  it('run without JIT compilation, which cost more than the short queries it compiled', async () => {
    const { rows } = await sql<{ jit: string }>`show jit`.execute(t.db);
    expect(rows).toEqual([{ jit: 'off' }]);
  });
});
