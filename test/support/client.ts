import type { FastifyInstance } from 'fastify';
import { GitBookAPI } from '@gitbook/api';
import { GitBookAPI as NewestGitBookAPI } from '@gitbook/api-next';
import { listen } from './app.js';

/** The official client, pointed at a server of ours. */
export function officialClient(endpoint: string, authToken: string): GitBookAPI {
  return new GitBookAPI({ endpoint, authToken });
}

/** The newest official client (@gitbook/api@0.202.0), for the operations the seeds' client lacks. */
export function newestOfficialClient(endpoint: string, authToken: string): NewestGitBookAPI {
  return new NewestGitBookAPI({ endpoint, authToken });
}

/**
 * The newest official client for any account, against `app()` listening on a
 * port of its own from the first call on (the app exists only once the file's
 * hooks ran, hence a getter).
 */
export function newestClientOf(app: () => FastifyInstance): (account: { token: string }) => Promise<NewestGitBookAPI> {
  let endpoint: Promise<string> | undefined;
  return (account) => {
    endpoint ??= listen(app());
    return endpoint.then((address) => newestOfficialClient(address, account.token));
  };
}
