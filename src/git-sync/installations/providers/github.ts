import type { GitSyncBranch, GitSyncRepository, GitSyncRepositoryFile } from '../schemas.js';
import { bodyOf, field, getJson, isArray, isNumber, isObject, isString, MAX_PAGES, type ProviderApi } from './rest.js';

/**
 * GitHub's REST API (github.com, or a GitHub Enterprise Server at its
 * `/api/v3`), with a token: a fine-grained or classic personal access token,
 * or a GitHub App's installation token. Lists follow the `Link` header's
 * next page, on the API's own origin only.
 */

/** The next page GitHub's `Link` header names, if any. */
export function nextLink(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(',')) {
    const [target, ...params] = part.split(';').map((piece) => piece.trim());
    if (target?.startsWith('<') && target.endsWith('>') && params.some((param) => param === 'rel="next"'))
      return target.slice(1, -1);
  }
  return undefined;
}

async function listAll(api: ProviderApi, path: string, missing: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let next: string | undefined = path;
  for (let page = 0; next !== undefined && page < MAX_PAGES; page++) {
    const response = await getJson(api, next, missing);
    items.push(...field(api, bodyOf(api, response), isArray, 'a list'));
    next = nextLink(response.headers.link);
  }
  return items;
}

function repositoryOf(api: ProviderApi, raw: unknown): GitSyncRepository & { cloneUrl: string } {
  const repository = field(api, raw, isObject, 'a repository');
  const owner = field(api, repository.owner, isObject, "a repository's owner");
  const defaultBranch = repository.default_branch;
  return {
    id: field(api, repository.id, isNumber, "a repository's id"),
    accountName: field(api, owner.login, isString, "a repository owner's login"),
    repositoryName: field(api, repository.name, isString, "a repository's name"),
    fullName: field(api, repository.full_name, isString, "a repository's full name"),
    defaultBranch: isString(defaultBranch) ? defaultBranch : null,
    cloneUrl: field(api, repository.clone_url, isString, "a repository's clone URL"),
  };
}

/** The repositories the token reaches. */
export async function listGitHubRepositories(api: ProviderApi): Promise<GitSyncRepository[]> {
  const items = await listAll(api, '/user/repos?per_page=100&sort=full_name', 'GitHub has no such account');
  return items.map((item) => {
    const { cloneUrl: _cloneUrl, ...repository } = repositoryOf(api, item);
    return repository;
  });
}

/** A repository by its id, with the URL Git clones it at. */
export async function findGitHubRepository(api: ProviderApi, repositoryId: number) {
  const response = await getJson(api, `/repositories/${repositoryId}`, 'GitHub has no repository with this id');
  return repositoryOf(api, bodyOf(api, response));
}

const repoPath = (owner: string, name: string) => `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;

export async function listGitHubBranches(api: ProviderApi, owner: string, name: string): Promise<GitSyncBranch[]> {
  const items = await listAll(api, `${repoPath(owner, name)}/branches?per_page=100`, 'GitHub has no such repository');
  return items.map((item) => {
    const branch = field(api, field(api, item, isObject, 'a branch').name, isString, "a branch's name");
    return { name: branch, ref: `refs/heads/${branch}` };
  });
}

export async function findGitHubFile(
  api: ProviderApi,
  owner: string,
  name: string,
  path: string,
  ref: string,
): Promise<GitSyncRepositoryFile | undefined> {
  const encoded = path.split('/').filter(Boolean).map(encodeURIComponent).join('/');
  const response = await getJson(
    api,
    `${repoPath(owner, name)}/contents/${encoded}?ref=${encodeURIComponent(ref)}`,
    'GitHub has no such file in the repository at this ref',
  );
  const body = bodyOf(api, response);
  // A folder's path answers with its entries: not a file.
  if (!isObject(body) || body.type !== 'file') return undefined;
  return {
    name: field(api, body.name, isString, "a file's name"),
    path: field(api, body.path, isString, "a file's path"),
    sha: field(api, body.sha, isString, "a file's sha"),
    size: field(api, body.size, isNumber, "a file's size"),
  };
}
