import { Errors } from 'isomorphic-git';
import { OutboundError } from '../../core/outbound.js';

/**
 * Why talking to a Git remote failed, in words for the space's admin (the
 * sync status shows them): the remote refused the credentials, has no such
 * repository, could not be reached, or sent more than the service takes.
 * Never the remote's own error text, which may echo the URL with its token.
 */
export type GitFailure = 'auth' | 'not-found' | 'unreachable' | 'too-large' | 'refused' | 'malformed' | 'timeout';

export class GitRemoteError extends Error {
  constructor(
    message: string,
    readonly failure: GitFailure,
  ) {
    super(message);
    this.name = 'GitRemoteError';
  }
}

/** The remote's failure as a GitRemoteError; `url` has no credentials. */
export function describeGitFailure(url: string, error: unknown): GitRemoteError {
  if (error instanceof GitRemoteError) return error;
  const host = safeHost(url);
  if (error instanceof OutboundError) {
    if (error.failure === 'too-large') return new GitRemoteError(error.message, 'too-large');
    if (error.failure === 'refused') return new GitRemoteError(error.message, 'refused');
    return new GitRemoteError(error.message, 'unreachable');
  }
  if (error instanceof Errors.HttpError) {
    const status = error.data.statusCode;
    if (status === 401 || status === 403)
      return new GitRemoteError(`The Git server at ${host} refused the credentials (HTTP ${status})`, 'auth');
    if (status === 404)
      return new GitRemoteError(`The Git server at ${host} has no repository at this URL`, 'not-found');
    return new GitRemoteError(`The Git server at ${host} answered HTTP ${status}`, 'unreachable');
  }
  if (error instanceof Errors.SmartHttpError || error instanceof Errors.ParseError) {
    return new GitRemoteError(`The server at ${host} does not speak Git's smart HTTP protocol`, 'malformed');
  }
  return new GitRemoteError(`The Git server at ${host} could not be read`, 'unreachable');
}

function safeHost(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/`;
  } catch {
    return 'the remote';
  }
}
