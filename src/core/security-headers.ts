import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sets the API's security headers on a reply that no hook sees (errors Fastify meets before routing). */
    addSecurityHeaders(reply: FastifyReply): void;
  }
}

export interface SecurityHeadersOptions {
  /** The service's base URL: HSTS is sent only when it is https, and the docs UI calls the API there. */
  publicUrl: string;
  /** Where the API reference UI (Swagger UI) lives: pages that run their own scripts and styles. */
  docsPrefix: string;
  /** Route prefixes whose bytes other sites embed (file downloads, integration images). */
  embeddablePrefixes: readonly string[];
}

type Headers = Record<string, string>;

/** The headers of one kind of response, and its Content-Security-Policy unless the route set one. */
interface Kind {
  headers: Headers;
  policy: string;
}

/**
 * JSON can be opened in a browser tab: with nothing allowed, a response that
 * carries user text can run nothing, load nothing and be framed by no one.
 */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Swagger UI loads its bundle, styles and images from its own prefix and
 * calls the API. Styles may be inline: it renders descriptions' markdown with
 * `style` attributes (table alignment), which cannot run code. No inline
 * script, no eval.
 */
function docsPolicy(publicOrigin: string): string {
  return [
    "default-src 'self'",
    "base-uri 'self'",
    `connect-src 'self' ${publicOrigin}`,
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
  ].join('; ');
}

/** What a file or image needs when it is opened on its own: nothing, in a sandbox. Its route may say otherwise. */
const EMBEDDABLE_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'";

/**
 * Security headers on every response, helmet's set cut to what this service
 * serves: JSON, the docs UI, and files other sites show. `nosniff` always;
 * a Content-Security-Policy for each kind unless the route set its own;
 * no referrer unless the route set its own policy, no framing; HSTS when
 * the public URL is https.
 */
export const securityHeadersPlugin = fp<SecurityHeadersOptions>(
  async (app: FastifyInstance, options) => {
    const url = new URL(options.publicUrl);
    const common: Headers = {
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      // Without includeSubDomains: the service's host may share a parent domain it does not own.
      ...(url.protocol === 'https:' ? { 'strict-transport-security': 'max-age=31536000' } : {}),
    };
    const api: Kind = { headers: { ...common, 'cross-origin-resource-policy': 'same-origin' }, policy: API_POLICY };
    const docs: Kind = {
      headers: { ...common, 'cross-origin-resource-policy': 'same-origin' },
      policy: docsPolicy(url.origin),
    };
    // Docs sites on other origins show these in <img> and links.
    const embeddable: Kind = {
      headers: { ...common, 'cross-origin-resource-policy': 'cross-origin' },
      policy: EMBEDDABLE_POLICY,
    };

    const docsPrefix = options.docsPrefix.replace(/\/$/, '');
    const kindOf = (routeUrl: string | undefined): Kind => {
      if (routeUrl === undefined) return api;
      if (routeUrl === docsPrefix || routeUrl.startsWith(`${docsPrefix}/`)) return docs;
      return options.embeddablePrefixes.some((prefix) => routeUrl.startsWith(prefix)) ? embeddable : api;
    };

    const apply = (reply: FastifyReply, kind: Kind) => {
      // A route may say its own referrer policy: the app reader's forms need Origin, which no-referrer blanks.
      const ownReferrerPolicy = reply.getHeader('referrer-policy');
      void reply.headers(kind.headers);
      if (ownReferrerPolicy !== undefined) void reply.header('referrer-policy', ownReferrerPolicy);
      if (!reply.hasHeader('content-security-policy')) void reply.header('content-security-policy', kind.policy);
    };
    app.decorate('addSecurityHeaders', (reply: FastifyReply) => apply(reply, api));
    app.addHook('onSend', (request, reply, payload, done) => {
      apply(reply, kindOf(request.routeOptions.url));
      done(null, payload);
    });
  },
  { name: 'security-headers' },
);
