import { BadRequestError } from '../../core/errors.js';

/**
 * A Git remote as the GitBook API names one: an HTTPS URL that may carry
 * basic-auth credentials (`https://user:token@host/repo.git`) and a ref
 * (`refs/heads/main`). The credentials are taken out of the URL: they are
 * sent as an `Authorization` header, and the URL alone may be shown or logged.
 */
export interface GitRemote {
  /** The URL without credentials. */
  url: string;
  /** `refs/heads/<branch>`. */
  ref: string;
  /** The `Authorization` header value, when the URL carried credentials. */
  authorization?: string;
}

/** A branch name Git accepts: no `..`, no control characters, spaces, `~^:?*[\`, no `//`, no `.lock` or `/` at the end. */
const BRANCH_REF = /^refs\/heads\/(?!.*(?:\.\.|\/\/|@\{|\.lock(?:\/|$)))[^\s~^:?*[\\\x00-\x1f\x7f]{1,200}(?<![/.])$/;

export function gitRemote(rawUrl: string, ref: string): GitRemote {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new BadRequestError('url must be an absolute http or https URL of a Git repository');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BadRequestError('url must be an http or https URL of a Git repository');
  }
  if (!BRANCH_REF.test(ref) || ref.split('/').some((part) => part.startsWith('.'))) {
    throw new BadRequestError('ref must be a branch, as refs/heads/<name>');
  }
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  url.hash = '';
  return {
    url: url.href,
    ref,
    ...(username !== '' || password !== ''
      ? { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` }
      : {}),
  };
}
