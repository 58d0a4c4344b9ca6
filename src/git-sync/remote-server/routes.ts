import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { callerOf, organizationReach, type Caller } from '../../access/auth.js';
import { scopesAllow, type Scope } from '../../access/scopes.js';
import { findEditableSpace, findVisibleSpace } from '../../access/spaces.js';
import { ApiError, ForbiddenError, UnauthorizedError } from '../../core/errors.js';
import { spawnGit } from './git-process.js';
import { syncHistory } from './history.js';
import { FLUSH, pktLine } from './pkt-line.js';
import { PushReader } from './read-pool.js';
import { receivePush } from './receive.js';
import { ensureRepository, withSpaceLock } from './repository.js';

/**
 * Every space is a Git remote: `git clone`, `git pull` and `git push` at
 * `/git/{spaceId}.git` over Git's smart HTTP (gitprotocol-http), with an
 * API token as the password. Outside /v1: the bodies are Git's, not JSON,
 * and the routes are left out of the OpenAPI document. A fetch needs read
 * on the space and the space:read scope (someone who is no member reads
 * main only, where visibility opens the space to them); a push needs the
 * edit role and space:write, and a merge into main change-request:merge too.
 */

const REALM = 'Basic realm="Quire Git", charset="UTF-8"';
const Repository = Type.String({ pattern: '^[A-Za-z0-9]{1,64}\\.git$' });
const Params = Type.Object({ repository: Repository });
const Service = Type.Union([Type.Literal('git-upload-pack'), Type.Literal('git-receive-pack')]);
/** What Git-Protocol may say (`version=2`): passed to upload-pack as GIT_PROTOCOL. */
const GIT_PROTOCOL = /^[A-Za-z0-9=:._-]{1,100}$/;
/** Most bytes of a fetch's request (its wants and haves). */
const MAX_FETCH_REQUEST_BYTES = 16 * 1024 * 1024;

const BASIC = /^Basic[ ]+([A-Za-z0-9+/=]+)[ ]*$/i;
const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

/** The token of an Authorization header: Basic with the token as password (any user name), or Bearer. */
function tokenOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const bearer = BEARER.exec(header)?.[1];
  if (bearer) return bearer;
  const basic = BASIC.exec(header)?.[1];
  if (!basic) return undefined;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) || undefined : undefined;
}

function requireScope(caller: Caller, scope: Scope): void {
  if (!scopesAllow(caller.scopes, scope)) throw new ForbiddenError(`This token lacks the "${scope}" scope`);
}

const spaceIdOf = (repository: string) => repository.slice(0, -'.git'.length);

/** The request's body as Git sent it, unzipped when Git gzipped it. */
function bodyOf(request: FastifyRequest): Readable {
  const body = request.body as Readable;
  return request.headers['content-encoding'] === 'gzip' ? body.pipe(createGunzip()) : body;
}

/** A body cut off past `limit` bytes: the stream fails, and git is stopped with it. */
function bounded(body: Readable, limit: number): Readable {
  let bytes = 0;
  const out = new PassThrough();
  body.on('data', (chunk: Buffer) => {
    bytes += chunk.byteLength;
    if (bytes > limit) {
      body.destroy();
      out.destroy(new ApiError(413, `The request is over ${limit} bytes`));
    } else if (!out.write(chunk)) {
      body.pause();
      out.once('drain', () => body.resume());
    }
  });
  body.on('end', () => out.end());
  body.on('error', (error) => out.destroy(error));
  return out;
}

