/**
 * What the scale bench seeds, and the shape of every space's page tree,
 * written once here for both the prototype pages (written through the API)
 * and the SQL that copies their rows (seed.ts).
 */
import { NOUNS, TOPICS, VERBS } from '../seed-content.js';

function positiveEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

export interface ScaleSizes {
  /** Pages of the organization in all. */
  pages: number;
  /** Spaces of the organization in all, the prototype space and the big one included. */
  spaces: number;
  /** Members, the admin who makes the requests included. */
  members: number;
  /** Pages of the one space whose tree is measured. */
  bigSpacePages: number;
  /** Pages written through the API: their documents are the content every other page copies. */
  prototypePages: number;
}

/** The organization; smaller by environment for a trial run (SCALE_PAGES, SCALE_SPACES, SCALE_MEMBERS). */
export function scaleSizes(): ScaleSizes {
  const sizes = {
    pages: positiveEnv('SCALE_PAGES', 1_000_000),
    spaces: positiveEnv('SCALE_SPACES', 1_000),
    members: positiveEnv('SCALE_MEMBERS', 200_000),
    bigSpacePages: positiveEnv('SCALE_BIG_SPACE_PAGES', 10_000),
    prototypePages: 200,
  };
  if (sizes.spaces < 3) throw new Error('SCALE_SPACES must be at least 3');
  if (sizes.pages < sizes.bigSpacePages + sizes.prototypePages + sizes.spaces - 2)
    throw new Error('SCALE_PAGES leaves no page for some spaces');
  return sizes;
}

/**
 * The tree every space has, as a prefix of one plan: sections of 100 pages,
 * each a top-level page followed by its 80 children, then 19 pages nested
 * under its first four children (five, five, five, four). Parents come before
 * their children, so any prefix is a whole tree.
 */
export const SECTION_PAGES = 100;
const CHILDREN = 80;
const PER_NESTED_PARENT = 5;

export { NOUNS, TOPICS, VERBS };

/** Index `j`'s parent in the plan, or null for a section. */
export function parentIndex(j: number): number | null {
  const section = Math.floor(j / SECTION_PAGES);
  const r = j % SECTION_PAGES;
  if (r === 0) return null;
  if (r <= CHILDREN) return section * SECTION_PAGES;
  return section * SECTION_PAGES + 1 + Math.floor((r - CHILDREN - 1) / PER_NESTED_PARENT);
}

/** Index `j`'s place among its siblings (0 first). */
export function siblingIndex(j: number): number {
  const r = j % SECTION_PAGES;
  if (r === 0) return Math.floor(j / SECTION_PAGES);
  if (r <= CHILDREN) return r - 1;
  return (r - CHILDREN - 1) % PER_NESTED_PARENT;
}

/** Index `j`'s title: unique in its space, so its slug is the title's. */
export function titleOf(j: number): string {
  const section = Math.floor(j / SECTION_PAGES);
  const r = j % SECTION_PAGES;
  if (r === 0) return `${TOPICS[section % TOPICS.length]} ${Math.floor(section / TOPICS.length) + 1}`;
  return `${VERBS[r % VERBS.length]} ${NOUNS[Math.floor(r / VERBS.length) % NOUNS.length]} ${j + 1}`;
}

/** The same plan in SQL, over an integer expression `j`: parent index, sibling index and title. */
export const SQL_PLAN = {
  parent: (j: string) =>
    `case when ${j} % ${SECTION_PAGES} = 0 then null
      when ${j} % ${SECTION_PAGES} <= ${CHILDREN} then (${j} / ${SECTION_PAGES}) * ${SECTION_PAGES}
      else (${j} / ${SECTION_PAGES}) * ${SECTION_PAGES} + 1 + (${j} % ${SECTION_PAGES} - ${CHILDREN + 1}) / ${PER_NESTED_PARENT} end`,
  sibling: (j: string) =>
    `case when ${j} % ${SECTION_PAGES} = 0 then ${j} / ${SECTION_PAGES}
      when ${j} % ${SECTION_PAGES} <= ${CHILDREN} then ${j} % ${SECTION_PAGES} - 1
      else (${j} % ${SECTION_PAGES} - ${CHILDREN + 1}) % ${PER_NESTED_PARENT} end`,
  /** $topics, $verbs and $nouns are the arrays above, bound as text[]. */
  title: (j: string, topics: string, verbs: string, nouns: string) =>
    `case when ${j} % ${SECTION_PAGES} = 0
      then ${topics}[1 + (${j} / ${SECTION_PAGES}) % ${TOPICS.length}] || ' ' || ((${j} / ${SECTION_PAGES}) / ${TOPICS.length} + 1)
      else ${verbs}[1 + (${j} % ${SECTION_PAGES}) % ${VERBS.length}] || ' ' ||
        ${nouns}[1 + ((${j} % ${SECTION_PAGES}) / ${VERBS.length}) % ${NOUNS.length}] || ' ' || (${j} + 1) end`,
};

