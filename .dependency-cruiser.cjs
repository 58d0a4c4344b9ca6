// The folder rules of src/ (README, "Architecture"): each layer imports only
// the layers below it. `npm run boundaries` checks them in CI.
const DOMAINS =
  'app-reader|change-requests|collections|comments|content|custom-hostnames|integrations|invitations|invites|members|ops|orgs|permissions|reviewers|search|sites|spaces|specs|sso|teams|translations|users';
const APP = '^src/(app|server|cli|bootstrap)\\.ts$';

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
      comment: 'config, db and core know nothing of the model, the domains or the app.',
      from: { path: '^src/(core|db)/|^src/config\\.ts$' },
      to: { path: `^src/(model|${DOMAINS})/|${APP}` },
    },
    {
      name: 'model-imports-no-domain',
      severity: 'error',
      comment: 'The shared model sits below every domain: a domain may use it, never the other way.',
      from: { path: '^src/model/' },
      to: { path: `^src/(${DOMAINS})/|${APP}` },
    },
    {
      name: 'hierarchy-is-the-bottom-of-the-model',
      severity: 'error',
      comment: 'Walking the collection tree and sibling positions need nothing else of the model.',
      from: { path: '^src/model/hierarchy/' },
      to: { path: '^src/model/(?!hierarchy/)' },
    },
    {
      name: 'domains-do-not-import-each-other',
      severity: 'error',
      comment: 'What two domains share belongs in src/model (or src/core), not in one of them.',
      from: { path: `^src/(${DOMAINS})/` },
      to: { path: `^src/(${DOMAINS})/`, pathNot: '^src/$1/' },
    },
    {
      name: 'the-cache-is-declared-at-the-edge',
      severity: 'error',
      comment:
        'Caching is a route contract (config.cache, src/core/http-cache.ts): routes declare a version from src/model/cache-versions.ts; actions, queries and presenters never see the cache.',
      from: { path: '^src/', pathNot: `^src/(${DOMAINS})/routes\\.ts$|^src/model/cache-versions\\.ts$|${APP}` },
      to: { path: '^src/core/http-cache\\.ts$|^src/model/cache-versions\\.ts$' },
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
      to: { path: `^src/(?!(core|db|model|${DOMAINS})/|config\\.ts$|(app|server|cli|bootstrap)\\.ts$)` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js'] },
  },
};
