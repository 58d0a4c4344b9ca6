import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BadRequestError } from './errors.js';
import { isPublicAddress } from './outbound-address.js';

export { isPublicAddress } from './outbound-address.js';

/**
 * What kind of failure an outbound fetch met: a URL the guard refuses (trying
 * again cannot help), no answer within the time limit, a body over the byte
 * limit, or any other failure of the network or the server.
 */
export type OutboundFailure = 'refused' | 'timeout' | 'too-large' | 'failed';

/** Why an outbound fetch was refused or failed, in words fit for the caller; never internal detail. */
export class OutboundError extends BadRequestError {
  constructor(
    message: string,
    readonly failure: OutboundFailure = 'failed',
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundFetcherOptions {
  /** Lets fetches reach private, loopback and link-local addresses (`OUTBOUND_ALLOW_PRIVATE=true`, for tests). */
  allowPrivate: boolean;
  /** For the whole fetch: every connection, redirect, header and body byte. */
  timeoutMs: number;
  /** The most body bytes read, after decompression. */
  maxBytes: number;
  userAgent?: string;
}

export interface OutboundResponse {
  /** The URL finally answered, after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  /** Every header of the final answer, by lower-case name; a repeated one joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

/** A request other than a plain GET: a protocol's (Git's smart HTTP) with its method, headers and body. */
export interface OutboundRequestInit {
  method: 'GET' | 'POST';
  /** Sent as given, after the fetcher's own; credentials go here (`authorization`), never in the URL. */
  headers?: Readonly<Record<string, string>>;
  body?: Uint8Array;
  maxBytes?: number;
  timeoutMs?: number;
}

export interface OutboundFetcher {
  /**
   * A GET of `url`. Any final status is returned: the caller decides what a
   * 404 means. `timeoutMs` can shorten the fetcher's own time limit, never
   * lengthen it.
   */
  fetch(url: string, init?: { maxBytes?: number; accept?: string; timeoutMs?: number }): Promise<OutboundResponse>;
  /**
   * A request under the same guard and limits. A GET follows redirects; a
   * POST does not (its body is not sent again): the redirect is its answer.
   */
  request(url: string, init: OutboundRequestInit): Promise<OutboundResponse>;
}

/** What one exchange sends. */
interface Outgoing {
  method: 'GET' | 'POST';
  headers: Readonly<Record<string, string>>;
  body?: Uint8Array;
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; Quire)';

/** How a URL is named in messages: scheme, host and port, never a path, query or credentials. */
function describe(url: URL): string {
  return `${url.protocol}//${url.host}/`;
}

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('The URL is not a valid absolute URL; only http and https URLs can be fetched', 'refused');
  }
  checkTarget(url);
  return url;
}

function checkTarget(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError('Only http and https URLs can be fetched', 'refused');
  if (url.username !== '' || url.password !== '') {
    throw new OutboundError(
      `The URL ${describe(url)} contains credentials, which this service does not send`,
      'refused',
    );
  }
}

/** The host as a socket takes it: IPv6 literals lose their URL brackets. */
function socketHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function privateAddressError(url: URL): OutboundError {
  return new OutboundError(
    `The URL ${describe(url)} resolves to a private address, which this service does not fetch`,
    'refused',
  );
}

function tooLargeError(url: URL, limit: number): OutboundError {
  return new OutboundError(`The response from ${describe(url)} is over the ${limit}-byte limit`, 'too-large');
}

/**
 * Resolves a host name and refuses it if any of its addresses is not public. The socket then
 * connects to exactly the addresses checked here, so a second, different DNS answer cannot slip in.
 */
function guardedLookup(url: URL, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(
      hostname,
      { family: options.family ?? 0, hints: options.hints ?? 0, all: true },
      (error, addresses: LookupAddress[]) => {
        if (error || addresses.length === 0) {
          callback(new OutboundError(`The host of ${describe(url)} could not be resolved`), '', 0);
          return;
        }
        if (!allowPrivate && !addresses.every((entry) => isPublicAddress(entry.address))) {
          callback(privateAddressError(url), '', 0);
          return;
        }
        // Node asks for every address when it races IPv4 against IPv6 (autoSelectFamily), else for one.
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
    );
  };
}

/** A network failure as one sentence; the system's own error text stays out of it. */
function describeFailure(url: URL, error: Error & { code?: unknown }): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = typeof error.code === 'string' ? error.code : '';
  const target = describe(url);
  if (code === 'ECONNREFUSED') return new OutboundError(`The server at ${target} refused the connection`);
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return new OutboundError(`The server at ${target} closed the connection early`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new OutboundError(`The server at ${target} cannot be reached`);
  if (/CERT|TLS|SSL|SELF_SIGNED/.test(code))
    return new OutboundError(`The server at ${target} did not present a valid TLS certificate`);
  if (code.startsWith('HPE_')) return new OutboundError(`The server at ${target} sent a malformed HTTP response`);
  return new OutboundError(`The URL ${target} could not be fetched`);
}

function decoderFor(encoding: string | undefined): Transform | undefined | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

/** Reads the body, decompressing it, and fails as soon as either the wire or the decoded bytes pass `limit`. */
async function readBody(url: URL, response: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLargeError(url, limit);
  const decoder = decoderFor(response.headers['content-encoding']);
  if (decoder === null)
    throw new OutboundError(`The response from ${describe(url)} uses a content encoding this service cannot read`);

  let wireBytes = 0;
  let connectionFailed = false;
  if (decoder) {
    response.on('data', (chunk: Buffer) => {
      wireBytes += chunk.length;
      // Empty compressed blocks decode to nothing; counting wire bytes too keeps such a stream from running forever.
      if (wireBytes > limit) decoder.destroy(tooLargeError(url, limit));
    });
    response.on('error', (error) => {
      connectionFailed = true;
      decoder.destroy(error);
    });
    response.pipe(decoder);
  }

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of (decoder ?? response) as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLargeError(url, limit);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof OutboundError || !decoder || connectionFailed) throw error;
    // Some servers label an empty body (a 204, a bare error) as compressed; there is nothing to decode.
    if (wireBytes === 0) return Buffer.alloc(0);
    throw new OutboundError(`The response from ${describe(url)} could not be decompressed`);
  }
  return Buffer.concat(chunks, size);
}

