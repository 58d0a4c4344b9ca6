import { Value } from '@sinclair/typebox/value';
import lzString from 'lz-string';
import { ApiError, BadRequestError, ConflictError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { nestsDeeperThan, JSON_MAX_DEPTH } from '../../core/json-depth.js';
import { OutboundError, type OutboundResponse } from '../../core/outbound.js';
import type { Context } from '../../context.js';
import { findVisibleIntegration } from '../access.js';
import { signRequest } from '../events/signature.js';
import { integrationSigningSecret } from '../events/signing-secrets.js';
import { requestUrlFor } from './dev-mode.js';
import { findIntegrationEndpoint } from './queries.js';
import { renderTarget } from './render-target.js';
import { RenderIntegrationUIBody } from './render-schemas.js';

/** How long an integration has to render, and how much it may answer. */
export const RENDER_TIMEOUT_MS = 10_000;
export const RENDER_MAX_BYTES = 512 * 1024;
/** The longest an answer may be cached by the caller, whatever the integration asks. */
const MAX_CACHE_SECONDS = 3600;

export interface RenderedUI {
  output: Record<string, unknown>;
  cacheControl: string;
}

const badGateway = (message: string) => new ApiError(502, message);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ROOT_ELEMENTS = new Set(['block', 'modal', 'configuration']);

/** The integration's answer, if it is a ContentKit render output: an element with state and props, or a completion. */
function renderOutput(response: OutboundResponse): Record<string, unknown> {
  if (response.status < 200 || response.status > 299) {
    throw badGateway(`The integration’s endpoint answered the render with HTTP ${response.status}`);
  }
  if (nestsDeeperThan(response.body, JSON_MAX_DEPTH)) {
    throw badGateway(`The integration’s render nests deeper than ${JSON_MAX_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw badGateway('The integration’s endpoint answered the render with something other than JSON');
  }
  if (!isObject(value)) throw badGateway('The integration’s render is not a ContentKit output object');
  if (value.type === 'complete') {
    if (value.returnValue !== undefined && !isObject(value.returnValue)) {
      throw badGateway('The integration’s completed render has a returnValue that is not an object');
    }
    return value.returnValue === undefined
      ? { type: 'complete' }
      : { type: 'complete', returnValue: value.returnValue };
  }
  const { element, state, props } = value;
  if (
    (value.type !== undefined && value.type !== 'element') ||
    !isObject(element) ||
    typeof element.type !== 'string' ||
    !ROOT_ELEMENTS.has(element.type) ||
    !isObject(state) ||
    !isObject(props)
  ) {
    throw badGateway(
      'The integration’s render is not a ContentKit output: an element (block, modal or configuration) with state and props',
    );
  }
  return value;
}

/** What the caller may cache: the integration's max-age (bounded, private to the caller), else nothing. */
function cacheControlOf(response: OutboundResponse): string {
  const maxAge = /(?:^|,)\s*max-age=(\d{1,9})\s*(?:,|$)/i.exec(response.headers['cache-control'] ?? '');
  const seconds = maxAge ? Math.min(Number(maxAge[1]), MAX_CACHE_SECONDS) : 0;
  return seconds > 0 ? `private, max-age=${seconds}` : 'no-store';
}

/** Why the endpoint could not be reached, as ours: a 504 for no answer in time, else a 502. */
function outboundFailure(error: OutboundError, timeoutMs: number): ApiError {
  if (error.failure === 'timeout') {
    return new ApiError(504, `The integration’s endpoint did not render within ${timeoutMs} ms`);
  }
  if (error.failure === 'too-large') {
    return badGateway(`The integration’s render is larger than ${RENDER_MAX_BYTES / 1024} KiB`);
  }
  return badGateway(`The integration’s endpoint could not be reached: ${error.message}`);
}

/**
 * Renders a UI of the integration (GitBook's ContentKit) for the caller: the
 * request goes, as a `ui_render` event signed with the integration's secret,
 * to its endpoint (or its development tunnel) through the guarded fetcher,
 * with a deadline and a size limit; its answer is checked before it is
 * passed on. The context names where the UI renders, and so the installation
 * it renders for, which the caller must be allowed to see there.
 */
export async function renderIntegrationUI(
  context: Context,
  callerId: string,
  integrationName: string,
  request: RenderIntegrationUIBody,
): Promise<RenderedUI> {
  const { integration } = await findVisibleIntegration(context, callerId, integrationName);
  const target = await renderTarget(context, callerId, integration.id, request.context);
  const endpoint = await findIntegrationEndpoint(context.db, integration.id);
  const url = endpoint && requestUrlFor(endpoint, target.organizationId);
  if (!url) throw new ConflictError('The integration names no endpoint to render its UI with');
  const secret = await integrationSigningSecret(context.db, context.keyring, integration.id);
  const event = {
    eventId: newId(),
    type: 'ui_render',
    installationId: target.installationId,
    ...(target.spaceId === undefined ? {} : { spaceId: target.spaceId }),
    ...(target.siteId === undefined ? {} : { siteId: target.siteId }),
    auth: { userId: callerId },
    componentId: request.componentId,
    props: request.props,
    state: request.state ?? {},
    context: request.context,
    ...(request.action === undefined ? {} : { action: request.action }),
  };
  const body = JSON.stringify(event);
  const timestamp = Math.floor(context.clock.now().getTime() / 1000);
  // The fetcher's own limit (OUTBOUND_TIMEOUT_MS) bounds this one too.
  const timeoutMs = Math.min(RENDER_TIMEOUT_MS, context.config.outbound.timeoutMs);
  let response: OutboundResponse;
  try {
    response = await context.outbound.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...signRequest(secret, body, timestamp),
      },
      body: Buffer.from(body, 'utf8'),
      maxBytes: RENDER_MAX_BYTES,
      timeoutMs,
    });
  } catch (error) {
    if (error instanceof OutboundError) throw outboundFailure(error, timeoutMs);
    throw error;
  }
  return { output: renderOutput(response), cacheControl: cacheControlOf(response) };
}

/**
 * The request of the GET form: LZ-string's compressToEncodedURIComponent of
 * the POST body. Its length is bounded (RenderIntegrationUIQuery), and so is
 * what it inflates to: LZ-string's output grows at most quadratically in its
 * codes, a few megabytes for 4096 characters, decoded in milliseconds.
 */
export function decodeRenderRequest(compressed: string): RenderIntegrationUIBody {
  // A query string reads `+`, which the compressed alphabet uses, as a space.
  const text = lzString.decompressFromEncodedURIComponent(compressed.replaceAll(' ', '+'));
  if (!text) throw new BadRequestError('querystring/request is not LZ-string compressed text');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequestError('querystring/request does not hold JSON');
  }
  if (!Value.Check(RenderIntegrationUIBody, value)) {
    const first = Value.Errors(RenderIntegrationUIBody, value).First();
    throw new BadRequestError(`querystring/request${first?.path ?? ''} ${first?.message ?? 'is not a render request'}`);
  }
  return value;
}
