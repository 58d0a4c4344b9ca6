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
});
