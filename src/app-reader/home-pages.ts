import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import type { ThemeChoice } from '../reader/layout.js';
import { listMemberOrganizations } from './queries.js';
import { appHome, appPath, appPathOrHome } from './session.js';
import { appPage, type AppAnswer } from './shell.js';
import { PASSWORD_MAX_LENGTH } from '../accounts/passwords.js';
import { oidcSettings } from '../accounts/oidc.js';

/** The longest API token the sign-in form takes. */
export const MAX_TOKEN_LENGTH = 512;
/** The longest e-mail address a form takes (RFC 5321's bound on a path). */
export const MAX_EMAIL_LENGTH = 254;

/** The field of an account's e-mail address, as the sign-in and password forms ask for it. */
export function emailField(value?: string): ElementContent[] {
  return [
    h('label', { htmlFor: 'quire-email' }, 'E-mail address'),
    h('input', {
      id: 'quire-email',
      name: 'email',
      type: 'email',
      autocomplete: 'username',
      required: true,
      maxLength: MAX_EMAIL_LENGTH,
      ...(value ? { value } : {}),
    }),
  ];
}

/** The sign-in page: e-mail and password for people, or an API token (kept in an HttpOnly cookie) for automation. */
export function signInPage(
  context: Context,
  next: string | undefined,
  error: string | undefined,
  theme: ThemeChoice | undefined,
  email?: string,
  notice?: string,
): AppAnswer {
  const nextField = next ? [h('input', { type: 'hidden', name: 'next', value: appPathOrHome(context, next) })] : [];
  return appPage(context, undefined, theme, 200, {
    title: 'Sign in',
    home: { href: appHome(context), title: 'Quire' },
    main: [
      h('div.sign-in', [
        h('h1', 'Sign in'),
        ...(notice ? [h('p.notice', { role: 'status' }, notice)] : []),
        ...(error ? [h('p.error', { role: 'alert' }, error)] : []),
        h('form', { action: context.urls.app('sign-in', 'password'), method: 'post' }, [
          ...emailField(email),
          h('label', { htmlFor: 'quire-password' }, 'Password'),
          h('input', {
            id: 'quire-password',
            name: 'password',
            type: 'password',
            autocomplete: 'current-password',
            required: true,
            maxLength: PASSWORD_MAX_LENGTH,
          }),
          ...nextField,
          h('button', { type: 'submit' }, 'Sign in'),
        ]),
        h('p', h('a', { href: context.urls.app('password-reset') }, 'Forgot your password?')),
        ...providerSignIn(context, next),
        h('h2', 'With your organization’s single sign-on'),
        h('form', { action: context.urls.app('sign-in', 'sso'), method: 'get' }, [
          h('label', { htmlFor: 'quire-sso-email' }, 'Your work e-mail'),
          h('input', {
            id: 'quire-sso-email',
            name: 'email',
            type: 'email',
            autocomplete: 'email',
            required: true,
            maxLength: MAX_EMAIL_LENGTH,
          }),
          ...nextField,
          h('button', { type: 'submit' }, 'Continue to single sign-on'),
        ]),
        h('h2', 'With an API token'),
        h(
          'p',
          'Paste an API token to read what it may read: for a first sign-in before you set a password, or for automation. The token stays in this browser, in a cookie scripts cannot read; sign out to remove it.',
        ),
        h('form', { action: context.urls.app('sign-in'), method: 'post' }, [
          h('label', { htmlFor: 'quire-token' }, 'API token'),
          h('input', {
            id: 'quire-token',
            name: 'token',
            type: 'password',
            autocomplete: 'off',
            required: true,
            maxLength: MAX_TOKEN_LENGTH,
          }),
          ...nextField,
          h('button', { type: 'submit' }, 'Sign in with the token'),
        ]),
        h('p', [
          'No password or token yet? An admin can issue you a token, or make one with the CLI (see docs/api/tokens-and-users.md); then set a password under Account.',
        ]),
      ]),
    ],
    back: appPath(context),
  });
}

/** A link to sign in through the operator's identity provider, when one is configured. */
function providerSignIn(context: Context, next: string | undefined): ElementContent[] {
  if (!oidcSettings(context.config)) return [];
  const href =
    context.urls.app('sign-in', 'oidc') + (next ? `?next=${encodeURIComponent(appPathOrHome(context, next))}` : '');
  return [h('p', h('a.button', { href }, `Sign in with ${context.config.oidc.name}`))];
}

/** The app's home: the organizations the signed-in person belongs to. */
export async function homePage(
  context: Context,
  caller: Caller,
  theme: ThemeChoice | undefined,
  url: string,
): Promise<AppAnswer> {
  const organizations = await listMemberOrganizations(context.db, caller.userId);
  return appPage(context, caller, theme, 200, {
    title: 'Your organizations',
    home: { href: appHome(context), title: 'Quire' },
    main: [
      h('h1', 'Your organizations'),
      h('p', h('a', { href: context.urls.app('account') }, 'Your account: password and sessions')),
      organizations.length === 0
        ? h('p', 'You belong to no organization yet.')
        : h(
            'ul.card-list',
            organizations.map((organization) =>
              h('li', h('a', { href: context.urls.app('o', organization.id) }, organization.title)),
            ),
          ),
    ],
    back: url.split('?')[0]!,
  });
}
