import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller } from '../access/auth.js';

/** Who sent the request an action runs for, as the audit log records it. */
export interface RequestOrigin {
  /** The caller's user; null on a route anyone may call, without a token. */
  userId: string | null;
  userLabel: string | null;
  tokenId: string | null;
  /** Set when an integration calls as one of its installations (its token's principal is `userId`). */
  installation: { id: string; integrationName: string } | null;
  ip: string;
  requestId: string;
}

const origins = new AsyncLocalStorage<RequestOrigin>();

/** The origin of the request being served; undefined outside one (a job, the command line). */
export function currentOrigin(): RequestOrigin | undefined {
  return origins.getStore();
}

/** Runs `work` as if for a request from `origin`: for jobs and tests that act for someone. */
export function withOrigin<T>(origin: RequestOrigin, work: () => T): T {
  return origins.run(origin, work);
}

/**
 * Carries each request's caller, token and address to the actions it runs,
 * which take only the caller's id: the audit log reads them where it records.
 * Entered at preValidation, once authentication has named the caller and the
 * body has been read (its events come from the socket, outside the store);
 * the handler and everything it awaits run inside.
 */
export const requestOriginPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', (request, _reply, done) => {
      const caller: Caller | null = request.caller;
      const origin: RequestOrigin = {
        userId: caller?.userId ?? null,
        userLabel: caller?.displayName ?? null,
        tokenId: caller?.tokenId ?? null,
        installation: caller?.installation
          ? { id: caller.installation.installationId, integrationName: caller.installation.integrationName }
          : null,
        ip: request.ip,
        requestId: request.id,
      };
      origins.run(origin, done);
    });
  },
  { name: 'request-origin', dependencies: ['auth'] },
);
