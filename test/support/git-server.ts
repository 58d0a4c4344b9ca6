import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A Git server on 127.0.0.1 for the tests: the `git` binary's own smart HTTP
 * backend (`git http-backend`, run as CGI per request) over bare repositories
 * in a throwaway folder, pushes allowed, behind basic auth when a password is
 * set. What the service talks to is real Git, not a fake of it.
 */
export interface GitServer {
  /** `http://127.0.0.1:<port>/<name>.git` */
  url(name: string): string;
  /** Creates an empty bare repository. */
  create(name: string): Promise<void>;
  /** Runs `git` with `args` in a bare repository, and returns its standard output. */
  git(name: string, args: string[], input?: string): Promise<string>;
  /** Commits `files` (path → text) on `branch` of the repository as its whole tree, with the `git` binary. */
  commit(name: string, branch: string, files: Record<string, string>, message?: string): Promise<string>;
  /** Requests the server answered, in order, as `METHOD path?query`. */
  requests: string[];
  close(): Promise<void>;
}

export interface GitServerOptions {
  /** Basic auth the server asks for. */
  auth?: { username: string; password: string };
  /** Runs before the server answers a request, to make something happen between two of a client's requests. */
  beforeRequest?: (request: { method: string; url: string }) => Promise<void>;
}

export async function startGitServer({ auth, beforeRequest }: GitServerOptions = {}): Promise<GitServer> {
  const root = await mkdtemp(path.join(tmpdir(), 'git-server-'));
  const requests: string[] = [];
  const expected = auth ? `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` : undefined;

  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (expected && request.headers.authorization !== expected) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    request.pause();
    void (beforeRequest?.({ method: request.method ?? 'GET', url: request.url ?? '/' }) ?? Promise.resolve()).then(
      () => cgi(root, request, response),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const gitIn = async (name: string, args: string[], input?: string) => {
    const child = run('git', args, { cwd: path.join(root, `${name}.git`), env: gitEnv(), maxBuffer: 64 << 20 });
    if (input !== undefined) child.child.stdin?.end(input);
    return (await child).stdout;
  };

  return {
    url: (name) => `http://127.0.0.1:${port}/${name}.git`,
    async create(name) {
      await run('git', ['init', '--bare', '--quiet', '--initial-branch=main', path.join(root, `${name}.git`)]);
      await gitIn(name, ['config', 'http.receivepack', 'true']);
    },
    git: gitIn,
    async commit(name, branch, files, message = 'Edit') {
      const work = await mkdtemp(path.join(tmpdir(), 'git-work-'));
      try {
        const index = path.join(work, 'index');
        const env = { ...gitEnv(), GIT_INDEX_FILE: index };
        const cwd = path.join(root, `${name}.git`);
        const entries: string[] = [];
        for (const [file, text] of Object.entries(files)) {
          const hashed = run('git', ['hash-object', '-w', '--stdin'], { cwd, env });
          hashed.child.stdin?.end(text);
          entries.push(`100644 blob ${(await hashed).stdout.trim()}\t${file}`);
        }
        const indexed = run('git', ['update-index', '--add', '--index-info'], { cwd, env });
        indexed.child.stdin?.end(`${entries.join('\n')}\n`);
        await indexed;
        const tree = (await run('git', ['write-tree'], { cwd, env })).stdout.trim();
        const parent = await run('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd, env })
          .then((result) => result.stdout.trim())
          .catch(() => '');
        const args = ['commit-tree', tree, '-m', message, ...(parent ? ['-p', parent] : [])];
        const commit = (await run('git', args, { cwd, env })).stdout.trim();
        await run('git', ['update-ref', `refs/heads/${branch}`, commit], { cwd, env });
        return commit;
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

function gitEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Git Server',
    GIT_AUTHOR_EMAIL: 'git@server.test',
    GIT_COMMITTER_NAME: 'Git Server',
    GIT_COMMITTER_EMAIL: 'git@server.test',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
}

/** One request through `git http-backend` as CGI: the request's body in, its headers and body out. */
function cgi(root: string, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://git.test');
  const backend = spawn('git', ['http-backend'], {
    env: {
      ...gitEnv(),
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: request.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      ...(request.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] } : {}),
      REMOTE_USER: 'tester',
      REMOTE_ADDR: '127.0.0.1',
    },
  });
  request.pipe(backend.stdin);
  const chunks: Buffer[] = [];
  backend.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  backend.on('close', () => {
    const output = Buffer.concat(chunks);
    const end = output.indexOf('\r\n\r\n');
    const split = end >= 0 ? end : output.indexOf('\n\n');
    const headerText = output.subarray(0, split).toString('latin1');
    const body = output.subarray(split + (end >= 0 ? 4 : 2));
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of headerText.split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'status') status = Number(value.split(' ')[0]);
      else headers[name] = value;
    }
    response.writeHead(status, headers).end(body);
  });
}
