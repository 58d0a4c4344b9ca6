import { readFileSync } from 'node:fs';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

/** The service's version, from its package.json (two folders up from both src/ops and dist/ops). */
export const SERVICE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const DESCRIPTION = 'Self-hosted documentation management, with an API compatible with GitBook’s REST API.';

/** JSON unless the client prefers HTML, as a browser's Accept header does. */
const negotiator = new Negotiator({ supportedValues: ['application/json', 'text/html'] });

// No user text on this page, so inline styles are safe; nothing else may load or run.
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/**
 * The root of the service: what a browser or a curious client finds at its
 * address, pointing at the API reference, the OpenAPI document and the probes.
 */
export const landingRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { config: { rateLimit: false }, schema: { hide: true } }, async (request, reply) => {
    const links = {
      api: app.urls.service('v1'),
      reference: app.urls.service('docs'),
      openapi: app.urls.service('openapi.json'),
      health: app.urls.service('healthz'),
      readiness: app.urls.service('readyz'),
    };
    if (negotiator.negotiate(request.headers.accept ?? '') === 'text/html') {
      void reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_POLICY);
      return reply.send(page(links));
    }
    void reply.header('vary', 'accept');
    return { name: 'quire' as const, version: SERVICE_VERSION, description: DESCRIPTION, links };
  });
};

function page(links: Record<'api' | 'reference' | 'openapi' | 'health' | 'readiness', string>): string {
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire ${escape(SERVICE_VERSION)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1f2328; }
  h1 { font-size: 1.6rem; margin-bottom: 0; } p.version { color: #59636e; margin-top: 0; }
  code { background: #f3f4f6; padding: 0.1rem 0.3rem; border-radius: 4px; }
  li { margin: 0.4rem 0; }
</style>
</head>
<body>
<h1>Quire</h1>
<p class="version">version ${escape(SERVICE_VERSION)}</p>
<p>${escape(DESCRIPTION)}</p>
<ul>
  <li><a href="${escape(links.reference)}">API reference</a>: every operation, and a console to try them with a token.</li>
  <li><a href="${escape(links.openapi)}">OpenAPI document</a>: for code generators, Postman and linters.</li>
  <li>The API itself: <code>${escape(links.api)}</code>, with <code>Authorization: Bearer &lt;token&gt;</code>.</li>
  <li>Probes: <a href="${escape(links.health)}">liveness</a> and <a href="${escape(links.readiness)}">readiness</a>.</li>
</ul>
</body>
</html>
`;
}
