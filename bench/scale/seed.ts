/**
 * Seeds ONE organization at the issue's size: 1,000,000 pages in 1,000
 * spaces (one of 10,000 pages) and 200,000 members.
 *
 * How the rows stay exactly what the service stores:
 * - the admin, their token, the organization and one prototype space of 200
 *   pages go through the service itself (its queries, then its API: a change
 *   request written and merged), so their documents (markdown, JSON document,
 *   outline, links, language) are what its converter made;
 * - every other space is a space written once by an import into it
 *   (writeSpaceContent in src/change-requests/changes/write.ts): its initial
 *   revision (seq 0, as createSpace makes it), one `update` revision (seq 1) by
 *   the admin, and for each page a document (a copy of a prototype's), a page
 *   version and an entry of the space's line from seq 1, with the tree, titles,
 *   slugs and positions the API gives pages inserted in that order;
 * - the search index of those spaces is made by the service's own
 *   reindexPages (src/search/indexing.ts), space by space;
 * - counters and clocks (live_spaces_count, members_count, organization and
 *   roster ticks) are kept by the tables' own triggers: every bulk insert is
 *   one INSERT ... SELECT, so each statement-level trigger runs once over all
 *   its rows, and the few row-level ones (a space's live counts, a new
 *   member's tokens elsewhere) once a row. No team or grant exists, so
 *   team_reach stays empty, as its triggers would leave it.
 *
 * The rows are generated inside PostgreSQL (generate_series over the
 * prototypes), not sent with COPY: pg-copy-streams is not a dependency, and
 * rows made where they are stored cross no socket at all; 1,000,000
 * documents sent through COPY would be gigabytes of text over the wire.
 * Secondary indexes of the tables loaded in bulk are dropped for the load and
 * made again afterwards from their own definitions (pg_get_indexdef).
 */
import type { FastifyInstance } from 'fastify';
import { generateNKeysBetween } from 'fractional-indexing';
import { sql } from 'kysely';
import pg from 'pg';
import { systemClock } from '../../src/core/clock.js';
import { newId, randomString } from '../../src/core/ids.js';
import { slugify } from '../../src/core/slug.js';
import { createOrganization } from '../../src/orgs/queries.js';
import { reindexPages } from '../../src/search/indexing.js';
import { createSpace } from '../../src/spaces/create.js';
import { createApiToken } from '../../src/users/api-token-queries.js';
import { createUser } from '../../src/users/user-queries.js';
import { random } from '../seed-content.js';
import {
  FIRST_NAMES,
  LAST_NAMES,
  NOUNS,
  parentIndex,
  SQL_PLAN,
  TERMS,
  titleOf,
  TOPICS,
  VERBS,
  type ScaleSizes,
} from './plan.js';

export interface ScaleSeeded {
  organizationId: string;
  userId: string;
  authorization: string;
  /** The space of `bigSpacePages` pages. */
  bigSpaceId: string;
  /** An ordinary seeded space (about 990 pages), for its search. */
  spaceId: string;
  /** The prototype space, written through the API. */
  prototypeSpaceId: string;
  /** Seconds each step took. */
  timings: Record<string, number>;
  /** Bytes of the database after the seed. */
  databaseBytes: number;
}

const log = (message: string) => process.stderr.write(`[scale] ${message}\n`);

const WORDS = (
  'the a service request response page space content revision change merge token member role team organization api ' +
  'client server returns creates updates deletes lists reads writes keeps stores sends checks limits caches validates ' +
  'when each every only first new old current previous default custom public private shared cursor field value header ' +
  'status error retry timeout window markdown document section heading link list table code block example option'
).split(' ');

