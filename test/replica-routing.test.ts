import { describe, expect, it } from 'vitest';
import { lsnValue, readsReplica, replicaLagMs } from '../src/db/replica.js';

describe('reads that may lag', () => {
  it('reads a WAL position as the byte offset it names', () => {
    expect(lsnValue('0/0')).toBe(0);
    expect(lsnValue('0/30FB2F8')).toBe(0x30fb2f8);
    expect(lsnValue('16/B374D848')).toBe(0x16 * 2 ** 32 + 0xb374d848);
    expect(lsnValue('1/0')).toBeGreaterThan(lsnValue('0/FFFFFFFF'));
  });

  const samples = [
    { at: 1_000, lsn: 100 },
    { at: 1_010, lsn: 200 },
    { at: 1_020, lsn: 300 },
  ];

  it('takes a replica that replayed the newest position read of the primary as not behind', () => {
    expect(replicaLagMs(samples, 300, 5_000)).toBe(0);
    // The primary away: no newer position is read, and the replica serves what there is.
    expect(replicaLagMs(samples, 350, 60_000)).toBe(0);
  });

  it('takes a replica as behind since the oldest position it has not replayed', () => {
    expect(replicaLagMs(samples, 250, 1_100)).toBe(80);
    expect(replicaLagMs(samples, 150, 1_100)).toBe(90);
    expect(replicaLagMs(samples, 50, 1_100)).toBe(100);
  });

  it('knows no lag before the first position of the primary is read', () => {
    expect(replicaLagMs([], 100, 1_000)).toBeNull();
  });

  it('sends a caller with a kept write to the replica only once it has replayed it, however small its lag', () => {
    expect(readsReplica({ lagMs: 5, maxLagMs: 1_000, replayed: 199, callerPosition: 200 })).toBe(false);
    expect(readsReplica({ lagMs: 5, maxLagMs: 1_000, replayed: 200, callerPosition: 200 })).toBe(true);
  });

  it("keeps a caller off a replica lagging beyond the bound, though it replayed the caller's write", () => {
    // What others wrote since (a membership removed, a grant revoked) must show within the bound.
    expect(readsReplica({ lagMs: 5_000, maxLagMs: 1_000, replayed: 300, callerPosition: 200 })).toBe(false);
  });

  it('sends a visitor, or a caller without a recent write, to the replica within the lag bound only', () => {
    expect(readsReplica({ lagMs: 1_000, maxLagMs: 1_000, replayed: 0, callerPosition: null })).toBe(true);
    expect(readsReplica({ lagMs: 1_001, maxLagMs: 1_000, replayed: 0, callerPosition: null })).toBe(false);
  });

  it('sends every read to the primary while the replica is not heard from', () => {
    expect(readsReplica({ lagMs: null, maxLagMs: 1_000, replayed: 500, callerPosition: 200 })).toBe(false);
    expect(readsReplica({ lagMs: null, maxLagMs: 1_000, replayed: 500, callerPosition: null })).toBe(false);
  });
});
