import type { FastifyRequest } from 'fastify';
import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import { themeOf } from '../reader/http.js';
import { maySetPassword } from '../accounts/actions.js';
import { findPasswordHash, listSessions } from '../accounts/queries.js';
import { listIdentities } from '../accounts/identities.js';
import { accountPage, type AccountView } from './account-pages.js';
import { requestSessionHash } from './session.js';

/** The account page of the signed-in caller, with a notice or an error about what they just did. */
export async function accountAnswer(
  context: Context,
  request: FastifyRequest,
  caller: Caller,
  said: Pick<AccountView, 'notice' | 'error'>,
) {
  const [stored, sessions, identities] = await Promise.all([
    findPasswordHash(context.db, caller.userId),
    listSessions(context.db, caller.userId, requestSessionHash(request), context.clock.now()),
    listIdentities(context.db, caller.userId),
  ]);
  return accountPage(context, caller, themeOf(request), {
    hasPassword: stored !== undefined,
    maySetPassword: maySetPassword(caller),
    mails: context.mailer !== undefined,
    sessions,
    identities,
    ...said,
  });
}
