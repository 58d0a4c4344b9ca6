import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/** A column the database fills in when an insert leaves it out. */
type Generated<T> = ColumnType<T, T | undefined, T>;
type Timestamp = ColumnType<Date, Date | undefined, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

/**
 * GitBook's JSON document as stored beside the markdown it was made from
 * (the content module's JSONDocument); null on rows written before it was kept.
 */
export interface StoredJsonDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: unknown[];
}
type StoredDocument = ColumnType<StoredJsonDocument | null, string | null | undefined, string | null>;
/** A JSON array written as JSON text: null on rows written before it was kept. */
type StoredJsonArray = ColumnType<unknown[] | null, string | null | undefined, string | null>;

export type Role = 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read';

export interface ServiceSettingsTable {
  key: string;
  value: string;
  created_at: Timestamp;
}

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the owner of `email` proved it (or the operator set it); null: not proven. */
  email_verified_at: NullableTimestamp;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  token_hash: Buffer;
  label: Generated<string>;
  scopes: string[] | null;
  created_at: Timestamp;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** Set on a token an admin issued to a member: it works only in this organization. */
  organization_id: string | null;
}

/** A session of the app reader: the cookie's id hashed, bound to a user and the token it was made from. */
export interface AppSessionsTable {
  id_hash: Buffer;
  user_id: string;
  token_id: string;
  created_at: Timestamp;
  expires_at: Date;
}

/** An import running now (import/slots.ts); it stops counting at `expires_at` if its instance never ends it. */
export interface ImportLeasesTable {
  id: string;
  organization_id: string;
  space_id: string;
  user_id: string;
  started_at: Date;
  expires_at: Date;
}

export interface MergeRules {
  type: 'none' | 'rules';
  rules?: unknown[];
}

export interface OrganizationsTable {
  id: string;
  title: string;
  email_domains: Generated<string[]>;
  hostname: string | null;
  type: Generated<'business' | 'community'>;
  use_case: string | null;
  community_type: string | null;
  default_role: Role | null;
  default_content_site_id: string | null;
  logo_url: string | null;
  sso: Generated<boolean>;
  ai: Generated<boolean>;
  invite_links: Generated<boolean>;
  plan: Generated<string>;
  custom_hostname: string | null;
  merge_rules: ColumnType<MergeRules, string | undefined, string>;
  /** Kept by a trigger on spaces. */
  live_spaces_count: Generated<number>;
  /** Kept by a trigger on organization_members. */
  members_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  role: Role | null;
  disabled: Generated<boolean>;
  sso: Generated<boolean>;
  joined_at: Timestamp;
  last_seen_at: NullableTimestamp;
}

/** A role, 'inherit' (take the parent's), or null (nothing beyond the organization role). */
export type DefaultLevel = Role | 'inherit' | null;

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: DefaultLevel;
  /** A fractional key, compared byte by byte (COLLATE "C"); see model/hierarchy/positions.ts. */
  position: Generated<string>;
  /** Kept by a trigger on spaces. */
  live_spaces_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

export interface SpacesTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string | null;
  visibility: Generated<Visibility>;
  edit_mode: Generated<'live' | 'locked'>;
  default_level: Generated<DefaultLevel>;
  share_key: string;
  revision_id: string;
  comments_open_count: Generated<number>;
  comments_total_count: Generated<number>;
  change_requests_count: Generated<number>;
  change_requests_open_count: Generated<number>;
  change_requests_draft_count: Generated<number>;
  /** A fractional key, compared byte by byte (COLLATE "C"); see model/hierarchy/positions.ts. */
  position: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
  /** False while the space's pages wait for the search index's first fill. */
  search_indexed: Generated<boolean>;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type TeamRole = 'owner' | 'member';