function headersOf(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

interface Exchange {
  request: ClientRequest;
  response: Promise<IncomingMessage>;
}

function send(url: URL, options: OutboundFetcherOptions, outgoing: Outgoing): Exchange {
  const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)({
    protocol: url.protocol,
    hostname: socketHost(url),
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: outgoing.method,
    headers: {
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
      ...outgoing.headers,
    },
    // No pooled sockets: a kept-alive connection would skip the address check of the next fetch.
    agent: false,
    lookup: guardedLookup(url, options.allowPrivate),
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  request.end(outgoing.body);
  return { request, response };
}

export function createOutboundFetcher(options: OutboundFetcherOptions): OutboundFetcher {
  async function follow(
    start: URL,
    limit: number,
    outgoing: Outgoing,
    track: (url: URL, request: ClientRequest) => void,
  ): Promise<OutboundResponse> {
    let url = start;
    for (let redirects = 0; ; redirects += 1) {
      // A literal address never goes through the lookup, so it is checked here.
      const host = socketHost(url);
      if (isIP(host) !== 0 && !options.allowPrivate && !isPublicAddress(host)) throw privateAddressError(url);

      const exchange = send(url, options, outgoing);
      track(url, exchange.request);
      let response: IncomingMessage;
      try {
        response = await exchange.response;
      } catch (error) {
        throw describeFailure(url, error as Error);
      }

      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location && outgoing.method === 'GET') {
        exchange.request.destroy();
        if (redirects === MAX_REDIRECTS)
          throw new OutboundError(`The URL ${describe(start)} redirected more than ${MAX_REDIRECTS} times`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new OutboundError(`The URL ${describe(url)} redirected to an invalid URL`);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new OutboundError(
            `The URL ${describe(url)} redirected to a ${next.protocol} URL; only http and https URLs can be fetched`,
          );
        }
        checkTarget(next);
        url = next;
        continue;
      }

      try {
        const body = await readBody(url, response, limit);
        return {
          url: url.href,
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? null,
          headers: headersOf(response),
          body,
        };
      } catch (error) {
        throw describeFailure(url, error as Error);
      } finally {
        exchange.request.destroy();
      }
    }
  }

  async function exchange(
    raw: string,
    outgoing: Outgoing,
    init: { maxBytes?: number; timeoutMs?: number },
  ): Promise<OutboundResponse> {
    const start = parseTarget(raw);
    const limit = init.maxBytes ?? options.maxBytes;
    const timeoutMs = Math.min(init.timeoutMs ?? options.timeoutMs, options.timeoutMs);
    let current = start;
    let inFlight: ClientRequest | undefined;
    const track = (url: URL, request: ClientRequest) => {
      current = url;
      inFlight = request;
    };

    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        inFlight?.destroy();
        reject(new OutboundError(`The URL ${describe(current)} did not answer within ${timeoutMs} ms`, 'timeout'));
      }, timeoutMs);
    });
    const work = follow(start, limit, outgoing, track);
    // Once the deadline has won, the abandoned fetch may still reject; that is expected, not unhandled.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    fetch: (raw, init = {}) => exchange(raw, { method: 'GET', headers: { accept: init.accept ?? '*/*' } }, init),
    request: (raw, init) => exchange(raw, { method: init.method, headers: init.headers ?? {}, body: init.body }, init),
  };
}
