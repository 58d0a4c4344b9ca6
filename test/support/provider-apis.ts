import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fakes of GitHub's and GitLab's REST APIs on 127.0.0.1 for the tests, each
 * serving what a test gives it (repositories, branches, files) with the
 * providers' own pagination (GitHub's `Link` header, GitLab's
 * `X-Next-Page`), `pageSize` items a page whatever `per_page` asks, and
 * refusing (401) any request without the token. Every request is recorded
 * with the authorization it carried.
 */
export interface FakeRepository {
  id: number;
  /** GitHub's owner login, GitLab's namespace path. */
  owner: string;
  name: string;
  defaultBranch: string | null;
  /** Where Git clones it (the test's Git server). */
  cloneUrl: string;
  branches: string[];
  /** `ref:path` → the file. */
  files?: Record<string, { sha: string; size: number }>;
  /** Folders, as `ref:path`: GitHub answers them with a list. */
  folders?: string[];
}

export interface FakeProviderApi {
  /** The API's base URL: `http://127.0.0.1:<port>` for GitHub, `…/api/v4` for GitLab. */
  url: string;
  token: string;
  repositories: FakeRepository[];
  requests: Array<{ path: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

interface Options {
  token: string;
  pageSize?: number;
  repositories?: FakeRepository[];
}

type Handler = (url: URL, origin: string) => { status: number; body: unknown; headers?: Record<string, string> };

async function serve(options: Options, prefix: string, route: (api: FakeProviderApi) => Handler) {
  const requests: FakeProviderApi['requests'] = [];
  const api = { token: options.token, repositories: options.repositories ?? [], requests } as FakeProviderApi;
  const handle = route(api);
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push({ path: request.url ?? '/', authorization: request.headers.authorization });
    const origin = `http://${request.headers.host}`;
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (request.headers.authorization !== `Bearer ${api.token}`) return answer(401, { message: 'Bad credentials' });
    const url = new URL(request.url ?? '/', origin);
    if (!url.pathname.startsWith(prefix)) return answer(404, { message: 'Not Found' });
    const result = handle(new URL(url.pathname.slice(prefix.length) + url.search, origin), `${origin}${prefix}`);
    return answer(result.status, result.body, result.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A fake no test closes (a world's) does not keep the process alive.
  server.unref();
  const { port } = server.address() as AddressInfo;
  api.url = `http://127.0.0.1:${port}${prefix}`;
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return api;
}

function paged<T>(items: T[], url: URL, pageSize: number) {
  const page = Number(url.searchParams.get('page') ?? '1');
  const slice = items.slice((page - 1) * pageSize, page * pageSize);
  return { slice, next: page * pageSize < items.length ? page + 1 : undefined };
}

const notFound = { status: 404, body: { message: 'Not Found' } };

export function startFakeGitHub(options: Options): Promise<FakeProviderApi> {
  const pageSize = options.pageSize ?? 2;
  return serve(options, '', (api) => (url, base) => {
    const present = (repository: FakeRepository) => ({
      id: repository.id,
      name: repository.name,
      full_name: `${repository.owner}/${repository.name}`,
      owner: { login: repository.owner },
      default_branch: repository.defaultBranch,
      clone_url: repository.cloneUrl,
      private: true,
    });
    const list = (items: unknown[]) => {
      const { slice, next } = paged(items, url, pageSize);
      const link = new URL(url.pathname + url.search, base);
      link.searchParams.set('page', String(next));
      const headers: Record<string, string> = next ? { link: `<${link.href}>; rel="next"` } : {};
      return { status: 200, body: slice, headers };
    };
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (url.pathname === '/user/repos') return list(api.repositories.map(present));
    if (parts[0] === 'repositories' && parts.length === 2) {
      const repository = api.repositories.find((candidate) => String(candidate.id) === parts[1]);
      return repository ? { status: 200, body: present(repository) } : notFound;
    }
    if (parts[0] !== 'repos') return notFound;
    const repository = api.repositories.find(
      (candidate) => candidate.owner === parts[1] && candidate.name === parts[2],
    );
    if (!repository) return notFound;
    if (parts[3] === 'branches') return list(repository.branches.map((name) => ({ name, commit: { sha: 'x' } })));
    if (parts[3] === 'contents') {
      const path = parts.slice(4).join('/');
      const key = `${url.searchParams.get('ref')}:${path}`;
      if (repository.folders?.includes(key)) return { status: 200, body: [{ type: 'file', name: 'x', path }] };
      const file = repository.files?.[key];
      if (!file) return notFound;
      return {
        status: 200,
        body: { type: 'file', name: path.split('/').pop(), path, sha: file.sha, size: file.size, content: '' },
      };
    }
    return notFound;
  });
}

export function startFakeGitLab(options: Options): Promise<FakeProviderApi> {
  const pageSize = options.pageSize ?? 2;
  return serve(options, '/api/v4', (api) => (url) => {
    const present = (project: FakeRepository) => ({
      id: project.id,
      path: project.name,
      path_with_namespace: `${project.owner}/${project.name}`,
      namespace: { full_path: project.owner },
      default_branch: project.defaultBranch,
      http_url_to_repo: project.cloneUrl,
    });
    const list = (items: unknown[]) => {
      const { slice, next } = paged(items, url, pageSize);
      return { status: 200, body: slice, headers: { 'x-next-page': next ? String(next) : '' } };
    };
    // GitLab's file path is one URL-encoded segment: split the raw path before decoding.
    const parts = url.pathname.split('/').filter(Boolean);
    if (url.pathname === '/projects') return list(api.repositories.map(present));
    if (parts[0] !== 'projects') return notFound;
    const project = api.repositories.find((candidate) => String(candidate.id) === parts[1]);
    if (!project) return notFound;
    if (parts.length === 2) return { status: 200, body: present(project) };
    if (parts[2] !== 'repository') return notFound;
    if (parts[3] === 'branches') return list(project.branches.map((name) => ({ name })));
    if (parts[3] === 'files' && parts.length === 5) {
      const path = decodeURIComponent(parts[4]!);
      const file = project.files?.[`${url.searchParams.get('ref')}:${path}`];
      if (!file) return notFound;
      return {
        status: 200,
        body: { file_name: path.split('/').pop(), file_path: path, blob_id: file.sha, size: file.size, content: '' },
      };
    }
    return notFound;
  });
}
