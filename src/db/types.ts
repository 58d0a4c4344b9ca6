import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DB } from './tables.generated.js';

/**
 * The tables as kysely-codegen writes them from the migrated schema
 * (tables.generated.ts: `npm run db:types`; test/db-types.test.ts fails when
 * it differs from what the migrations make), with the column types the
 * schema states only loosely (column-types.ts, named in kysely-codegen.json),
 * under the names the code uses.
 */
export type * from './column-types.js';
export type Database = DB;

export type ServiceSettingsTable = DB['service_settings'];
export type UsersTable = DB['users'];
export type ApiTokensTable = DB['api_tokens'];
export type AppSessionsTable = DB['app_sessions'];
export type ImportLeasesTable = DB['import_leases'];
export type OrganizationsTable = DB['organizations'];
export type OrganizationMembersTable = DB['organization_members'];
export type CollectionsTable = DB['collections'];
export type SpacesTable = DB['spaces'];
export type TeamsTable = DB['teams'];
export type TeamMembersTable = DB['team_members'];
export type TeamReachTable = DB['team_reach'];
export type CommentThreadTicksTable = DB['comment_thread_ticks'];
export type OrganizationRosterTicksTable = DB['organization_roster_ticks'];
export type UserProfileClockTable = DB['user_profile_clock'];
export type IntegrationCatalogClockTable = DB['integration_catalog_clock'];
export type ChangeRequestTicksTable = DB['change_request_ticks'];
export type OrganizationTicksTable = DB['organization_ticks'];
export type ContentGrantsTable = DB['content_grants'];
export type SamlProvidersTable = DB['saml_providers'];
export type OrganizationInvitesTable = DB['organization_invites'];
export type OrganizationEmailInvitationsTable = DB['organization_email_invitations'];
export type OrganizationEventsTable = DB['organization_events'];
export type ChangeRequestsTable = DB['change_requests'];
export type RevisionsTable = DB['revisions'];
export type DocumentsTable = DB['documents'];
export type SearchSectionsTable = DB['search_sections'];
export type PageVersionsTable = DB['page_versions'];
export type BlobsTable = DB['blobs'];
export type FileVersionsTable = DB['file_versions'];
export type TreeEntriesTable = DB['tree_entries'];
export type ReusableContentVersionsTable = DB['reusable_content_versions'];
export type CommentsTable = DB['comments'];
export type CommentRepliesTable = DB['comment_replies'];
export type CommentReactionsTable = DB['comment_reactions'];
export type ChangeRequestReviewersTable = DB['change_request_reviewers'];
export type ChangeRequestReviewsTable = DB['change_request_reviews'];
export type SitesTable = DB['sites'];
export type RetiredSiteAddressesTable = DB['retired_site_addresses'];
export type RetiredIntegrationNamesTable = DB['retired_integration_names'];
export type SiteSectionGroupsTable = DB['site_section_groups'];
export type SiteSectionsTable = DB['site_sections'];
export type SiteSpacesTable = DB['site_spaces'];
export type SiteShareLinksTable = DB['site_share_links'];
export type TranslationSettingsTable = DB['translation_settings'];
export type OpenapiSpecsTable = DB['openapi_specs'];
export type OpenapiSpecVersionsTable = DB['openapi_spec_versions'];
export type OpenapiSpecJobsTable = DB['openapi_spec_jobs'];
export type IntegrationsTable = DB['integrations'];
export type IntegrationAssetsTable = DB['integration_assets'];
export type IntegrationSecretsTable = DB['integration_secrets'];
export type IntegrationInstallationsTable = DB['integration_installations'];
export type IntegrationSpaceInstallationsTable = DB['integration_space_installations'];
export type IntegrationSiteInstallationsTable = DB['integration_site_installations'];

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
