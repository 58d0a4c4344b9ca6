/**
 * The parts of the published OpenAPI document that belong to no route: the
 * tags the operations are grouped by (GitBook's names) and how a caller
 * authenticates.
 */

export const API_DESCRIPTION =
  'Self-hosted documentation management, compatible with the GitBook REST API. ' +
  'Every /v1 operation needs an API token as a bearer token, with the scope the operation names; ' +
  'errors always answer `{"error": {"code", "message"}}`, and lists `{"items", "count", "next"}`.';

export const API_TAGS = [
  {
    name: 'users',
    description: 'The authenticated user, and the users who share an organization with them.',
  },
  {
    name: 'system',
    description: 'The release of the service that answers.',
  },
  {
    name: 'tokens',
    description:
      'API tokens: a user makes and revokes their own, and an admin may issue a member their first one. ' +
      'A token’s secret is shown once, when it is made.',
  },
  {
    name: 'organizations',
    description:
      'Organizations own collections, spaces, sites, teams and specs; their admins manage them. ' +
      'Also the search over every space of an organization.',
  },
  {
    name: 'members',
    description:
      'The people of an organization and their roles (read, comment, review, edit, create, admin); ' +
      'a guest has no role and sees only what is given to them or their teams.',
  },
  {
    name: 'invites',
    description:
      'Bringing people into an organization: by e-mail, or with invite links that let whoever holds one join.',
  },
  {
    name: 'teams',
    description: 'Groups of an organization’s members, given roles on collections and spaces together.',
  },
  {
    name: 'sso',
    description: 'SAML single sign-on providers of an organization, and the sign-in addresses of the active ones.',
  },
  {
    name: 'collections',
    description:
      'Collections group spaces and other collections; a role given on a collection reaches everything in it.',
  },
  {
    name: 'spaces',
    description:
      'Spaces hold the content: pages and files, in revisions. Also the roles given on a space to members and teams.',
  },
  {
    name: 'space-content',
    description:
      'Reading a revision: the space’s current one, a change request’s newest one, or any by id; ' +
      'its pages, files, reusable contents, links and backlinks. Also imports and the search of a space.',
  },
  {
    name: 'space-git',
    description:
      'Git Sync: a space imported from and exported to a Git repository in GitBook’s format, over HTTPS with any ' +
      'Git host, in the background, one operation of a space at a time; an export never writes over a branch that moved.',
  },
  {
    name: 'git',
    description:
      'Git Sync installations: a space linked to a branch on GitHub, GitLab or any Git host over HTTPS, with a ' +
      'sealed token; a signed webhook or polling at an admin’s interval imports its pushes.',
  },
  {
    name: 'imports',
    description:
      'Import runs: a website, a Git branch or uploaded zips of markdown (GitBook’s format, Outline’s and ' +
      'Docmost’s exports) brought into a space in the background, one run of an organization at a time, ' +
      'cancellable, and resumed after a restart from its last write.',
  },
  {
    name: 'storage',
    description:
      'Files uploaded to an organization: a signed URL takes the bytes, too large or not public for a content ' +
      'write to fetch, and a later write makes them a file of a space.',
  },
  {
    name: 'change-requests',
    description:
      'Content is written through change requests: batches of changes, reviewed, commented and merged into the space.',
  },
  {
    name: 'space-comments',
    description: 'Comments and replies on a space’s content, with reactions; resolved or open.',
  },
  {
    name: 'sites',
    description:
      'Published documentation sites: the spaces they publish in sections and groups, their visibility, ' +
      'share links, visitor authentication, adaptive content, customization and search.',
  },
  {
    name: 'site-permissions',
    description:
      'Roles given on a site to members (guests included) and teams, beside their organization role: ' +
      'admin on a site changes, publishes and deletes it.',
  },
  {
    name: 'site-users',
    description: 'Who reaches a site, with their role on it and where it comes from, and the roles given to members.',
  },
  {
    name: 'custom-hostnames',
    description:
      'A site’s custom hostname is a claim: pending until a DNS TXT record holds the token the service ' +
      'issued, then live. Read, revalidate and remove a claim.',
  },
  {
    name: 'openapi',
    description: 'OpenAPI specs an organization documents, fetched from a URL or given as text, then processed.',
  },
  {
    name: 'openapi-versions',
    description: 'The versions a spec’s processing has stored, newest first, with their files.',
  },
  {
    name: 'integrations',
    description: 'Integrations published by organizations, and their installations on organizations, spaces and sites.',
  },
  {
    name: 'translations',
    description: 'An organization’s named sets of target languages.',
  },
  {
    name: 'glossary',
    description: 'An organization’s translation glossary: terms and how each language says them.',
  },
  {
    name: 'urls',
    description:
      'Addresses back to what they show: app and published addresses to their content, published addresses to ' +
      'their site as a visitor reads it, and any address to an embed (oEmbed for outside ones).',
  },
  {
    name: 'site-spaces',
    description: 'A site space copied with its space’s content, beside the original or in a section of its own.',
  },
  {
    name: 'site-external-links',
    description: 'Links to outside addresses among a site’s sections and groups, shown in its navigation.',
  },
  {
    name: 'site-preview',
    description: 'A signed address, valid one hour, that shows a site as it would be published, drafts included.',
  },
  {
    name: 'site-insights',
    description:
      'What visitors do on a site, recorded without a cookie or an IP address (a visitor is a daily salted ' +
      'hash), and its aggregates by page, day, referrer and country where known.',
  },
  {
    name: 'custom-fonts',
    description: 'An organization’s own fonts, as WOFF2 files checked on upload, for its sites’ customization.',
  },
  {
    name: 'subdomains',
    description: 'Which organization holds a subdomain (its hostname), for that organization’s members.',
  },
];

export const BEARER_SCHEME = {
  type: 'http' as const,
  scheme: 'bearer',
  description:
    'An API token, sent as `Authorization: Bearer <token>`. The first comes from `npm run cli -- tokens create ' +
    '--email <email>` (or BOOTSTRAP_ADMIN_TOKEN on the first start); more from `POST /v1/user/tokens`. ' +
    'Its scopes limit what it may call.',
};
