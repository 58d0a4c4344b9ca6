import { GitBookAPI } from '@gitbook/api';
import { GitBookAPI as NewestGitBookAPI } from '@gitbook/api-next';

/** The official client, pointed at a server of ours. */
export function officialClient(endpoint: string, authToken: string): GitBookAPI {
  return new GitBookAPI({ endpoint, authToken });
}

/** The newest official client (@gitbook/api@0.202.0), for the operations the seeds' client lacks. */
export function newestOfficialClient(endpoint: string, authToken: string): NewestGitBookAPI {
  return new NewestGitBookAPI({ endpoint, authToken });
}
