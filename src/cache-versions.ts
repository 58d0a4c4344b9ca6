import type { FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { CacheVersion, Version } from './core/http-cache.js';
import { precompiled } from './db/precompiled.js';
import { callerOf } from './access/auth.js';

/*
 * The versions the cached GET routes declare (`config.cache`, see
 * src/core/http-cache.ts): each is read in one statement before the route's
 * handler, and its answer is served again while the version is the same. A
 * version is made of clocks the database ticks whenever an answer could read
 * differently (triggers in the migrations that make them); most are tick
 * rows, summed, so that writers never wait on one another for a clock. Their
 * values mean nothing else.
 *
 * What each clock covers:
 * - organization_ticks (organizationClock): the organization, its members,
 *   teams and their members, spaces, collections, grants, sites and their
 *   spaces and sections, and its OpenAPI specs. A caller's role on anything of the organization comes
 *   from these rows, so the clock covers it too.
 * - user_profile_clock: users' names, e-mail addresses and photos.
 * - change_request_ticks: a space's change requests.
 * - comment_thread_ticks: a thread's comments, replies and reactions.
 * - integration_catalog_clock: every integration, and the organizations that own one.
 */

const organizationClock = (organizationId: string | RawBuilder<string>) =>
  sql<string>`(select coalesce(sum(t.ticks), 0) from organization_ticks t where t.organization_id = ${organizationId})`;
const profileClock = sql<string>`(select version from user_profile_clock)`;
const changeRequestClock = (spaceId: RawBuilder<string>) =>
  sql<string>`(select coalesce(sum(k.ticks), 0) from change_request_ticks k where k.space_id = ${spaceId})`;
/** `changeRequest`: the id or number the URL names ('' for the space's own thread), as the thread's key. */
const commentThreadClock = (spaceId: RawBuilder<string>, changeRequest: string) =>
  sql<string>`(select coalesce(sum(k.ticks), 0) from comment_thread_ticks k
    where k.space_id = ${spaceId} and k.thread_key = coalesce((select cr.id from change_requests cr
      where cr.space_id = ${spaceId} and (cr.id = ${changeRequest} or cr.number::text = ${changeRequest})), ''))`;

const spaceId = sql.ref<string>('s.id');
const spaceOrganization = sql.ref<string>('s.organization_id');

/**
 * A version query's one value, with the organization whose clocks it reads
 * (read from its row, else `organizationId`; none when it reads several).
 * None at all when its row is missing: the handler answers, with a 404.
 */
async function valueOf(
  rows: Promise<Array<{ version: string | null; organizationId?: string }>>,
  organizationId?: string,
): Promise<Version | null> {
  const row = (await rows)[0];
  if (!row || row.version === null) return null;
  return { value: row.version, organizationId: row.organizationId ?? organizationId };
}

function param(request: FastifyRequest, name: string): string {
  const value = (request.params as Record<string, unknown>)[name];
  if (typeof value !== 'string') throw new Error(`The route has no :${name} to read its version by`);
  return value;
}

const ofOrganization = precompiled((db, organizationId: string) =>
  db.selectNoFrom(sql<string>`${organizationClock(organizationId)} || '/' || ${profileClock}`.as('version')),
);

/**
 * An organization's lists and what is read of it by its id (its spaces,
 * collections, members, teams, sites; the organization itself).
 */
const organization: CacheVersion = (db, request) => {
  const organizationId = param(request, 'organizationId');
  return valueOf(ofOrganization(db, organizationId), organizationId);
};

const ofOrganizations = precompiled((db, userId: string) =>
  db.selectNoFrom(
    sql<string>`coalesce((select string_agg(m.organization_id || ':' || ${organizationClock(sql.ref('m.organization_id'))},
      ',' order by m.organization_id) from organization_members m where m.user_id = ${userId}), '')
      || '/' || ${profileClock}`.as('version'),
  ),
);

/** The organizations the caller is a member of: which they are, and each one's clock. */
const callerOrganizations: CacheVersion = (db, request) => valueOf(ofOrganizations(db, callerOf(request).userId));

const ofSpace = precompiled((db, id: string) =>
  db
    .selectFrom('spaces as s')
    .where('s.id', '=', id)
    .select('s.organization_id as organizationId')
    // A deleted space answers its admins until its retention ends: with the time, not with its rows.
    .select(
      sql<
        string | null
      >`case when s.deleted_at is null then ${organizationClock(spaceOrganization)} || '/' || ${profileClock} end`.as(
        'version',
      ),
    ),
);

/** A space read by its id. */
const space: CacheVersion = (db, request) => valueOf(ofSpace(db, param(request, 'spaceId')));

/** `version`, unless the read names a share link's key: a link is no clock's, so such a read is not kept. */
const unlessShared =
  (version: CacheVersion): CacheVersion =>
  (db, request) =>
    (request.query as { shareKey?: unknown } | undefined)?.shareKey === undefined
      ? version(db, request)
      : Promise.resolve(null);

/**
 * A page of a space's current revision, read by its id or path, and a search
 * of it: the revision is the space's row (a merge indexes its pages in the
 * same transaction), the caller's access and the reusable contents it shows
 * are the organization's, and a computed page's spec ticks it too.
 */
const spaceContent = unlessShared(space);

/**
 * A site's whole structure, and what its audience is shown: the site, its
 * sections and site spaces, their spaces and the caller's roles on them are
 * the organization's.
 */
const siteStructure = unlessShared(organization);

const ofCollection = precompiled((db, id: string) =>
  db
    .selectFrom('collections as c')
    .where('c.id', '=', id)
    .select('c.organization_id as organizationId')
    .select(sql<string>`${organizationClock(sql.ref('c.organization_id'))} || '/' || ${profileClock}`.as('version')),
);

/** A collection read by its id, and its spaces. */
const collection: CacheVersion = (db, request) => valueOf(ofCollection(db, param(request, 'collectionId')));

const ofChangeRequests = precompiled((db, id: string) =>
  db
    .selectFrom('spaces as s')
    .where('s.id', '=', id)
    .select('s.organization_id as organizationId')
    .select(
      sql<string>`${changeRequestClock(spaceId)} || '/' || ${organizationClock(spaceOrganization)}
        || '/' || ${profileClock}`.as('version'),
    ),
);

/** A space's change requests, listed or read one by one. */
const changeRequests: CacheVersion = (db, request) => valueOf(ofChangeRequests(db, param(request, 'spaceId')));

const ofCommentThread = precompiled((db, id: string, changeRequest: string) =>
  db
    .selectFrom('spaces as s')
    .where('s.id', '=', id)
    .select('s.organization_id as organizationId')
    .select(
      sql<string>`${commentThreadClock(spaceId, changeRequest)} || '/' || ${changeRequestClock(spaceId)}
        || '/' || ${organizationClock(spaceOrganization)} || '/' || ${profileClock}`.as('version'),
    ),
);

/** A comment thread, a space's own or a change request's (''), listed or read one by one. */
const commentThread: CacheVersion = (db, request) => {
  const changeRequestId = (request.params as { changeRequestId?: string }).changeRequestId;
  return valueOf(ofCommentThread(db, param(request, 'spaceId'), changeRequestId ?? ''));
};

const ofIntegrations = precompiled((db, userId: string) =>
  db.selectNoFrom(
    sql<string>`(select version from integration_catalog_clock) || '/' || coalesce((select string_agg(
      m.organization_id || ' ' || coalesce(m.role::text, '-') || ' ' || m.disabled::text, ',' order by m.organization_id)
      from organization_members m where m.user_id = ${userId}), '')`.as('version'),
  ),
);

/** The integrations the caller may see: the catalog, and what the caller is to each organization. */
const integrations: CacheVersion = (db, request) => valueOf(ofIntegrations(db, callerOf(request).userId));

export const versionOf = {
  organization,
  callerOrganizations,
  space,
  spaceContent,
  siteStructure,
  collection,
  changeRequests,
  commentThread,
  integrations,
} as const satisfies Record<string, CacheVersion>;
