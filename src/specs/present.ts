import type { Urls } from '../core/urls.js';
import type { Role } from '../db/types.js';
import type { SpecFields, VersionFields } from './queries.js';
import type { OpenAPISpec, OpenAPISpecVersion } from './schemas.js';

export const specLocation = (urls: Urls, organizationId: string, slug: string) =>
  urls.api('orgs', organizationId, 'openapi', slug);

export function presentSpec(row: SpecFields, role: Role, urls: Urls): OpenAPISpec {
  const spec: OpenAPISpec = {
    object: 'openapi-spec',
    id: row.id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    slug: row.slug,
    processingState: row.processing_state,
    visibility: row.visibility,
    lastProcessedErrorCount: row.last_processed_errors?.length ?? 0,
    permissions: { view: true, edit: role === 'admin' },
    urls: {
      location: specLocation(urls, row.organization_id, row.slug),
      app: urls.app('o', row.organization_id, 'openapi', row.slug),
    },
  };
  if (row.source_url !== null) spec.sourceURL = row.source_url;
  if (row.last_version_id !== null) spec.lastVersion = row.last_version_id;
  if (row.last_processed_at !== null) spec.lastProcessedAt = row.last_processed_at.toISOString();
  if (row.last_process_error_code !== null) spec.lastProcessErrorCode = row.last_process_error_code;
  if (row.last_processed_errors !== null) spec.lastProcessedErrors = row.last_processed_errors;
  return spec;
}

/**
 * Where a version's entry file can be read: the URL it was fetched from, or,
 * for a spec given as text, this service's copy of it.
 */
export function versionUrl(row: VersionFields, slug: string, urls: Urls): string {
  return row.source_url ?? urls.api('orgs', row.organization_id, 'openapi', slug, 'versions', row.id, 'raw');
}

export function presentVersion(row: VersionFields, slug: string, urls: Urls): OpenAPISpecVersion {
  return {
    object: 'openapi-spec-version',
    id: row.id,
    createdAt: row.created_at.toISOString(),
    url: versionUrl(row, slug, urls),
    urls: { location: urls.api('orgs', row.organization_id, 'openapi', slug, 'versions', row.id) },
  };
}

/** A version's content as JSON text, its files spliced in as stored: a large spec is never parsed to be served. */
export function versionContentJson(filesystemJson: string, url: string): string {
  return `{"filesystem":${filesystemJson},"url":${JSON.stringify(url)}}`;
}
