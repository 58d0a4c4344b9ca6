import type { GitSyncBranch, GitSyncRepository, GitSyncRepositoryFile } from '../schemas.js';
import { bodyOf, field, getJson, isArray, isNumber, isObject, isString, MAX_PAGES, type ProviderApi } from './rest.js';

/**
 * GitLab's REST API (gitlab.com, or a self-hosted GitLab at its `/api/v4`),
 * with a personal, group or project access token. Lists follow the
 * `X-Next-Page` header.
 */

async function listAll(api: ProviderApi, path: string, missing: string): Promise<unknown[]> {
  const items: unknown[] = [];
  const separator = path.includes('?') ? '&' : '?';
  let page: string | undefined = '1';
  for (let read = 0; page !== undefined && read < MAX_PAGES; read++) {
    const response = await getJson(api, `${path}${separator}per_page=100&page=${page}`, missing);
    items.push(...field(api, bodyOf(api, response), isArray, 'a list'));
    const next = response.headers['x-next-page']?.trim();
    page = next && /^\d{1,9}$/.test(next) ? next : undefined;
  }
  return items;
}

function projectOf(api: ProviderApi, raw: unknown): GitSyncRepository & { cloneUrl: string } {
  const project = field(api, raw, isObject, 'a project');
  const namespace = field(api, project.namespace, isObject, "a project's namespace");
  const defaultBranch = project.default_branch;
  return {
    id: field(api, project.id, isNumber, "a project's id"),
    accountName: field(api, namespace.full_path, isString, "a project namespace's path"),
    repositoryName: field(api, project.path, isString, "a project's path"),
    fullName: field(api, project.path_with_namespace, isString, "a project's full path"),
    defaultBranch: isString(defaultBranch) ? defaultBranch : null,
    cloneUrl: field(api, project.http_url_to_repo, isString, "a project's clone URL"),
  };
}

/** The projects the token's user is a member of. */
export async function listGitLabProjects(api: ProviderApi): Promise<GitSyncRepository[]> {
  const items = await listAll(api, '/projects?membership=true&order_by=path&sort=asc', 'GitLab has no such user');
  return items.map((item) => {
    const { cloneUrl: _cloneUrl, ...project } = projectOf(api, item);
    return project;
  });
}

export async function findGitLabProject(api: ProviderApi, projectId: number) {
  const response = await getJson(api, `/projects/${projectId}`, 'GitLab has no project with this id');
  return projectOf(api, bodyOf(api, response));
}

export async function listGitLabBranches(api: ProviderApi, projectId: number): Promise<GitSyncBranch[]> {
  const items = await listAll(api, `/projects/${projectId}/repository/branches`, 'GitLab has no such project');
  return items.map((item) => {
    const branch = field(api, field(api, item, isObject, 'a branch').name, isString, "a branch's name");
    return { name: branch, ref: `refs/heads/${branch}` };
  });
}

export async function findGitLabFile(
  api: ProviderApi,
  projectId: number,
  path: string,
  ref: string,
): Promise<GitSyncRepositoryFile> {
  const response = await getJson(
    api,
    `/projects/${projectId}/repository/files/${encodeURIComponent(path)}?ref=${encodeURIComponent(ref)}`,
    'GitLab has no such file in the project at this ref',
  );
  const body = field(api, bodyOf(api, response), isObject, 'a file');
  return {
    name: field(api, body.file_name, isString, "a file's name"),
    path: field(api, body.file_path, isString, "a file's path"),
    sha: field(api, body.blob_id, isString, "a file's blob id"),
    size: field(api, body.size, isNumber, "a file's size"),
  };
}
