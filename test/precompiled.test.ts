import { describe, expect, it } from 'vitest';
import { pageQuery, type PageRequest } from '../src/core/pagination.js';
import { precompiled } from '../src/db/precompiled.js';
import { useTestApp } from './support/app.js';

const t = useTestApp();

const usersNamed = precompiled((db, first: string, second: string) =>
  db
    .selectFrom('users')
    .select(['email'])
    .where((eb) => eb.or([eb('display_name', '=', first), eb('display_name', '=', second)]))
    .where('email', 'like', '%@precompiled.example')
    .orderBy('email'),
);

describe('precompiled queries', () => {
  it('bind each call’s arguments where the placeholders stood, keeping constants', async () => {
    await t.factory.user({ email: 'a@precompiled.example', name: 'Ann' });
    await t.factory.user({ email: 'b@precompiled.example', name: 'Bob' });
    await t.factory.user({ email: 'c@elsewhere.example', name: 'Ann' });

    expect(await usersNamed(t.db, 'Ann', 'Bob')).toEqual([
      { email: 'a@precompiled.example' },
      { email: 'b@precompiled.example' },
    ]);
    expect(await usersNamed(t.db, 'Bob', 'Nobody')).toEqual([{ email: 'b@precompiled.example' }]);
    expect(await t.db.transaction().execute((tx) => usersNamed(tx, 'Ann', 'Ann'))).toEqual([
      { email: 'a@precompiled.example' },
    ]);
  });

  it('refuses at definition an argument that does not become a query parameter', () => {
    expect(() =>
      precompiled((db, id: string, _unused: string) => db.selectFrom('users').select('id').where('id', '=', id)),
    ).toThrow(/1 argument\(s\) did not become query parameters/);
  });
});

describe('page queries', () => {
  const usersPage = pageQuery({ createdAt: 'created_at', id: 'id' }, (db, domain: string) =>
    db.selectFrom('users').select(['id', 'created_at']).where('email', 'like', domain),
  );

  it('walk a list in either order, page by page, ties broken by id', async () => {
    const sameTime = new Date('2026-03-01T00:00:00.000Z');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.factory.user({ email: `p${i}@paged.example` })).id);
    await t.db.updateTable('users').set({ created_at: sameTime }).where('id', 'in', ids.slice(1, 4)).execute();

    const walk = async (order: 'asc' | 'desc') => {
      const seen: string[] = [];
      let after: PageRequest['after'];
      for (;;) {
        const rows = await usersPage(t.db, { list: 'users', order, limit: 2, after }, '%@paged.example');
        seen.push(...rows.slice(0, 2).map((row) => row.id));
        if (rows.length <= 2) return seen;
        after = { createdAt: rows[1]!.created_at, id: rows[1]!.id };
      }
    };
    const all = await t.db
      .selectFrom('users')
      .select(['id', 'created_at'])
      .where('email', 'like', '%@paged.example')
      .execute();
    const ascending = all
      .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1))
      .map((row) => row.id);

    expect(await walk('asc')).toEqual(ascending);
    expect(await walk('desc')).toEqual([...ascending].reverse());
  });
});
