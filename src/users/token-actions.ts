import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../core/errors.js';
import { paginate, type Page } from '../core/pagination.js';
import type { Db } from '../db/database.js';
import type { Caller } from '../access/auth.js';
import { requireOrganizationAdmin } from '../access/membership.js';
import { isScope, scopesAllow, scopesCover, type Scope } from '../access/scopes.js';
import type { Context } from '../context.js';
import { recordAuditEvent, recordUserAuditEvent } from '../audit/record.js';
import { recordOrganizationEvent } from '../orgs/events.js';
import { presentApiToken, tokenState } from './api-tokens.js';
import {
  ISSUED_MAX_EXPIRY_HOURS,
  MAX_EXPIRY_DAYS,
  MAX_LIVE_TOKENS,
  type CreateApiTokenBody,
  type IssueMemberTokenBody,
  type ListApiTokensQuery,
} from './token-schemas.js';
import {
  countApiTokens,
  countLiveApiTokens,
  countOtherMemberships,
  createApiToken,
  findApiToken,
  listApiTokenPage,
  lockUserForTokens,
  membershipOrNotFound,
  revokeApiToken,
} from './api-token-queries.js';
import type { ApiToken, CreatedApiToken } from './api-token-schemas.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ISSUED_LABEL = 'Issued by an admin';

const tokenNotFound = () => new NotFoundError('No token with this id is yours');

/** The caller's tokens, newest first by default; never a secret. */
export async function listOwnTokens(
  context: Context,
  caller: Caller,
  query: ListApiTokensQuery,
): Promise<Page<ApiToken>> {
  const page = context.cursors.request(`api-tokens:${caller.userId}`, query);
  const now = context.clock.now();
  return paginate(context.cursors, page, {
    rows: () => listApiTokenPage(context.db, page, caller.userId),
    count: () => countApiTokens(context.db, caller.userId),
    keyOf: (row) => ({ createdAt: row.created_at, id: row.id }),
    toItem: (row) => presentApiToken(row, now, caller.tokenId),
  });
}

/** One of the caller's tokens; another user's is a 404, as an unknown id is. */
export async function getOwnToken(context: Context, caller: Caller, tokenId: string): Promise<ApiToken> {
  const token = await findApiToken(context.db, caller.userId, tokenId);
  if (!token) throw tokenNotFound();
  return presentApiToken(token, context.clock.now(), caller.tokenId);
}

