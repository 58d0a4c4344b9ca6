import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/** A column the database fills in when an insert leaves it out. */
type Generated<T> = ColumnType<T, T | undefined, T>;
type Timestamp = ColumnType<Date, Date | undefined, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

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
  position: Generated<number>;
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
  change_requests_count: Generated<number>;
  change_requests_open_count: Generated<number>;
  change_requests_draft_count: Generated<number>;
  position: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type TeamRole = 'owner' | 'member';

export interface TeamMembersTable {
  team_id: string;
  organization_id: string;
  user_id: string;
  role: Generated<TeamRole>;
  added_at: Timestamp;
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

export interface Database {
  service_settings: ServiceSettingsTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  saml_providers: SamlProvidersTable;
  organization_invites: OrganizationInvitesTable;
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
