import type { ColumnType } from 'kysely';

/**
 * The types of columns the database describes only loosely (text with a CHECK, JSON),
 * as the service reads and writes them: kysely-codegen writes them into the generated
 * tables (src/db/kysely-codegen.json lists which column has which).
 */

/**
 * GitBook's JSON document as stored beside the markdown it was made from
 * (the content module's JSONDocument); null on rows written before it was kept.
 */
export interface StoredJsonDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: unknown[];
}

export type StoredDocument = ColumnType<StoredJsonDocument | null, string | null | undefined, string | null>;

/** A JSON array written as JSON text: null on rows written before it was kept. */
export type StoredJsonArray = ColumnType<unknown[] | null, string | null | undefined, string | null>;

export type Role = 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read';

/** An organization's merge rules, as the spec's MergeRulesStandaloneConfiguration (checked by its schema on write). */
export type MergeRules = { type: 'none' } | { type: 'rules'; rules: StoredMergeRule[] };

/** A review's decision, as the spec's ChangeRequestReviewStatus. */
export type ReviewStatus = 'approved' | 'changes-requested';

/** A space's: the organization's (`inherit`), or its own. */
export type SpaceMergeRules = { type: 'inherit' } | MergeRules;

/** One rule of the spec's MergeRule, as stored. */
export type StoredMergeRule =
  | { rule: 'require_specific_reviewers' | 'require_one_of_specific_reviewers' | 'allow_bypass'; users: string[] }
  | {
      rule:
        | 'require_at_least_one_review'
        | 'require_at_least_one_approved_review'
        | 'require_all_reviews_approved'
        | 'require_up_to_date_change_request'
        | 'require_change_request_subject'
        | 'require_author_to_merge';
    };

/** A role, 'inherit' (take the parent's), or null (nothing beyond the organization role). */
export type DefaultLevel = Role | 'inherit' | null;

export type Visibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

export type TeamRole = 'owner' | 'member';

export type OrganizationEventType = 'member_token_issued';

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

/** What a tree entry holds a version of. */
export type TreeEntryKind = 'page' | 'file' | 'reusable_content';

export type CommentStatus = 'open' | 'resolved';

export type SiteType = 'basic' | 'premium' | 'ultimate' | 'sponsored' | 'legacy-basic' | 'legacy-premium';

export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export type JsonText<T> = ColumnType<T | null, string | null | undefined, string | null>;

/**
 * Where a hostname claim stands: `pending` (not looked up yet), `live`
 * (proven, routing), `missing` (no record holds the token), `mismatch` (a
 * record without the token), `contested` (the token is there, but so is the
 * token of the site that holds it live), `dns-error` (the lookup failed).
 */
export type HostnameStatus = 'pending' | 'live' | 'missing' | 'mismatch' | 'contested' | 'dns-error';

// ---- OpenAPI specs (src/specs): tables go here ----

/** An error of a spec's last failed processing, as the OpenAPI spec's `OpenAPIErrorObject`. */
export interface SpecProcessError {
  message: string;
  code?: string;
}

// ---- Integrations (src/integrations): tables go here ----

/** A JSON column the integrations domain writes as JSON text and reads parsed. */
export type JsonColumn<T> = ColumnType<T, string | undefined, string>;

export type IntegrationVisibility = 'public' | 'private' | 'unlisted';

export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';

// ---- Revision diffs (src/change-requests/semantic-changes): tables go here ----

/** A NOT NULL JSON column without a default: written as JSON text, always on insert, and read parsed. */
export type RequiredJsonColumn<T> = ColumnType<T, string, string>;
