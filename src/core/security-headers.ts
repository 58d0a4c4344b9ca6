import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

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

type Directives = Record<string, string[]>;

/**
 * JSON can be opened in a browser tab: with nothing allowed, a response that
 * carries user text can run nothing, load nothing and be framed by no one.
 */
const API_DIRECTIVES: Directives = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] };

/**
 * Swagger UI loads its bundle, styles and images from its own prefix and
 * calls the API. Styles may be inline: it renders descriptions' markdown with
 * `style` attributes (table alignment), which cannot run code. No inline
 * script, no eval.
 */
function docsDirectives(publicOrigin: string): Directives {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'", publicOrigin],
    'font-src': ["'self'", 'data:'],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'img-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
  };
}

/** What a file or image needs when it is opened on its own: nothing, in a sandbox. Its route may say otherwise. */
const EMBEDDABLE_DIRECTIVES: Directives = { 'default-src': ["'none'"], sandbox: [], 'frame-ancestors': ["'none'"] };

/** Helmet's options for one kind of response: its policy and who may load it. */
function kind(directives: Directives, resources: 'same-origin' | 'cross-origin') {
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    crossOriginResourcePolicy: { policy: resources },
  };
}

/**
 * The headers helmet sets for `options`, read once from its middleware: the
 * policies are helmet's, and setting them as a fixed list costs a request a
 * few microseconds where running helmet's middleware on each cost it about
 * 20 (a third of a small answer's time).
 */
function headersOf(options: HelmetOptions): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return [...headers];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The security headers of the route's kind of response (set by this plugin). */
    securityHeaders?: Array<[string, string]>;
  }
}

/**
 * Security headers on every response, made by helmet: its set, with a
 * Content-Security-Policy for each kind of response this service serves
 * (JSON, the docs UI, files other sites show), no referrer, no framing, and
 * HSTS when the public URL is https. They are set as a request comes in, so a
 * route's own Content-Security-Policy or Referrer-Policy (the readers' pages
 * say theirs) replaces them.
 */
export const securityHeadersPlugin = fp<SecurityHeadersOptions>(
  async (app: FastifyInstance, options) => {
    const url = new URL(options.publicUrl);
    const apiOptions = {
      ...kind(API_DIRECTIVES, 'same-origin'),
      referrerPolicy: { policy: 'no-referrer' as const },
      xFrameOptions: { action: 'deny' },
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      // Without includeSubDomains: the service's host may share a parent domain it does not own.
      strictTransportSecurity: url.protocol === 'https:' ? { maxAge: 31536000, includeSubDomains: false } : false,
    } satisfies HelmetOptions;
    const api = headersOf(apiOptions);
    // The other kinds differ from the API's only in their policy and who may load them.
    const docs = headersOf({ ...apiOptions, ...kind(docsDirectives(url.origin), 'same-origin') });
    // Docs sites on other origins show these in <img> and links.
    const embeddable = headersOf({ ...apiOptions, ...kind(EMBEDDABLE_DIRECTIVES, 'cross-origin') });

    const docsPrefix = options.docsPrefix.replace(/\/$/, '');
    // Routes registered after this plugin (all of them) are told their kind; any other answer is the API's.
    app.addHook('onRoute', (route) => {
      const own =
        route.url === docsPrefix || route.url.startsWith(`${docsPrefix}/`)
          ? docs
          : options.embeddablePrefixes.some((prefix) => route.url.startsWith(prefix))
            ? embeddable
            : api;
      route.config = { ...route.config, securityHeaders: own };
    });
    const set = (reply: FastifyReply, headers: Array<[string, string]>) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
    };
    app.addHook('onRequest', (request, reply, done) => {
      set(reply, request.routeOptions.config.securityHeaders ?? api);
      done();
    });
    app.decorate('addSecurityHeaders', (reply: FastifyReply) => set(reply, api));
  },
  { name: 'security-headers' },
);
