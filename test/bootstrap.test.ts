import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bootstrapFirstStart } from '../src/bootstrap.js';
import { systemClock } from '../src/core/clock.js';
import { createTestDatabase } from './support/database.js';
import { buildOwnApp, testConfig } from './support/app.js';

const settings = { adminToken: undefined, adminEmail: 'admin@example.com', organizationTitle: 'Bootstrapped' };

async function withFreshApp(task: (app: FastifyInstance) => Promise<void>) {
  const database = await createTestDatabase();
  const app = await buildOwnApp(testConfig(database.url));
  try {
    await task(app);
  } finally {
    await app.close();
    await database.drop();
  }
}

describe('first start', () => {
  it('creates an organization, its admin and a working token, once', async () => {
    await withFreshApp(async (app) => {
      const first = await bootstrapFirstStart(app.context.db, systemClock, settings);
      expect(first).toBeDefined();
      expect(first!.token).toMatch(/^quire_[A-Za-z0-9]{40}$/);

      const user = await app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: `Bearer ${first!.token}` },
      });
      expect(user.json()).toMatchObject({ email: 'admin@example.com', displayName: 'Administrator' });
      // The operator set the address: it counts as verified.
      const row = await app.context.db.selectFrom('users').select('email_verified_at').executeTakeFirstOrThrow();
      expect(row.email_verified_at).not.toBeNull();
      const org = await app.inject({
        method: 'GET',
        url: `/v1/orgs/${first!.organizationId}`,
        headers: { authorization: `Bearer ${first!.token}` },
      });
      expect(org.json()).toMatchObject({ title: 'Bootstrapped', permissions: { admin: true } });

      expect(await bootstrapFirstStart(app.context.db, systemClock, settings)).toBeUndefined();
      expect(await app.context.db.selectFrom('users').select('id').execute()).toHaveLength(1);
      expect(await app.context.db.selectFrom('api_tokens').select('id').execute()).toHaveLength(1);
    });
  });

  it('uses BOOTSTRAP_ADMIN_TOKEN when it is set', async () => {
    await withFreshApp(async (app) => {
      const adminToken = 'operator-chosen-token-0123456789';
      const result = await bootstrapFirstStart(app.context.db, systemClock, { ...settings, adminToken });
      expect(result!.token).toBe(adminToken);
      const user = await app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(user.statusCode).toBe(200);
    });
  });

  it('bootstraps once when several instances start together', async () => {
    await withFreshApp(async (app) => {
      const results = await Promise.all(
        Array.from({ length: 4 }, () => bootstrapFirstStart(app.context.db, systemClock, settings)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await app.context.db.selectFrom('organizations').select('id').execute()).toHaveLength(1);
    });
  });
});
