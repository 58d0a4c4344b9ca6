// The folder rules of src/ (README, "Architecture"): each layer imports only
// the layers below it. `npm run boundaries` checks them in CI.
//
// From the bottom: config, db and core (infrastructure); document (markdown
// and the JSON document) and html (the document's HTML); conversions (the
// worker pool running both); context.ts (the services actions get); hierarchy
// and access (the collection tree, and who may do what); then the domains in
// DOMAIN_ORDER, each of which may use a lower domain's modules but never its
// routes; the app (app, server, service-modules, cli, bootstrap) on top.

/**
 * The domains from the bottom up: a domain may import the modules of those
 * before it, never one after it (nor any domain's routes, which only the app
 * registers). Content is low because nearly everything reads it; reader is
 * what the sites' and the app's readers share.
 */
const DOMAIN_ORDER = [
  // The audit log, lowest: every domain records its administrative actions in it.
  'audit',
  // The outbox of events: every domain that emits one records it in its transaction.
  'events',
  'orgs',
  'users',
  // People's passwords and sign-in limits, below the app reader that signs them in.
  'accounts',
  'specs',
  'content',
  // An organization's own fonts, which the sites' customization names.
  'fonts',
  'reader',
  'members',
  'spaces',
  'collections',
  'teams',
  'permissions',
  'search',
  'change-requests',
  'reviewers',
  'comments',
  'reviews',
  'links',
  'sites',
  // Starter content for spaces and sites, written as any content write is.
  'templates',
  'app-reader',
  'invites',
  'invitations',
  'sso',
  'integrations',
  'translations',
  'custom-hostnames',
  // Addresses back to content and embeds: they read spaces, collections, change requests and sites.
  'urls',
  'git-sync',
  'imports',
  'exports',
  'ops',
];
const DOMAINS = DOMAIN_ORDER.join('|');
const APP = '^src/(app|server|service-modules|cli|bootstrap)\\.ts$';
const SHARED = 'document|html|conversions|hierarchy|access';
const CACHE_VERSIONS = '^src/cache-versions\\.ts$';

/** Everything in src/ but the folders (or top-level files) named. */
const outside = (folders, files = '') => `^src/(?!(${folders})/${files ? `|(${files})\\.ts$` : ''})`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle between modules means two layers that cannot be read apart.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'infrastructure-imports-only-infrastructure',
      severity: 'error',
      comment: 'config, db and core know nothing of the layers above them.',
      from: { path: '^src/(core|db)/|^src/config\\.ts$' },
      to: { path: outside('core|db', 'config') },
    },
    {
      name: 'document-is-a-library',
      severity: 'error',
      comment: 'Markdown and the JSON document convert without a database, a model or a service: core only.',
      from: { path: '^src/document/' },
      to: { path: outside('document|core') },
    },
    {
      name: 'html-is-a-library',
      severity: 'error',
      comment: "The HTML of a document is rendered from the document's types alone, with core.",
      from: { path: '^src/html/' },
      to: { path: outside('html|core|document') },
    },
    {
      name: 'html-takes-only-the-document-types',
      severity: 'error',
      from: { path: '^src/html/' },
      to: { path: '^src/document/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'conversions-run-the-libraries',
      severity: 'error',
      comment: 'The conversion pool runs document and html off the event loop; it knows nothing above them.',
      from: { path: '^src/conversions/' },
      to: { path: outside('conversions|core|document|html') },
    },
    {
      name: 'threads-load-no-server-stack',
      severity: 'error',
      comment:
        "What a conversion thread runs loads no server, database or plugin library: each thread pays in memory for every module it loads (Kysely's alone was 4 MiB of each thread).",
      from: { path: '^src/conversions/worker\\.ts$' },
      to: { path: 'node_modules/(kysely|fastify|fastify-plugin|pg|pino)/', reachable: true },
    },
    {
      name: 'context-is-below-the-domains',
      severity: 'error',
      comment: 'The services actions get; a domain adds its own services to Context where it declares them.',
      from: { path: '^src/context\\.ts$' },
      to: { path: outside('core|db|conversions', 'config') },
    },
    {
      name: 'hierarchy-is-the-bottom-of-the-model',
      severity: 'error',
      comment: 'Walking the collection tree and sibling positions need nothing but the database.',
      from: { path: '^src/hierarchy/' },
      to: { path: outside('hierarchy|core|db', 'config') },
    },
    {
      name: 'access-is-below-the-domains',
      severity: 'error',
      comment: 'Who may do what, which every domain asks: it knows no domain.',
      from: { path: '^src/access/' },
      to: { path: outside('access|hierarchy|core|db', 'config|context') },
    },
    {
      name: 'shared-layers-import-no-domain',
      severity: 'error',
      from: { path: `^src/(${SHARED})/|^src/context\\.ts$` },
      to: { path: `^src/(${DOMAINS})/|${APP}|${CACHE_VERSIONS}` },
    },
    ...DOMAIN_ORDER.map((domain, index) => ({
      name: `${domain}-imports-only-lower-domains`,
      severity: 'error',
      comment: `A domain uses the domains below it in DOMAIN_ORDER; ${domain} is above ${DOMAIN_ORDER.slice(0, index).join(', ') || 'none'}.`,
      from: { path: `^src/${domain}/` },
      to: { path: `^src/(${DOMAIN_ORDER.slice(index + 1).join('|') || '(?!)'})/` },
    })),
    {
      name: 'only-the-app-registers-routes',
      severity: 'error',
      comment: "A domain's routes are the app's to register: no other domain imports them.",
      from: { path: `^src/(${DOMAINS})/` },
      to: { path: 'routes\\.ts$', pathNot: '^src/$1/' },
    },
    {
      name: 'the-cache-is-declared-at-the-edge',
      severity: 'error',
      comment:
        'Caching is a route contract (config.cache, src/core/http-cache.ts): routes declare a version from src/cache-versions.ts; actions, queries and presenters never see the cache.',
      from: { path: '^src/', pathNot: `^src/(${DOMAINS})/.*routes\\.ts$|${CACHE_VERSIONS}|${APP}` },
      to: { path: `^src/core/http-cache\\.ts$|${CACHE_VERSIONS}` },
    },
    {
      name: 'domains-do-not-import-the-app',
      severity: 'error',
      from: { path: `^src/(${DOMAINS})/` },
      to: { path: APP },
    },
    {
      name: 'every-folder-is-known',
      severity: 'error',
      comment: 'A new top-level folder must be placed in a layer here (and in the README) before it is used.',
      from: { path: '^src/' },
      to: {
        path: `^src/(?!(core|db|${SHARED}|${DOMAINS})/|(config|context|cache-versions)\\.ts$|(app|server|service-modules|cli|bootstrap)\\.ts$)`,
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js'] },
  },
};
