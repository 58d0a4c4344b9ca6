import { ApiError, BadRequestError, ConflictError, NotFoundError } from '../../../core/errors.js';
import { OutboundError, type OutboundFetcher, type OutboundResponse } from '../../../core/outbound.js';

/**
 * A provider's REST API (GitHub's, GitLab's) as an installation reaches it:
 * through the guarded fetcher, with the installation's token, and never with
 * that token anywhere but the API's own origin, even where the provider's
 * answer names another (a `Link` header, a redirect).
 */
export interface ProviderApi {
  /** The API's base, without a trailing slash: `https://api.github.com`, `https://gitlab.com/api/v4`. */
  base: string;
  token: string;
  fetcher: OutboundFetcher;
  /** GitHub, GitLab: for the messages. */
  name: string;
}

/** Pages read of a listing at most: a hundred items each. */
export const MAX_PAGES = 10;
/** Bytes of one answer of the API at most. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Why the provider refused the installation's token: the installation shows `unauthenticated` until a new one is set. */
export class ProviderAuthError extends ConflictError {
  constructor(name: string) {
    super(`${name} refused the installation's token; set a new one with updateGitSyncInstallationById`);
    this.name = 'ProviderAuthError';
  }
}

/** A failure of the provider itself: not the caller's, and not the service's. */
const badGateway = (message: string) => new ApiError(502, message);

/** `path` under the API's base, or a URL the API gave (a next page) when it is on the same origin. */
export function apiUrl(api: ProviderApi, pathOrUrl: string): string {
  if (!/^https?:\/\//.test(pathOrUrl)) return `${api.base}${pathOrUrl}`;
  const given = new URL(pathOrUrl);
  if (given.origin !== new URL(api.base).origin)
    throw badGateway(`${api.name} pointed to another host than its API; nothing was sent there`);
  return given.href;
}

/** A GET of the API with the token, the answer's status checked; a 404 is the caller's NotFound with `missing`. */
export async function getJson(api: ProviderApi, pathOrUrl: string, missing: string): Promise<OutboundResponse> {
  const url = apiUrl(api, pathOrUrl);
  let response: OutboundResponse;
  try {
    response = await api.fetcher.request(url, {
      method: 'GET',
      headers: { authorization: `Bearer ${api.token}`, accept: 'application/json' },
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (error) {
    if (error instanceof OutboundError && error.failure === 'refused') throw new BadRequestError(error.message);
    if (error instanceof OutboundError) throw badGateway(`${api.name} could not be read: ${error.message}`);
    throw error;
  }
  if (new URL(response.url).origin !== new URL(url).origin)
    throw badGateway(`${api.name} redirected to another host than its API`);
  if (response.status === 401) throw new ProviderAuthError(api.name);
  if (response.status === 403) throw new ConflictError(`${api.name} does not let the installation's token read this`);
  if (response.status === 404) throw new NotFoundError(missing);
  if (response.status !== 200) throw badGateway(`${api.name} answered HTTP ${response.status}`);
  return response;
}

/** The answer's body as JSON, or a 502 naming the provider. */
export function bodyOf(api: ProviderApi, response: OutboundResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw badGateway(`${api.name} answered with something that is not JSON`);
  }
}

/** A field of the provider's answer, checked: a provider that answers otherwise is a 502, never a crash. */
export function field<T>(api: ProviderApi, value: unknown, check: (value: unknown) => value is T, what: string): T {
  if (!check(value)) throw badGateway(`${api.name} answered without ${what}`);
  return value;
}

export const isString = (value: unknown): value is string => typeof value === 'string';
export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const isArray = (value: unknown): value is unknown[] => Array.isArray(value);
