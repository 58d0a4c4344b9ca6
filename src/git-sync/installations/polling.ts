import type { FastifyBaseLogger } from 'fastify';
import { startPollLoop } from '../../core/poll-loop.js';
import git from 'isomorphic-git';
import type { Context } from '../../context.js';
import { describeGitFailure, GitRemoteError } from '../git/errors.js';
import { guardedGitHttp } from '../git/http-client.js';
import type { GitRemote } from '../git/remote.js';
import { findLinkCommit } from '../queries.js';
import { claimPoll, endPoll, findInstallation, schedulePolling } from './queries.js';
import { installationRemote } from './remote.js';
import { queueInstallationSync } from './sync.js';

/**
 * Polling: an installation with an interval (an admin's setting) has its
 * branch's tip read when it is due, and an import queued when the tip is
 * not the commit the space last synced with. Reading the tip is one
 * exchange of refs (Git's ls-refs, filtered to the branch by the server),
 * not a fetch: a few hundred bytes. Several instances poll at once; each
 * claims a due installation under a lease, as operations are claimed.
 */

/** Bytes the refs' advertisement may take: one branch's, asked by prefix. */
const REFS_MAX_BYTES = 1024 * 1024;

/** The branch's tip on the remote, or null when it has no such branch. */
export async function readTip(context: Context, remote: GitRemote): Promise<string | null> {
  const http = guardedGitHttp(context.outbound, {
    maxBytes: REFS_MAX_BYTES,
    timeoutMs: context.config.gitSync.exchangeTimeoutMs,
  });
  try {
    const refs = await git.listServerRefs({
      http,
      url: remote.url,
      prefix: remote.ref,
      headers: remote.authorization ? { authorization: remote.authorization } : {},
    });
    return refs.find((entry) => entry.ref === remote.ref)?.oid ?? null;
  } catch (error) {
    throw describeGitFailure(remote.url, error);
  }
}

export interface GitSyncPoller {
  /** Polls the most overdue installation; false when none was due. */
  pollNext(): Promise<boolean>;
}

export function createGitSyncPoller(context: Context, log: FastifyBaseLogger = context.log): GitSyncPoller {
  const leaseMs = context.config.gitSync.exchangeTimeoutMs + 60_000;
  return {
    async pollNext() {
      const now = context.clock.now();
      const poll = await claimPoll(context.db, now, leaseMs);
      if (!poll) return false;
      const row = await findInstallation(context.db, poll.installation_id);
      if (!row || row.organization_id !== poll.organization_id || row.polling_interval_seconds === null) {
        // Polling was turned off meanwhile.
        if (row) await schedulePolling(context.db, { organizationId: row.organization_id, id: row.id }, null);
        return true;
      }
      let error: string | null = null;
      const remote = row.status === 'active' ? installationRemote(context, row) : undefined;
      if (!remote) {
        error = `The installation is ${row.status}: it names no repository, branch or token the provider takes`;
      } else {
        try {
          const tip = await readTip(context, remote);
          const synced = await findLinkCommit(context.db, row.organization_id, row.space_id, remote.url, remote.ref);
          if (tip !== null && tip !== synced) {
            await queueInstallationSync(context, row, 'import', row.created_by);
            log.info({ installation: row.id, space: row.space_id, tip }, 'polling found a new commit; import queued');
          } else if (tip === null) {
            error = 'The repository has no such branch';
          }
        } catch (failure) {
          if (!(failure instanceof GitRemoteError)) throw failure;
          error = failure.message;
        }
      }
      const finished = context.clock.now();
      const dueAt = new Date(finished.getTime() + row.polling_interval_seconds * 1000);
      await endPoll(context.db, poll, { now: finished, dueAt, error });
      return true;
    },
  };
}

/** Polls due installations, and waits `idleMs` when none is; `stop` waits for the poll under way. */
export interface GitSyncPolling {
  stop(): Promise<void>;
}

export function startGitSyncPolling(context: Context, log: FastifyBaseLogger, idleMs: number): GitSyncPolling {
  const poller = createGitSyncPoller(context, log);
  return startPollLoop({ next: () => poller.pollNext(), idleMs, log, what: 'polling Git Sync installations' });
}
