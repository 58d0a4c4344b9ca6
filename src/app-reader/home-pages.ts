import { h } from 'hastscript';
import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import type { ThemeChoice } from '../reader/layout.js';
import { listMemberOrganizations } from './queries.js';
import { appHome, appPath, appPathOrHome } from './session.js';
import { appPage, type AppAnswer } from './shell.js';

/** The longest API token the sign-in form takes. */
export const MAX_TOKEN_LENGTH = 512;

/** The sign-in page: one field for an API token, which the service keeps in an HttpOnly cookie. */
export function signInPage(
  context: Context,
  next: string | undefined,
  error: string | undefined,
  theme: ThemeChoice | undefined,
): AppAnswer {
  return appPage(context, undefined, theme, 200, {
    title: 'Sign in',
    home: { href: appHome(context), title: 'Quire' },
    main: [
      h('div.sign-in', [
        h('h1', 'Sign in'),
        h(
          'p',
          'Paste an API token to read what it may read. The token stays in this browser, in a cookie scripts cannot read; sign out to remove it.',
        ),
        ...(error ? [h('p.error', { role: 'alert' }, error)] : []),
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
          ...(next ? [h('input', { type: 'hidden', name: 'next', value: appPathOrHome(context, next) })] : []),
          h('button', { type: 'submit' }, 'Sign in'),
        ]),
        h('p', [
          'No token yet? An admin can issue you one, or make one with the CLI (see docs/api/tokens-and-users.md).',
        ]),
      ]),
    ],
    back: appPath(context),
  });
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