function sentence(next: () => number, words: number): string {
  const text = Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** A docs page of about 700 characters: three sections, a list with an external link, a code block; TERMS[k % 50] in its overview. */
export function prototypeMarkdown(k: number): string {
  const next = random(k * 7919 + 17);
  const term = TERMS[k % TERMS.length]!;
  const slug = titleOf(k)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return [
    `${sentence(next, 12)} ${sentence(next, 9)}`,
    '## Overview',
    `${sentence(next, 10)} It works with ${term} as well. ${sentence(next, 8)}`,
    [
      `- ${sentence(next, 6)}`,
      `- Read [the reference](https://docs.example.com/reference/${slug}) for every field.`,
      `- ${sentence(next, 7)}`,
    ].join('\n'),
    '## Example',
    ['```ts', `const response = await fetch('https://api.example.com/v1/${slug}');`, '```'].join('\n'),
    '## Limits',
    `${sentence(next, 11)} ${sentence(next, 9)}`,
  ].join('\n\n');
}

async function timed<T>(timings: Record<string, number>, name: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  log(`${name}…`);
  const value = await step();
  timings[name] = Math.round((performance.now() - started) / 100) / 10;
  log(`${name}: ${timings[name]} s`);
  return value;
}

/** Runs `work` over 0..count-1 on `connections` at once. */
async function inParallel(count: number, connections: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** A 20-character id of [A-Za-z0-9], made in SQL from its key: pages, documents and users made in bulk. */
const CREATE_ID_FUNCTION = `
  create or replace function pg_temp.scale_id(key text) returns text language sql immutable as
  $$ select substr(translate(encode(decode(md5(key), 'hex') || decode(md5(key || '.'), 'hex'), 'base64'), '+/=', 'AbC'), 1, 20) $$`;

const LOADED_TABLES = [
  'users',
  'organization_members',
  'documents',
  'page_versions',
  'tree_entries',
  'search_sections',
];

/** The loaded tables' indexes that no constraint owns: dropped for the load, made again after it. */
async function secondaryIndexes(client: pg.PoolClient): Promise<Array<{ name: string; definition: string }>> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as definition
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
     where t.relname = any($1) and t.relnamespace = 'public'::regnamespace
       and not exists (select 1 from pg_constraint c where c.conindid = i.oid)`,
    [LOADED_TABLES],
  );
  return rows;
}

/** Writes the prototype space's pages through the API: a change request, 50 pages a write, merged. */
async function writePrototype(app: FastifyInstance, authorization: string, spaceId: string, pages: number) {
  const post = async (url: string, payload: object) => {
    const response = await app.inject({ method: 'POST', url, headers: { authorization }, payload });
    if (response.statusCode !== 200 && response.statusCode !== 201)
      throw new Error(`POST ${url} answered ${response.statusCode}: ${response.body.slice(0, 500)}`);
    return response.json();
  };
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const { id: changeRequestId } = (await post(base, { subject: 'Prototype pages' })) as { id: string };
  const ids = new Map<number, string>();
  for (let first = 0; first < pages; first += 50) {
    const changes = Array.from({ length: Math.min(50, pages - first) }, (_, i) => {
      const j = first + i;
      const parent = parentIndex(j);
      return {
        operation: 'insert_page',
        ref: `p${j}`,
        title: titleOf(j),
        ...(parent === null ? {} : { into: ids.get(parent) ?? `p${parent}` }),
        document: { markdown: prototypeMarkdown(j) },
      };
    });
    const written = (await post(`${base}/${changeRequestId}/content?compat=false`, { changes })) as {
      changes: Array<{ page: { id: string }; ref?: string }>;
    };
    for (const change of written.changes) if (change.ref) ids.set(Number(change.ref.slice(1)), change.page.id);
  }
  const merged = (await post(`${base}/${changeRequestId}/merge`, {})) as { result: string };
  if (merged.result !== 'merge') throw new Error(`The prototype change request did not merge: ${merged.result}`);
}

/**
 * Seeds the organization into the (migrated, empty) database that `app` runs
 * on, using `pool` for the bulk statements.
 */
export async function seedScale(
  app: FastifyInstance,
  pool: pg.Pool,
  sizes: ScaleSizes,
  connections = 2,
): Promise<ScaleSeeded> {
  const { db } = app.context;
  const timings: Record<string, number> = {};
  const importAt = new Date(Date.now() - 86_400_000);
  const spread = 2 * 365 * 86_400_000;
  const start = new Date(importAt.getTime() - spread);

  // Through the service: the admin and their token, the organization, the prototype space and its pages.
  const { user, token, organization, prototype } = await timed(timings, 'prototype through the API', async () => {
    const user = await createUser(db, systemClock, { email: 'scale-admin@scale.example', displayName: 'Scale admin' });
    const { token } = await createApiToken(db, systemClock, { userId: user.id, label: 'scale bench' });
    const organization = await createOrganization(db, systemClock, { title: 'Scale organization' }, user.id);
    const prototype = await createSpace(db, systemClock, {
      organizationId: organization.id,
      parentId: null,
      title: 'Prototype pages',
      emoji: null,
      editMode: 'live',
      visibility: 'private',
    });
    await writePrototype(app, `Bearer ${token}`, prototype.id, sizes.prototypePages);
    return { user, token, organization, prototype };
  });
  const organizationId = organization.id;

  const setup = await pool.connect();
  let indexes: Array<{ name: string; definition: string }> = [];
  try {
    await setup.query(`
      create unlogged table scale_prototypes as
        select (row_number() over (order by pv.page_created_at, pv.position, pv.id) - 1)::integer as k,
          d.markdown, d.document, d.outline, d.links, d.language
        from page_versions pv join documents d on d.id = pv.document_id
        where pv.space_id = '${prototype.id}'`);
    await setup.query('create unique index on scale_prototypes (k)');

    // The seeded spaces: the big one first, then the others sharing what pages are left.
    const others = sizes.spaces - 2;
    const left = sizes.pages - sizes.prototypePages - sizes.bigSpacePages;
    const pagesOf = (s: number) =>
      s === 0 ? sizes.bigSpacePages : Math.floor(left / others) + (s - 1 < left % others ? 1 : 0);
    const { rows: placed } = await setup.query<{ position: string }>('select position from spaces where id = $1', [
      prototype.id,
    ]);
    const positions = generateNKeysBetween(placed[0]!.position, null, sizes.spaces - 1);
    const spaces = Array.from({ length: sizes.spaces - 1 }, (_, s) => ({
      s,
      id: newId(),
      title: s === 0 ? `Handbook (${sizes.bigSpacePages.toLocaleString('en')} pages)` : `Space ${s}`,
      pages: pagesOf(s),
      initialRevision: newId(),
      revision: newId(),
      shareKey: randomString(32),
      position: positions[s]!,
      createdAt: new Date(start.getTime() + Math.floor((spread * (s + 1)) / sizes.spaces)),
    }));
    await setup.query(`
      create unlogged table scale_spaces (s integer primary key, id text not null, title text not null,
        pages integer not null, initial_revision text not null, revision text not null, share_key text not null,
        position text not null collate "C", created_at timestamptz not null)`);
    await setup.query(
      `insert into scale_spaces select * from json_to_recordset($1::json) as r(s integer, id text, title text,
        pages integer, "initialRevision" text, revision text, "shareKey" text, position text, "createdAt" timestamptz)`,
      [JSON.stringify(spaces)],
    );

    indexes = await secondaryIndexes(setup);
    for (const index of indexes) await setup.query(`drop index ${index.name}`);

    await timed(timings, 'members (users and memberships)', async () => {
      await setup.query(CREATE_ID_FUNCTION);
      // As createUser writes a user, and an accepted invite a membership: the admin is member 0.
      await setup.query(
        `insert into users (id, email, display_name, photo_url, created_at, updated_at, email_verified_at)
         select pg_temp.scale_id('user.' || i), f || '.' || l || '.' || i || '@scale.example',
           initcap(f) || ' ' || initcap(l), null, t, t, null
         from generate_series(1, $1::integer - 1) i,
           lateral (select ($2::text[])[1 + i % array_length($2, 1)] as f,
             ($3::text[])[1 + (i / array_length($2, 1)) % array_length($3, 1)] as l,
             date_trunc('milliseconds', $4::timestamptz + (i * $5::bigint / $1::integer) * interval '1 millisecond') as t) x`,
        [sizes.members, FIRST_NAMES, LAST_NAMES, start, spread],
      );
      // One in a hundred an admin, a tenth editors, a tenth commenters, two in a hundred guests, the rest readers;
      // three in five seen lately.
      await setup.query(
        `insert into organization_members (organization_id, user_id, role, disabled, sso, joined_at, last_seen_at)
         select $1, u.id,
           case when n % 100 = 0 then 'admin' when n % 100 < 11 then 'edit' when n % 100 < 21 then 'comment'
             when n % 100 < 23 then null else 'read' end,
           false, false, u.created_at,
           case when n % 5 < 3 then date_trunc('milliseconds', $2::timestamptz - (n % 997) * interval '1 hour') end
         from (select id, created_at, row_number() over (order by created_at, id) as n from users
           where email like '%@scale.example' and id <> $3) u`,
        [organizationId, importAt, user.id],
      );
    });

    await timed(timings, 'spaces and revisions', async () => {
      // As createSpace and then an import (writeSpaceContent) leave a space: at its import's revision.
      await setup.query(
        `insert into spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, share_key,
           revision_id, position, created_at, updated_at)
         select id, $1, null, title, null, 'private', 'live', share_key, revision, position, created_at, $2
         from scale_spaces order by s`,
        [organizationId, importAt],
      );
      await setup.query(
        `insert into revisions (id, organization_id, space_id, change_request_id, seq, base_seq, type, parents,
           variables, merged_from, created_by, created_at)
         select initial_revision, $1, id, null::text, 0, null::integer, 'edits', '{}'::text[], '{}'::jsonb, null::text,
           null::text, created_at from scale_spaces
         union all
         select revision, $1, id, null, 1, null, 'update', array[initial_revision], '{}', null, $2, $3 from scale_spaces`,
        [organizationId, user.id, importAt],
      );
    });

    const pageKeys = generateNKeysBetween(null, null, Math.max(100, Math.ceil(sizes.bigSpacePages / 100)));
    const chunks: Array<[number, number]> = [];
    for (let s = 0; s < spaces.length;) {
      // About 20,000 pages a statement.
      let last = s;
      let pages = spaces[s]!.pages;
      while (last + 1 < spaces.length && pages + spaces[last + 1]!.pages <= 20_000) pages += spaces[++last]!.pages;
      chunks.push([s, last]);
      s = last + 1;
    }
    const id = (kind: string, j: string) => `pg_temp.scale_id('${kind}.' || sp.id || '.' || ${j})`;
    const parent = SQL_PLAN.parent('j');
    await timed(timings, `pages (documents, page versions, tree entries) in ${chunks.length} statements`, () =>
      inParallel(chunks.length, connections, async (c) => {
        const [first, last] = chunks[c]!;
        const client = await pool.connect();
        try {
          await client.query(CREATE_ID_FUNCTION);
          const pages = `from scale_spaces sp cross join lateral generate_series(0, sp.pages - 1) j
            where sp.s between ${first} and ${last}`;
          await client.query(
            `insert into documents (id, organization_id, space_id, markdown, created_at, document, outline, links, language)
             select ${id('document', 'j')}, $1, sp.id, p.markdown, $2, p.document, p.outline, p.links, p.language
             ${pages.replace('where', `join scale_prototypes p on p.k = j % ${sizes.prototypePages} where`)}`,
            [organizationId, importAt],
          );
          await client.query(
            `insert into page_versions (id, organization_id, space_id, page_id, parent_page_id, position, type, title,
               slug, emoji, icon, description, document_id, layout, cover, variables, hidden, no_index, no_robots_index,
               target, href, computed, page_created_at, created_at)
             select ${id('version', 'j')}, $1, sp.id, ${id('page', 'j')},
               case when (${parent}) is not null then ${id('page', `(${parent})`)} end,
               ($3::text[])[1 + (${SQL_PLAN.sibling('j')})], 'document', t.title,
               lower(regexp_replace(t.title, '[^A-Za-z0-9]+', '-', 'g')), null, null, null, ${id('document', 'j')},
               null, null, '{}', false, false, false, null, null, null, $2, $2
             ${pages.replace('where', `cross join lateral (select ${SQL_PLAN.title('j', '($4::text[])', '($5::text[])', '($6::text[])')} as title) t where`)}`,
            [organizationId, importAt, pageKeys, TOPICS, VERBS, NOUNS],
          );
          await client.query(
            `insert into tree_entries (organization_id, space_id, change_request_id, kind, item_id, version_id, from_seq, to_seq)
             select $1, sp.id, null, 'page', ${id('page', 'j')}, ${id('version', 'j')}, 1, null ${pages}`,
            [organizationId],
          );
        } finally {
          client.release();
        }
      }),
    );

    // The service's own indexing, as an import's advanceSpaceLine runs it, space by space.
    await timed(timings, 'search index (reindexPages, space by space)', () =>
      inParallel(spaces.length, connections, async (s) => {
        const space = spaces[s]!;
        await db.transaction().execute(async (tx) => {
          const versions = await tx
            .selectFrom('page_versions')
            .select(['page_id', 'id'])
            .where('organization_id', '=', organizationId)
            .where('space_id', '=', space.id)
            .execute();
          await reindexPages(
            tx,
            { organizationId, spaceId: space.id },
            versions.map((version) => ({ itemId: version.page_id, versionId: version.id })),
          );
        });
      }),
    );

    await timed(timings, `indexes made again (${indexes.length})`, () =>
      inParallel(indexes.length, connections, async (i) => {
        const client = await pool.connect();
        try {
          await client.query(`set maintenance_work_mem = '512MB'`);
          await client.query(indexes[i]!.definition);
        } finally {
          client.release();
        }
      }),
    );
    indexes = [];
    await setup.query('drop table scale_prototypes, scale_spaces');
    await timed(timings, 'vacuum analyze', () => setup.query('vacuum (analyze)').then(() => undefined));

    // What the API would have made of the titles, for every title shape.
    const sample = await setup.query<{ title: string; slug: string }>(
      `select title, slug from page_versions where organization_id = $1 and space_id = $2`,
      [organizationId, spaces[0]!.id],
    );
    const wrong = sample.rows.find((row) => slugify(row.title) !== row.slug);
    if (wrong) throw new Error(`Seeded slug ${wrong.slug} is not the API's ${slugify(wrong.title)}`);

    const { rows } = await setup.query<{ bytes: string }>('select pg_database_size(current_database()) as bytes');
    return {
      organizationId,
      userId: user.id,
      authorization: `Bearer ${token}`,
      bigSpaceId: spaces[0]!.id,
      spaceId: spaces[Math.floor(spaces.length / 2)]!.id,
      prototypeSpaceId: prototype.id,
      timings,
      databaseBytes: Number(rows[0]!.bytes),
    };
  } finally {
    // A failed load still leaves the schema whole, for whoever keeps the database to look at it.
    for (const index of indexes) await setup.query(index.definition).catch(() => {});
    setup.release();
  }
}

/** Counts that show the seed is what it says. */
export async function seededCounts(app: FastifyInstance, organizationId: string) {
  const { rows } = await sql<Record<string, string>>`
    select
      (select count(*) from spaces where organization_id = ${organizationId}) as spaces,
      (select live_spaces_count from organizations where id = ${organizationId}) as live_spaces_count,
      (select count(*) from tree_entries where organization_id = ${organizationId} and change_request_id is null and to_seq is null) as pages,
      (select count(*) from organization_members where organization_id = ${organizationId}) as members,
      (select members_count from organizations where id = ${organizationId}) as members_count,
      (select count(*) from search_sections where organization_id = ${organizationId} and ord = 0) as indexed_pages`.execute(
    app.context.db,
  );
  return Object.fromEntries(Object.entries(rows[0]!).map(([key, value]) => [key, Number(value)]));
}