export const gitRemoteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = app.context;
  const reader = new PushReader(context.config.gitRemote.timeoutMs, (error) =>
    app.log.error({ err: error }, 'A Git push reading thread failed'),
  );
  app.addHook('onClose', async () => reader.close());

  for (const type of ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request']) {
    // The body stays a stream: Git's, read by git (and counted) as it comes.
    app.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
  }

  // Git shows a 401 as a prompt for the password, and prints the body of other refusals.
  app.setErrorHandler((error, request, reply) => {
    const status = error instanceof ApiError ? error.statusCode : (error as { statusCode?: number }).statusCode;
    const code = status !== undefined && status >= 400 && status < 500 ? status : 500;
    if (code === 500) request.log.error({ err: error }, 'A Git remote request failed');
    if (code === 401) void reply.header('www-authenticate', REALM);
    const message = code === 500 ? 'The service failed to answer; try again' : (error as Error).message;
    return reply.code(code).type('text/plain; charset=utf-8').send(`${message}\n`);
  });

  // Before the rate limit, which counts a caller's requests per user as the API's are.
  app.addHook('onRequest', async (request) => {
    const token = tokenOf(request.headers.authorization);
    if (!token) throw new UnauthorizedError();
    organizationReach(await app.authenticateToken(request, token), request);
  });
  const authenticate = (request: FastifyRequest): Caller => callerOf(request);

  const protocolEnv = (request: FastifyRequest): Record<string, string> => {
    const protocol = request.headers['git-protocol'];
    return typeof protocol === 'string' && GIT_PROTOCOL.test(protocol) ? { GIT_PROTOCOL: protocol } : {};
  };

  /** The space for a fetch: read on it and space:read; its repository brought up to date. */
  const forFetch = async (request: FastifyRequest, repository: string) => {
    const caller = authenticate(request);
    requireScope(caller, 'space:read');
    const spaceId = spaceIdOf(repository);
    const { space, visitor } = await findVisibleSpace(context, spaceId, caller.userId);
    const path = await withSpaceLock(context, space.id, async () => {
      await syncHistory(context, space.organization_id, space.id);
      return ensureRepository(context, space.id);
    });
    // Someone who is no member reads the published side only: main, never a change request's branch.
    const hidden = visitor ? ['-c', 'transfer.hideRefs=refs/heads/', '-c', 'transfer.hideRefs=!refs/heads/main'] : [];
    // Protocol v2's upload-pack serves any object asked for by its hash; v0's only what the refs it shows reach.
    const protocol = (request: FastifyRequest) => (visitor ? {} : protocolEnv(request));
    return { caller, space, path, hidden, protocol };
  };

  /** The space for a push: the edit role and space:write. */
  const forPush = async (request: FastifyRequest, repository: string) => {
    const caller = authenticate(request);
    const { space } = await findEditableSpace(context, spaceIdOf(repository), caller.userId, 'Pushing to the space');
    requireScope(caller, 'space:write');
    return { caller, space };
  };

  const stream = (reply: FastifyReply, type: string, prefix: Buffer, output: Readable) => {
    const body = new PassThrough();
    body.write(prefix);
    output.pipe(body);
    return reply.header('cache-control', 'no-cache').type(type).send(body);
  };

  app.get(
    '/git/:repository/info/refs',
    {
      config: { scope: 'space:read' },
      schema: { hide: true, params: Params, querystring: Type.Object({ service: Service }) },
    },
    async (request, reply) => {
      const service = request.query.service;
      const { repository } = request.params;
      let path: string;
      let args: string[];
      let env: Record<string, string> = {};
      if (service === 'git-receive-pack') {
        const { space } = await forPush(request, repository);
        path = await withSpaceLock(context, space.id, async () => {
          await syncHistory(context, space.organization_id, space.id);
          return ensureRepository(context, space.id);
        });
        args = ['-c', 'receive.advertiseAtomic=false', '-c', 'receive.advertisePushOptions=false', 'receive-pack'];
      } else {
        const fetch = await forFetch(request, repository);
        path = fetch.path;
        args = [...fetch.hidden, 'upload-pack'];
        env = fetch.protocol(request);
      }
      const running = spawnGit([...args, '--stateless-rpc', '--advertise-refs', path], {
        env,
        timeoutMs: context.config.gitRemote.timeoutMs,
      });
      running.child.stdin.end();
      running.done.catch((error: unknown) => request.log.warn({ err: error }, 'git advertisement failed'));
      return stream(
        reply,
        `application/x-${service}-advertisement`,
        Buffer.concat([pktLine(`# service=${service}\n`), FLUSH]),
        running.child.stdout,
      );
    },
  );

  app.post(
    '/git/:repository/git-upload-pack',
    { config: { scope: 'space:read' }, schema: { hide: true, params: Params } },
    async (request, reply) => {
      const { path, hidden, protocol } = await forFetch(request, request.params.repository);
      const running = spawnGit([...hidden, 'upload-pack', '--stateless-rpc', path], {
        env: protocol(request),
        timeoutMs: context.config.gitRemote.timeoutMs,
      });
      const body = bounded(bodyOf(request), MAX_FETCH_REQUEST_BYTES);
      body.on('error', () => running.kill());
      body.pipe(running.child.stdin);
      running.done.catch((error: unknown) => request.log.warn({ err: error }, 'git upload-pack failed'));
      // A client that goes away stops its pack being made.
      reply.raw.once('close', () => running.kill());
      return stream(reply, 'application/x-git-upload-pack-result', Buffer.alloc(0), running.child.stdout);
    },
  );

  app.post(
    '/git/:repository/git-receive-pack',
    { config: { scope: 'space:write' }, schema: { hide: true, params: Params } },
    async (request, reply) => {
      const { caller, space } = await forPush(request, request.params.repository);
      const answer = await receivePush(context, {
        organizationId: space.organization_id,
        spaceId: space.id,
        userId: caller.userId,
        mayMerge: scopesAllow(caller.scopes, 'change-request:merge'),
        reader,
        body: bodyOf(request),
      });
      return reply.header('cache-control', 'no-cache').type('application/x-git-receive-pack-result').send(answer);
    },
  );
};
