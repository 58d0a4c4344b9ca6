import { GitBookAPI } from '@gitbook/api';

/** The official client, pointed at a server of ours. */
export function officialClient(endpoint: string, authToken: string): GitBookAPI {
  return new GitBookAPI({ endpoint, authToken });
}
