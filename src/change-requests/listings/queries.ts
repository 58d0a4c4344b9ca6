import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ChangeRequestStatus, Database } from '../../db/types.js';
import { pageQuery, TOTAL_COUNT, type PageRequest } from '../../core/pagination.js';
import { reachableSpaceIds } from '../../access/grants.js';
import { changeRequestsWithContext, type ChangeRequestFields } from '../../content/change-request-queries.js';

/** Where a list looks: one space, every live space of an organization, or those a guest reaches. */
export type ListScope =
  | { kind: 'space'; spaceId: string }
  | { kind: 'organization'; organizationId: string; spaceId?: string }
  | { kind: 'guest'; organizationId: string; userId: string; spaceId?: string };

export interface ListFilters {
  statuses: readonly ChangeRequestStatus[];
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  orderBy: 'updatedAt' | 'createdAt';
}

/** Which conditions a list uses: each combination is one compiled query, taking only the values it filters on. */
interface Shape {
  scope: ListScope['kind'];
  space: boolean;
  /** One status: an equality, which the (…, status, time, id) indexes both filter and order by. */
  oneStatus: boolean;
  creator: boolean;
  contributor: boolean;
  requestedReviewer: boolean;
  orderBy: ListFilters['orderBy'];
}

/** The conditions of a list, on `cr` (change_requests) and `s` (its space), reading `args` in order. */
function conditions(shape: Shape, args: readonly unknown[]): RawBuilder<boolean>[] {
  let index = 0;
  const next = () => args[index++] as string;
  const where: RawBuilder<boolean>[] = [];
  if (shape.scope === 'space') where.push(sql<boolean>`cr.space_id = ${next()}`);
  else {
    const organizationId = next();
    where.push(sql<boolean>`cr.organization_id = ${organizationId}`, sql<boolean>`s.deleted_at is null`);
    if (shape.scope === 'guest')
      where.push(sql<boolean>`cr.space_id = any(array${reachableSpaceIds(organizationId, next())})`);
    if (shape.space) where.push(sql<boolean>`cr.space_id = ${next()}`);
  }
  where.push(shape.oneStatus ? sql<boolean>`cr.status = ${next()}` : sql<boolean>`cr.status = any(${next()}::text[])`);
  if (shape.creator) where.push(sql<boolean>`cr.created_by = ${next()}`);
  if (shape.contributor) {
    where.push(sql<boolean>`exists (select 1 from revisions w
      where w.change_request_id = cr.id and w.created_by = ${next()} and w.type = 'edits')`);
  }
  if (shape.requestedReviewer) {
    const userId = next();
    where.push(sql<boolean>`exists (select 1 from change_request_reviewers q where q.change_request_id = cr.id
      and (q.user_id = ${userId} or q.team_id in (select tm.team_id from team_members tm
        where tm.organization_id = cr.organization_id and tm.user_id = ${userId})))`);
  }
  return where;
}

function shapeAndArgs(scope: ListScope, filters: ListFilters): { shape: Shape; args: unknown[] } {
  const args: unknown[] =
    scope.kind === 'space'
      ? [scope.spaceId]
      : scope.kind === 'guest'
        ? [scope.organizationId, scope.userId]
        : [scope.organizationId];
  const space = scope.kind !== 'space' && scope.spaceId !== undefined;
  if (space) args.push((scope as { spaceId: string }).spaceId);
  const oneStatus = filters.statuses.length === 1;
  args.push(oneStatus ? filters.statuses[0] : [...filters.statuses]);
  for (const value of [filters.creator, filters.contributor, filters.requestedReviewer])
    if (value !== undefined) args.push(value);
  const shape: Shape = {
    scope: scope.kind,
    space,
    oneStatus,
    creator: filters.creator !== undefined,
    contributor: filters.contributor !== undefined,
    requestedReviewer: filters.requestedReviewer !== undefined,
    orderBy: filters.orderBy,
  };
  return { shape, args };
}

const arityOf = (shape: Shape) =>
  (shape.scope === 'space' ? 1 : shape.scope === 'guest' ? 2 : 1) +
  Number(shape.space) +
  1 +
  Number(shape.creator) +
  Number(shape.contributor) +
  Number(shape.requestedReviewer);

type ListPage = (
  db: Db,
  request: PageRequest,
  ...args: unknown[]
) => Promise<Array<ChangeRequestFields & { [TOTAL_COUNT]?: string }>>;
const listPages = new Map<string, ListPage>();

function listPageFor(shape: Shape): ListPage {
  const key = JSON.stringify(shape);
  let run = listPages.get(key);
  if (!run) {
    const column = shape.orderBy === 'updatedAt' ? 'cr.updated_at' : 'cr.created_at';
    run = pageQuery(
      { createdAt: column, id: 'cr.id' },
      (db: Kysely<Database>, ...args: unknown[]) => {
        let query = changeRequestsWithContext(db);
        for (const condition of conditions(shape, args)) query = query.where(condition);
        return query;
      },
      arityOf(shape),
    );
    listPages.set(key, run);
  }
  return run;
}

/** A page of the change requests in `scope` that pass the filters, newest first by the order asked. */
export function listChangeRequestsIn(db: Db, request: PageRequest, scope: ListScope, filters: ListFilters) {
  const { shape, args } = shapeAndArgs(scope, filters);
  return listPageFor(shape)(db, request, ...args);
}

/** How many change requests the list holds, over all its pages. */
export async function countChangeRequestsIn(db: Db, scope: ListScope, filters: ListFilters): Promise<number> {
  const { shape, args } = shapeAndArgs(scope, filters);
  let query = db
    .selectFrom('change_requests as cr')
    .innerJoin('spaces as s', 's.id', 'cr.space_id')
    .select((eb) => eb.fn.countAll<string>().as('n'));
  for (const condition of conditions(shape, args)) query = query.where(condition);
  const { n } = await query.executeTakeFirstOrThrow();
  return Number(n);
}

/** Most contributors one answer shows (the spec's list has no pages); the count says how many there are. */
export const MAX_CONTRIBUTORS = 1000;

/** Who wrote in the change request (its revisions of edits), how often and when last, most recent first. */
export async function changeRequestContributors(db: Db, organizationId: string, changeRequestId: string) {
  const rows = await db
    .selectFrom('revisions as w')
    .innerJoin('users as u', 'u.id', 'w.created_by')
    .where('w.organization_id', '=', organizationId)
    .where('w.change_request_id', '=', changeRequestId)
    .where('w.type', '=', 'edits')
    .groupBy(['u.id', 'u.email', 'u.display_name', 'u.photo_url'])
    .select(['u.id', 'u.email', 'u.display_name', 'u.photo_url'])
    .select((eb) => [
      eb.fn.countAll<string>().as('count'),
      eb.fn.max('w.created_at').as('updated_at'),
      sql<string>`count(*) over ()`.as('total'),
    ])
    .orderBy('updated_at', 'desc')
    .orderBy('u.id')
    .limit(MAX_CONTRIBUTORS)
    .execute();
  return rows;
}