/** Makes a token for the caller, within the calling token's scopes, and shows its secret this once. */
export async function createOwnToken(
  context: Context,
  caller: Caller,
  body: CreateApiTokenBody,
): Promise<CreatedApiToken> {
  refuseIssuedToken(caller);
  const now = context.clock.now();
  const expiresAt = expiryOf(body, now, MAX_EXPIRY_DAYS) ?? null;
  const scopes = requestedScopes(caller, body.scopes);
  return context.db.transaction().execute(async (tx) => {
    await lockUserForTokens(tx, caller.userId);
    await requireLiveCallingToken(tx, caller, now);
    if ((await countLiveApiTokens(tx, caller.userId, now)) >= MAX_LIVE_TOKENS) {
      throw new ConflictError(
        `You have ${MAX_LIVE_TOKENS} live tokens, the most one user may have; revoke one before making another`,
      );
    }
    const made = await createApiToken(tx, fixedAt(now), {
      userId: caller.userId,
      label: body.label,
      scopes,
      expiresAt,
    });
    await recordUserAuditEvent(tx, caller.userId, caller.organizationId, {
      action: 'api_token.created',
      actorId: caller.userId,
      target: { type: 'api-token', id: made.id, label: body.label },
      at: now,
      after: { scopes, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return shownOnce(made, { label: body.label, scopes, expiresAt, now, currentTokenId: caller.tokenId });
  });
}

/**
 * Revokes one of the caller's tokens; a token already revoked stays as it is.
 * A token manages only tokens within its own scopes, itself included.
 */
export async function revokeOwnToken(context: Context, caller: Caller, tokenId: string): Promise<void> {
  const token = await findApiToken(context.db, caller.userId, tokenId);
  if (!token) throw tokenNotFound();
  if (!scopesCover(caller.scopes, token.scopes)) {
    throw new ForbiddenError('This token cannot revoke a token with rights it does not have itself');
  }
  if (token.revoked_at) return;
  await context.db.transaction().execute(async (tx) => {
    await revokeApiToken(tx, context.clock, token.id, caller.userId);
    await recordUserAuditEvent(tx, caller.userId, caller.organizationId, {
      action: 'api_token.revoked',
      actorId: caller.userId,
      target: { type: 'api-token', id: token.id, label: token.label },
      at: context.clock.now(),
    });
  });
}

/**
 * Issues a first token to a member of the organization who has none (admins).
 * It is a power handed over, so it reaches no further than this admin's
 * organization: bound to it (authentication refuses it anywhere else, and
 * once its user joins another organization), at most a day long, and unable
 * to make tokens. The member must belong to no other organization. Recorded
 * as an organization event; `log` is the request's, so the record carries its id.
 */
export async function issueMemberToken(
  context: Context,
  caller: Caller,
  organizationId: string,
  userId: string,
  body: IssueMemberTokenBody,
  log: FastifyBaseLogger = context.log,
): Promise<CreatedApiToken> {
  refuseIssuedToken(caller);
  await requireOrganizationAdmin(context.db, organizationId, caller.userId, 'Issuing a token to a member');
  const member = await membershipOrNotFound(context.db, organizationId, userId);
  const now = context.clock.now();
  const expiresAt = issuedExpiryOf(body, now);
  const scopes = requestedScopes(caller, body.scopes);
  const label = body.label ?? ISSUED_LABEL;
  if (member.disabled) {
    throw new ConflictError('This member is disabled in the organization; enable them before issuing them a token');
  }
  const issued = await context.db.transaction().execute(async (tx) => {
    await lockUserForTokens(tx, userId);
    await requireLiveCallingToken(tx, caller, now);
    if ((await countOtherMemberships(tx, userId, organizationId)) > 0) {
      throw new ForbiddenError(
        'This member also belongs to another organization, which a token issued here would reach; they make their own tokens',
      );
    }
    if ((await countLiveApiTokens(tx, userId, now)) > 0) {
      throw new ConflictError(
        'This member already has a live token: an admin may only issue a first one; they make more themselves with POST /v1/user/tokens',
      );
    }
    const made = await createApiToken(tx, fixedAt(now), { userId, label, scopes, expiresAt, organizationId });
    await recordOrganizationEvent(tx, {
      organizationId,
      type: 'member_token_issued',
      actorId: caller.userId,
      userId,
      details: { tokenId: made.id, label, scopes, expiresAt: expiresAt.toISOString() },
      at: now,
    });
    await recordAuditEvent(tx, {
      organizationId,
      action: 'api_token.issued_to_member',
      actorId: caller.userId,
      target: { type: 'api-token', id: made.id, label },
      at: now,
      details: { userId },
      after: { scopes, expiresAt: expiresAt.toISOString() },
    });
    return made;
  });
  log.info(
    { organization: organizationId, member: userId, token: issued.id, issuer: caller.userId },
    'issued a first token to a member',
  );
  // `current` is about the caller's token: the issued one is the member's.
  return shownOnce(issued, { label, scopes, expiresAt, now, currentTokenId: caller.tokenId });
}

/** The scopes asked for, or the calling token's when none are named: 403 for any the calling token lacks. */
function requestedScopes(caller: Caller, asked: Scope[] | null | undefined): string[] | null {
  const scopes = asked === undefined ? caller.scopes : asked;
  if (scopesCover(caller.scopes, scopes)) return scopes;
  if (scopes === null) {
    throw new ForbiddenError('This token has scopes, so it cannot give full rights (scopes: null); name scopes it has');
  }
  const lacking = scopes.filter((scope) => !isScope(scope) || !scopesAllow(caller.scopes, scope));
  throw new ForbiddenError(
    `This token lacks the scope(s) ${lacking.join(', ')}; a token cannot give rights it does not have`,
  );
}

/** A token an admin issued makes no tokens: that would carry the handed-over power past its bounds. */
function refuseIssuedToken(caller: Caller): void {
  if (caller.organizationId !== null) {
    throw new ForbiddenError(
      'A token an admin issued cannot make tokens; the member makes their own with a token of their own',
    );
  }
}

/** The expiry of a token an admin issues: as asked, within ISSUED_MAX_EXPIRY_HOURS, which is also the default. */
function issuedExpiryOf(body: IssueMemberTokenBody, now: Date): Date {
  if (body.expiresInHours !== undefined && body.expiresAt !== undefined) {
    throw new BadRequestError('body/expiresAt and body/expiresInHours cannot both be given; choose one');
  }
  const latest = now.getTime() + ISSUED_MAX_EXPIRY_HOURS * HOUR_MS;
  if (body.expiresInHours !== undefined) return new Date(now.getTime() + body.expiresInHours * HOUR_MS);
  if (body.expiresAt === undefined) return new Date(latest);
  const expiresAt = new Date(body.expiresAt);
  if (expiresAt <= now) throw new BadRequestError('body/expiresAt must be in the future');
  if (expiresAt.getTime() > latest) {
    throw new BadRequestError(`body/expiresAt must be at most ${ISSUED_MAX_EXPIRY_HOURS} hours ahead`);
  }
  return expiresAt;
}

/** The expiry a body asks for; undefined when it names none. */
function expiryOf(body: { expiresInDays?: number; expiresAt?: string }, now: Date, maxDays: number): Date | undefined {
  if (body.expiresInDays !== undefined && body.expiresAt !== undefined) {
    throw new BadRequestError('body/expiresAt and body/expiresInDays cannot both be given; choose one');
  }
  if (body.expiresInDays !== undefined) return new Date(now.getTime() + body.expiresInDays * DAY_MS);
  if (body.expiresAt === undefined) return undefined;
  const expiresAt = new Date(body.expiresAt);
  if (expiresAt <= now) throw new BadRequestError('body/expiresAt must be in the future');
  if (expiresAt.getTime() > now.getTime() + maxDays * DAY_MS) {
    throw new BadRequestError(`body/expiresAt must be at most ${maxDays} days ahead`);
  }
  return expiresAt;
}

/**
 * The calling token as the database holds it now: authentication may have
 * read it from this instance's cache, and a token revoked on another
 * instance meanwhile must not make new ones.
 */
async function requireLiveCallingToken(db: Db, caller: Caller, now: Date): Promise<void> {
  const token = await findApiToken(db, caller.userId, caller.tokenId);
  if (!token || tokenState(token, now) !== 'active') throw new UnauthorizedError();
}

/** A clock stopped at `now`, so that the token's creation time is the one its answer shows. */
const fixedAt = (now: Date): Clock => ({ now: () => now });

function shownOnce(
  made: { id: string; token: string },
  fields: { label: string; scopes: string[] | null; expiresAt: Date | null; now: Date; currentTokenId: string },
): CreatedApiToken {
  const row = {
    id: made.id,
    label: fields.label,
    scopes: fields.scopes,
    created_at: fields.now,
    expires_at: fields.expiresAt,
    revoked_at: null,
  };
  return { ...presentApiToken(row, fields.now, fields.currentTokenId), token: made.token };
}
