import { describe, expect, it } from 'vitest';
import { lagTolerant, perContext, type Context } from '../src/context.js';
import type { Db } from '../src/db/database.js';

// Only the objects' identity matters here: no query is made.
const primary = {} as Db;
const replica = {} as Db;
const appContext = (): Context => ({ db: primary }) as unknown as Context;

describe('what a module keeps per app', () => {
  it('is one per app, and a context made for a read that may lag (the replica) reaches its app’s', () => {
    let made = 0;
    const kept = perContext(() => ({ made: ++made }));
    const app = appContext();
    const other = appContext();

    const onReplica = lagTolerant(app, { lagTolerantDb: replica });
    expect(onReplica).not.toBe(app);
    expect(onReplica.db).toBe(replica);
    expect(kept(app)).toBe(kept(app));
    expect(kept(onReplica)).toBe(kept(app));
    expect(kept(lagTolerant(onReplica, { lagTolerantDb: primary }))).toBe(kept(app));
    expect(kept(other)).not.toBe(kept(app));
    expect(made).toBe(2);
  });

  it('is made from the app’s own context, with its database, when a copy for the replica asks first', () => {
    const kept = perContext((app) => ({ db: app.db }));
    const app = appContext();
    expect(kept(lagTolerant(app, { lagTolerantDb: replica })).db).toBe(primary);
  });
});
