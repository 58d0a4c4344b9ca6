import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import type { OutboundFetcher } from '../../core/outbound.js';

/**
 * isomorphic-git's HTTP client over the service's guarded fetcher, so that a
 * Git remote is reached like any other outbound URL: public addresses only
 * (unless the operator allows private ones), one time limit, one byte limit.
 * Git's smart HTTP needs only GET (the refs) and POST (the pack exchange).
 */
export function guardedGitHttp(fetcher: OutboundFetcher, limits: { maxBytes: number; timeoutMs: number }): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const method = (request.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'POST') throw new Error(`Git over HTTP uses GET and POST, not ${method}`);
      const response = await fetcher.request(request.url, {
        method,
        headers: request.headers ?? {},
        ...(request.body ? { body: await collect(request.body) } : {}),
        maxBytes: limits.maxBytes,
        timeoutMs: limits.timeoutMs,
      });
      return {
        url: response.url,
        method,
        headers: response.headers,
        body: once(response.body),
        statusCode: response.status,
        statusMessage: '',
      };
    },
  };
}

async function collect(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

async function* once(body: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield body;
}