/** A role given on a space or a collection (exactly one) to a member or a team (exactly one). */
export interface ContentGrantsTable {
  id: string;
  organization_id: string;
  space_id: string | null;
  collection_id: string | null;
  user_id: string | null;
  team_id: string | null;
  role: Role;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamMembersTable {
  team_id: string;
  organization_id: string;
  user_id: string;
  role: Generated<TeamRole>;
  added_at: Timestamp;
}

/** The live spaces each team reaches through its grants; kept by the database's triggers, never written by the service. */
export interface TeamReachTable {
  team_id: string;
  space_id: string;
  /** The space's created_at, for ordering a guest's spaces without their rows. */
  space_created_at: Date;
}

/**
 * Clocks the database ticks whenever a list of comments could read
 * differently (migration 1766361600000): a thread's comments or reactions, an
 * organization's roster, users' profiles. Never written by the service.
 */
/** One tick of a comment thread's clock; the clock is their sum. */
export interface CommentThreadTicksTable {
  space_id: string;
  thread_key: string;
  ticks: Generated<string>;
}

/** One tick of an organization's roster clock; the clock is their sum. */
export interface OrganizationRosterTicksTable {
  organization_id: string;
  ticks: Generated<string>;
}

export interface UserProfileClockTable {
  only_row: Generated<boolean>;
  version: Generated<string>;
}

/** Ticks with every change to any integration (migration 1766448000000). Never written by the service. */
export interface IntegrationCatalogClockTable {
  only_row: Generated<boolean>;
  version: Generated<string>;
}

/** Ticks with every change to a space's change requests (migration 1766534400000). Never written by the service. */
/** One tick of a space's change request clock; the clock is their sum. */
export interface ChangeRequestTicksTable {
  space_id: string;
  ticks: Generated<string>;
}

/** One tick of an organization's clock (organization_ticks); the clock is their sum. */
export interface OrganizationTicksTable {
  organization_id: string;
  ticks: Generated<string>;
}

export interface SamlProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  sso_url: string | null;
  entity_id: string | null;
  certificate: string | null;
  default_team_id: string | null;
  default_role: Role | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrganizationInvitesTable {
  id: string;
  organization_id: string;
  role: Role | null;
  created_by: string | null;
  created_at: Timestamp;
}

/** An invitation by e-mail, pending until the address's owner accepts it with its secret. */
export interface OrganizationEmailInvitationsTable {
  id: string;
  organization_id: string;
  email: string;
  role: Role | null;
  sso: Generated<boolean>;
  invited_by: string | null;
  secret_hash: Buffer;
  /** Whether the secret went only to the address by mail, so that accepting proves the mailbox. */
  mailed: Generated<boolean>;
  created_at: Date;
  expires_at: Date;
}

export type OrganizationEventType = 'member_token_issued';

export interface OrganizationEventsTable {
  id: string;
  organization_id: string;
  type: OrganizationEventType;
  actor_id: string | null;
  user_id: string | null;
  details: JsonColumn<Record<string, unknown>>;
  created_at: Timestamp;
}

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';
export type RevisionType = 'edits' | 'merge' | 'rollback' | 'update' | 'computed';
/** Where a computed page's content comes from: an OpenAPI spec of the organization, by slug. */
export interface ComputedSource {
  type: 'builtin:openapi';
  props: { models: boolean; grouping?: 'by-tag' | 'by-operation'; downloadLink?: boolean };
  dependencies: { spec: { ref: { kind: 'openapi'; spec: string } } };
}

export type PageType = 'document' | 'group' | 'link' | 'computed';
export type VariableValues = Record<string, string | number | boolean>;

export interface ChangeRequestsTable {
  id: string;
  organization_id: string;
  space_id: string;
  number: number;
  subject: Generated<string>;
  status: Generated<ChangeRequestStatus>;
  created_by: string | null;
  revision_id: string;
  revision_initial_id: string;
  revision_merged_id: string | null;
  comments_count: Generated<number>;
  comments_total_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  merged_at: NullableTimestamp;
}

export interface RevisionsTable {
  id: string;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  seq: number;
  base_seq: number | null;
  type: Generated<RevisionType>;
  parents: Generated<string[]>;
  variables: ColumnType<VariableValues, string | undefined, string>;
  merged_from: string | null;
  created_by: string | null;
  created_at: Timestamp;
}

export interface DocumentsTable {
  id: string;
  organization_id: string;
  space_id: string;
  markdown: string;
  document: StoredDocument;
  /** The content module's OutlineSection[]. */
  outline: StoredJsonArray;
  /** The content module's StoredLink[]. */
  links: StoredJsonArray;
  language: string | null;
  created_at: Timestamp;
}

/** One row of the search index: a page (ord 0) or one of its sections. */
export interface SearchSectionsTable {
  organization_id: string;
  space_id: string;
  page_id: string;
  ord: number;
  anchor: string | null;
  title: string;
  headings: Generated<string>;
  body: string;
  /** A text search configuration's name. */
  language: string;
  /** Generated from the others by the database. */
  tsv: ColumnType<string, never, never>;
  /** A page's title and headings (null on section rows), generated likewise. */
  head_tsv: ColumnType<string | null, never, never>;
}

export interface PageVersionsTable {
  id: string;
  organization_id: string;
  space_id: string;
  page_id: string;
  parent_page_id: string | null;
  position: string;
  type: PageType;
  title: string;
  slug: string;
  emoji: string | null;
  icon: string | null;
  description: string | null;
  document_id: string | null;
  layout: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  cover: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  variables: ColumnType<VariableValues, string | undefined, string>;
  hidden: boolean;
  no_index: boolean;
  no_robots_index: boolean;
  target: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  href: string | null;
  /** The source of a computed page (GitBook's ComputedContentSourceRevision); null for any other page. */
  computed: ColumnType<ComputedSource | null, string | null, string | null>;
  page_created_at: Date;
  created_at: Timestamp;
}

export interface BlobsTable {
  sha256: string;
  size: number;
  bytes: Buffer;
  created_at: Timestamp;
}

export interface FileVersionsTable {
  id: string;
  organization_id: string;
  space_id: string;
  file_id: string;
  name: string;
  content_type: string;
  sha256: string;
  size: number;
  width: number | null;
  height: number | null;
  created_at: Timestamp;
}

/** One state of one reusable content, like a page version: written once, shared by every revision that holds it. */
export interface ReusableContentVersionsTable {
  id: string;
  organization_id: string;
  space_id: string;
  reusable_content_id: string;
  title: string;
  document_id: string | null;
  reusable_content_created_at: Date;
  created_at: Timestamp;
}

/** What a tree entry holds a version of. */
export type TreeEntryKind = 'page' | 'file' | 'reusable_content';

export interface TreeEntriesTable {
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  kind: TreeEntryKind;
  item_id: string;
  version_id: string | null;
  from_seq: number;
  to_seq: number | null;
}

export type CommentStatus = 'open' | 'resolved';

export interface CommentsTable {
  id: string;
  organization_id: string;
  space_id: string;
  change_request_id: string | null;
  revision_id: string;
  page_id: string | null;
  page_version_id: string | null;
  page_path: string | null;
  node_id: string | null;
  node_preview: string | null;
  posted_by: string;
  posted_at: Timestamp;
  edited_at: NullableTimestamp;
  body: string;
  body_document: StoredDocument;
  status: Generated<CommentStatus>;
  resolved_at: NullableTimestamp;
  resolved_by: string | null;
  replies_count: Generated<number>;
  /** Generated: '' for the space's own thread, else the change request's id. */
  thread_key: ColumnType<string, never, never>;
}

export interface CommentRepliesTable {
  id: string;
  organization_id: string;
  space_id: string;
  comment_id: string;
  posted_by: string;
  posted_at: Timestamp;
  edited_at: NullableTimestamp;
  body: string;
  body_document: StoredDocument;
}

export interface CommentReactionsTable {
  organization_id: string;
  space_id: string;
  comment_id: string;
  reply_id: string | null;
  emoji: string;
  user_id: string;
  reacted_at: Timestamp;
}

/** A review requested of a user or of a team of the organization (exactly one). */
export interface ChangeRequestReviewersTable {
  organization_id: string;
  space_id: string;
  change_request_id: string;
  user_id: string | null;
  team_id: string | null;
  /** Generated: the user's or the team's id, the key of a request within its change request. */
  reviewer_id: ColumnType<string, never, never>;
  requested_by: string | null;
  revision_id: string;
  created_at: Timestamp;
}

export type SiteType = 'basic' | 'premium' | 'ultimate' | 'sponsored' | 'legacy-basic' | 'legacy-premium';
export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
type Json<T> = ColumnType<T | null, string | null | undefined, string | null>;
/**
 * Where a hostname claim stands: `pending` (not looked up yet), `live`
 * (proven, routing), `missing` (no record holds the token), `mismatch` (a
 * record without the token), `contested` (the token is there, but so is the
 * token of the site that holds it live), `dns-error` (the lookup failed).
 */
export type HostnameStatus = 'pending' | 'live' | 'missing' | 'mismatch' | 'contested' | 'dns-error';

export interface SitesTable {
  id: string;
  organization_id: string;
  type: Generated<SiteType>;
  title: string;
  visibility: Generated<SiteVisibility>;
  published: Generated<boolean>;
  basename: string | null;
  /**
   * A custom hostname claimed for the site (lower case, no trailing dot). It
   * routes, and is the site's published address, only once proven: then
   * hostname_verified_at is set and hostname_status is `live`.
   */
  hostname: string | null;
  /** The value `_quire-challenge.<hostname>` must hold in a TXT record to prove the claim. */
  hostname_token: string | null;
  hostname_status: HostnameStatus | null;
  /** When the record was last looked up, by a revalidation or the periodic check. */
  hostname_checked_at: NullableTimestamp;
  hostname_verified_at: NullableTimestamp;
  proxy: string | null;
  agents_context: Generated<'excluded' | 'included'>;
  adaptive_enabled: Generated<boolean>;
  adaptive_schema: Json<Record<string, unknown>>;
  adaptive_schema_updated_at: NullableTimestamp;
  customization: Json<Record<string, unknown>>;
  auth_backend: Generated<'custom' | 'integration'>;
  auth_fallback_url: string | null;
  auth_private_key_encrypted: string;
  default_section_id: string | null;
  default_site_space_id: string | null;
  /** Kept by triggers: site spaces whose space is not in the trash. */
  site_spaces_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * A basename a site gave up: it stays its organization's (lower case), and
 * leads to `site_id`, the site that last went by it, while that exists.
 */
export interface RetiredSiteAddressesTable {
  organization_id: string;
  basename: string;
  site_id: string | null;
  retired_at: Timestamp;
}

/** An integration name its organization unpublished: it stays theirs to publish again. */
export interface RetiredIntegrationNamesTable {
  organization_id: string;
  name: string;
  retired_at: Timestamp;
}

export interface SiteSectionGroupsTable {
  id: string;
  organization_id: string;
  site_id: string;
  parent_id: string | null;
  title: string;
  icon: string | null;
  position: number;
  created_at: Timestamp;
}

export interface SiteSectionsTable {
  id: string;
  organization_id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  position: number;
  default_site_space_id: string | null;
  created_at: Timestamp;
}

export interface SiteSpacesTable {
  id: string;
  organization_id: string;
  site_id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  condition: string | null;
  position: number;
  created_at: Timestamp;
}

export interface SiteShareLinksTable {
  id: string;
  organization_id: string;
  site_id: string;
  name: Generated<string>;
  active: Generated<boolean>;
  key_hash: Buffer;
  key_encrypted: string;
  created_at: Timestamp;
}

export interface TranslationSettingsTable {
  id: string;
  organization_id: string;
  title: string;
  languages: Generated<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// ---- OpenAPI specs (src/specs): tables go here ----

/** An error of a spec's last failed processing, as the OpenAPI spec's `OpenAPIErrorObject`. */
export interface SpecProcessError {
  message: string;
  code?: string;
}

export interface OpenapiSpecsTable {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null;
  source_text: string | null;
  visibility: Generated<'private' | 'public'>;
  processing_state: Generated<'pending' | 'progress' | 'complete'>;
  last_version_id: string | null;
  last_processed_at: NullableTimestamp;
  last_process_error_code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR' | null;
  last_processed_errors: ColumnType<SpecProcessError[] | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OpenapiSpecVersionsTable {
  id: string;
  organization_id: string;
  spec_id: string;
  source_url: string | null;
  content_hash: string;
  entry_text: string;
  entry_format: 'json' | 'yaml';
  /** Written as JSON text; read it as text (`filesystem::text`) to serve it without parsing. */
  filesystem: ColumnType<unknown, string, string>;
  outline: ColumnType<unknown, string, string>;
  created_at: Timestamp;
}

export interface OpenapiSpecJobsTable {
  id: string;
  organization_id: string;
  spec_id: string;
  state: Generated<'pending' | 'running'>;
  attempts: Generated<number>;
  run_after: Timestamp;
  locked_until: NullableTimestamp;
  lease_token: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// ---- Integrations (src/integrations): tables go here ----

/** A JSON column the integrations domain writes as JSON text and reads parsed. */
type JsonColumn<T> = ColumnType<T, string | undefined, string>;

export type IntegrationVisibility = 'public' | 'private' | 'unlisted';
export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';

export interface IntegrationsTable {
  id: string;
  organization_id: string;
  name: string;
  version: Generated<number>;
  runtime: Generated<'v1' | 'v2'>;
  title: string;
  description: string;
  summary: string | null;
  visibility: IntegrationVisibility;
  target: Generated<IntegrationTarget>;
  scopes: Generated<string[]>;
  categories: Generated<string[]>;
  blocks: JsonColumn<unknown[]>;
  content_sources: JsonColumn<unknown[]>;
  configurations: JsonColumn<Record<string, unknown>>;
  external_links: JsonColumn<unknown[]>;
  /** JSON: a string, or an object of directives. */
  content_security_policy: ColumnType<object | null, string | null | undefined, string | null>;
  block_domains: Generated<string[]>;
  has_blocks: ColumnType<boolean, never, never>;
  has_content_sources: ColumnType<boolean, never, never>;
  icon: string | null;
  preview_images: Generated<string[]>;
  script: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationAssetsTable {
  id: string;
  organization_id: string;
  integration_id: string;
  content_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  sha256: Buffer;
  created_at: Timestamp;
}

export interface IntegrationSecretsTable {
  integration_id: string;
  organization_id: string;
  name: string;
  sealed: string;
  key_id: string;
  created_at: Timestamp;
}

export interface IntegrationInstallationsTable {
  id: string;
  organization_id: string;
  integration_id: string;
  status: Generated<'active' | 'pending' | 'paused'>;
  configuration: JsonColumn<Record<string, unknown>>;
  external_ids: Generated<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationSpaceInstallationsTable {
  installation_id: string;
  organization_id: string;
  space_id: string;
  configuration: JsonColumn<Record<string, unknown>>;
  external_ids: Generated<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IntegrationSiteInstallationsTable {
  installation_id: string;
  organization_id: string;
  site_id: string;
  configuration: JsonColumn<Record<string, unknown>>;
  external_ids: Generated<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  service_settings: ServiceSettingsTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  app_sessions: AppSessionsTable;
  import_leases: ImportLeasesTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_reach: TeamReachTable;
  comment_thread_ticks: CommentThreadTicksTable;
  organization_roster_ticks: OrganizationRosterTicksTable;
  user_profile_clock: UserProfileClockTable;
  integration_catalog_clock: IntegrationCatalogClockTable;
  change_request_ticks: ChangeRequestTicksTable;
  organization_ticks: OrganizationTicksTable;
  content_grants: ContentGrantsTable;
  saml_providers: SamlProvidersTable;
  organization_invites: OrganizationInvitesTable;
  organization_email_invitations: OrganizationEmailInvitationsTable;
  organization_events: OrganizationEventsTable;
  change_requests: ChangeRequestsTable;
  revisions: RevisionsTable;
  documents: DocumentsTable;
  search_sections: SearchSectionsTable;
  page_versions: PageVersionsTable;
  blobs: BlobsTable;
  file_versions: FileVersionsTable;
  tree_entries: TreeEntriesTable;
  reusable_content_versions: ReusableContentVersionsTable;
  comments: CommentsTable;
  comment_replies: CommentRepliesTable;
  comment_reactions: CommentReactionsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
  sites: SitesTable;
  retired_site_addresses: RetiredSiteAddressesTable;
  retired_integration_names: RetiredIntegrationNamesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_share_links: SiteShareLinksTable;
  translation_settings: TranslationSettingsTable;
  // ---- OpenAPI specs (src/specs) ----
  openapi_specs: OpenapiSpecsTable;
  openapi_spec_versions: OpenapiSpecVersionsTable;
  openapi_spec_jobs: OpenapiSpecJobsTable;
  // ---- Integrations (src/integrations) ----
  integrations: IntegrationsTable;
  integration_assets: IntegrationAssetsTable;
  integration_secrets: IntegrationSecretsTable;
  integration_installations: IntegrationInstallationsTable;
  integration_space_installations: IntegrationSpaceInstallationsTable;
  integration_site_installations: IntegrationSiteInstallationsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type OrganizationUpdate = Updateable<OrganizationsTable>;
export type OrganizationMemberRow = Selectable<OrganizationMembersTable>;
export type CollectionRow = Selectable<CollectionsTable>;
export type CollectionUpdate = Updateable<CollectionsTable>;
export type SpaceUpdate = Updateable<SpacesTable>;
export type ChangeRequestRow = Selectable<ChangeRequestsTable>;
export type RevisionRow = Selectable<RevisionsTable>;
export type PageVersionRow = Selectable<PageVersionsTable>;
export type NewPageVersion = Insertable<PageVersionsTable>;
export type FileVersionRow = Selectable<FileVersionsTable>;
export type NewFileVersion = Insertable<FileVersionsTable>;
export type ReusableContentVersionRow = Selectable<ReusableContentVersionsTable>;
export type NewReusableContentVersion = Insertable<ReusableContentVersionsTable>;
/** A comment as read: its thread_key is only for the indexes. */
/** Rows as the service reads them: a body's document is read only where the document form is asked for. */
export type CommentRow = Omit<Selectable<CommentsTable>, 'thread_key' | 'body_document'>;
export type CommentReplyRow = Omit<Selectable<CommentRepliesTable>, 'body_document'>;
export type ChangeRequestReviewerRow = Selectable<ChangeRequestReviewersTable>;
