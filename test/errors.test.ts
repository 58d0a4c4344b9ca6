import { NoResultError } from 'kysely';
import { describe, expect, it } from 'vitest';
import { toApiError } from '../src/core/errors.js';

describe('the error model', () => {
  it('answers a write that found no row of its tenant (it moved or went since the check) with 409, not 500', () => {
    const node = { kind: 'UpdateQueryNode' } as unknown as ConstructorParameters<typeof NoResultError>[0];
    const error = toApiError(new NoResultError(node));
    expect(error.statusCode).toBe(409);
    expect(error.message).toMatch(/changed while this request ran/);
  });

  it('answers a database out of reach with 503 and Retry-After, as PgBouncer says it through a restart', () => {
    const pgbouncer = Object.assign(new Error('server login has been failing, try again later (server_login_retry)'), {
      severity: 'ERROR',
      code: '08P01',
    });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), {
      severity: 'FATAL',
      code: '57P01',
    });
    for (const cause of [pgbouncer, shutdown, new Error('Connection terminated unexpectedly')]) {
      const error = toApiError(cause);
      expect(error.statusCode, cause.message).toBe(503);
      expect(error.headers?.['retry-after']).toBe('1');
    }
    const internal = Object.assign(new Error('bad'), { severity: 'ERROR', code: 'XX000' });
    expect(toApiError(internal).statusCode).toBe(500);
  });
});