/**
 * Words of the prototype pages: one of TERMS in each page's overview, so a
 * search for one finds one page in TERMS.length, as a product's term would.
 */
export const TERMS = [
  'kubernetes',
  'terraform',
  'postgres',
  'graphql',
  'oauth',
  'saml',
  'webhook',
  'sandbox',
  'throttling',
  'idempotency',
  'pagination',
  'localization',
  'sitemap',
  'analytics',
  'redirects',
  'snippets',
  'changelog',
  'billing',
  'invoices',
  'refunds',
  'latency',
  'replication',
  'failover',
  'snapshots',
  'encryption',
  'certificates',
  'firewall',
  'subnets',
  'gateways',
  'queues',
  'schedulers',
  'pipelines',
  'artifacts',
  'containers',
  'namespaces',
  'quotas',
  'dashboards',
  'alerts',
  'incidents',
  'runbooks',
  'onboarding',
  'offboarding',
  'audits',
  'retention',
  'archiving',
  'exports',
  'imports',
  'mirrors',
  'plugins',
  'themes',
];

/** The searches measured: a product term (one page in 50) in a space and across the organization. */
export const SEARCH_TERM = 'terraform';
/** A member search matching eleven members (e-mails numbered 4242 and 42420 to 42429), and one matching one member in 250 (a last name). */
export const MEMBER_SEARCH_RARE = '.4242';
export const MEMBER_SEARCH_COMMON = 'okafor';

export const FIRST_NAMES = (
  'ada alan alice amara ana andrea anna arjun ben carla chen chloe daniel david dmitri elena emma farah fatima ' +
  'felix grace hana hugo ines ivan jack jamal jana jin jonas julia kai karim kenji lara leila liam lucas maria ' +
  'mateo maya mei mohamed nadia nina noah omar paula priya rafael rosa sam sara sofia tariq tom yara yusuf zoe'
).split(' ');
export const LAST_NAMES = (
  'abara adams ahmed alvarez andersen baker banda becker bianchi brown campbell chen costa cruz dang davies diaz dubois ' +
  'eriksen evans fernandez fischer garcia gomez gonzalez green gupta hansen harris hoang huang hughes ito jackson ' +
  'jensen johnson jones kaur khan kim kowalski kumar lambert larsen lee lewis li lopez martin martinez meyer miller ' +
  'moore moreau morris murphy nakamura nguyen nielsen novak okafor olsen ortiz park patel perez petrov phillips ' +
  'popescu quinn ramirez reyes richter rivera roberts rodriguez rossi sanchez santos sato schmidt schneider silva ' +
  'singh smith suzuki taylor thomas thompson torres tran turner walker wang weber white williams wilson wong wright ' +
  'wu yamamoto yang young zhang zhou abbott acosta aguilar akhtar alexander ali allen anderson andrews arnold ' +
  'bailey barnes bauer bell bennett bergstrom bishop blanco bondarenko bose bruno burke butler castro chavez ' +
  'clarke cohen cole collins cook cooper cox crawford cunningham dawson dean delgado dixon doyle duarte edwards ' +
  'ellis estrada ferrari fleming ford foster fox fraser fuchs gallagher gibson gordon graham grant gray greene ' +
  'gross guerrero hall hamilton harper hart hayes henderson herrera hill hoffmann holmes howard hunt ibrahim ' +
  'iqbal jimenez jordan kelly kennedy king klein knight koch kruger lang lawson lehmann lindqvist lloyd long ' +
  'lorenz lucas ma macdonald mahmoud marsh mason mendoza mills mitchell molina morgan moss muller murray nash ' +
  'navarro nelson newman nikolaidis obrien oliveira osei owen palmer parker pearson pereira perry pham pierce'
).split(' ');
