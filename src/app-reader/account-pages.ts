import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Caller } from '../access/auth.js';
import type { Context } from '../context.js';
import type { ThemeChoice } from '../reader/layout.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../accounts/passwords.js';
import { appHome } from './session.js';
import { appPage, type AppAnswer } from './shell.js';
import { emailField } from './home-pages.js';
import type { LinkedIdentity } from '../accounts/identities.js';

export interface ListedSession {
  id: string;
  signedInWith: string;
  userAgent: string | null;
  createdAt: Date;
  expiresAt: Date;
  current: boolean;
}

export interface AccountView {
  hasPassword: boolean;
  /** Whether this session may set a password: one with its user's full rights, in no single organization. */
  maySetPassword: boolean;
  /** Whether the service sends mail (SMTP), so that a link can prove the address. */
  mails: boolean;
  sessions: ListedSession[];
  /** The identity providers' identities linked to the account. */
  identities: LinkedIdentity[];
  notice?: string;
  error?: string;
}

/** The account page: the person's password, and their sessions, each of which they may end. */
export function accountPage(
  context: Context,
  caller: Caller,
  theme: ThemeChoice | undefined,
  view: AccountView,
): AppAnswer {
  const action = (...segments: string[]) => context.urls.app('account', ...segments);
  return appPage(context, caller, theme, 200, {
    title: 'Your account',
    home: { href: appHome(context), title: 'Quire' },
    main: [
      h('h1', 'Your account'),
      h('p', `Signed in as ${caller.displayName} (${caller.email}).`),
      ...(view.notice ? [h('p.notice', { role: 'status' }, view.notice)] : []),
      ...(view.error ? [h('p.error', { role: 'alert' }, view.error)] : []),
      h('h2', 'E-mail address'),
      ...addressSection(caller, view, action('email-proof')),
      h('h2', 'Password'),
      ...passwordSection(view, action('password')),
      ...identitiesSection(context, view, action('identities', 'unlink')),
      h('h2', 'Sessions'),
      h('p', 'Every browser signed in to your account. End any you do not recognise.'),
      h(
        'ul.card-list',
        view.sessions.map((session) => sessionItem(session, action('sessions', 'end'), context.config.oidc.name)),
      ),
      h('form', { action: action('sessions', 'end-others'), method: 'post' }, [
        h('button', { type: 'submit' }, 'End every other session'),
      ]),
    ],
    back: context.urls.app('account'),
  });
}

function addressSection(caller: Caller, view: AccountView, action: string): ElementContent[] {
  if (caller.emailVerified)
    return [h('p', `${caller.email} is proven: its mailbox, or the operator of this service, vouched for it.`)];
  const why = `${caller.email} is not proven yet. A proven address can set a forgotten password again, and joins organizations by their e-mail domains.`;
  if (!view.mails)
    return [h('p', `${why} This service sends no e-mail: its operator can prove it (cli users verify).`)];
  return [
    h('p', why),
    h('form', { action, method: 'post' }, [h('button', { type: 'submit' }, 'Mail me a link to prove it')]),
  ];
}

function passwordSection(view: AccountView, action: string): ElementContent[] {
  if (!view.maySetPassword) {
    return [
      h(
        'p',
        'This session was opened with a token that does not carry all your rights, so it cannot set your password. Sign in with your password, or with a token of your own.',
      ),
    ];
  }
  return [
    h(
      'p',
      view.hasPassword
        ? 'Changing your password ends your other sessions opened with it.'
        : `You have no password yet. Set one (at least ${PASSWORD_MIN_LENGTH} characters) to sign in with your e-mail address.`,
    ),
    h('form', { action, method: 'post' }, [
      ...(view.hasPassword ? passwordField('quire-current', 'current', 'Current password', 'current-password') : []),
      ...newPasswordFields(),
      h('button', { type: 'submit' }, view.hasPassword ? 'Change the password' : 'Set the password'),
    ]),
  ];
}

function passwordField(id: string, name: string, label: string, autocomplete: string): ElementContent[] {
  return [
    h('label', { htmlFor: id }, label),
    h('input', {
      id,
      name,
      type: 'password',
      autocomplete,
      required: true,
      minLength: name === 'current' ? undefined : PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
    }),
  ];
}

/** A new password and its repetition, as every form that sets one asks for them. */
function newPasswordFields(): ElementContent[] {
  return [
    ...passwordField('quire-new', 'password', 'New password', 'new-password'),
    ...passwordField('quire-confirm', 'confirm', 'New password again', 'new-password'),
  ];
}

/**
 * The identities of providers the person signs in through, each of which
 * they may unlink (the provider then links it again only by the address it
 * vouches for); not the last way in of an account without a password.
 */
function identitiesSection(context: Context, view: AccountView, action: string): ElementContent[] {
  if (view.identities.length === 0) return [];
  const lastWayIn = !view.hasPassword && view.identities.length === 1;
  const nameOf = (identity: LinkedIdentity) =>
    identity.samlLabel !== null
      ? `${identity.samlLabel}, your organization’s SAML provider`
      : identity.issuer === context.config.oidc.issuer
        ? (context.config.oidc.name ?? identity.issuer)
        : identity.issuer;
  return [
    h('h2', 'Identity providers'),
    h(
      'p',
      lastWayIn
        ? 'You sign in through this provider only: set a password before you unlink it.'
        : 'The providers you signed in through. Unlink one you no longer use: it then opens your account again only for your proven address.',
    ),
    h(
      'ul.card-list',
      view.identities.map((identity) =>
        h('li', [
          h('p', [
            h('strong', nameOf(identity)),
            h('br'),
            `As ${identity.subject}, last on `,
            h(
              'time',
              { dateTime: identity.lastSignedInAt.toISOString() },
              identity.lastSignedInAt.toISOString().slice(0, 16).replace('T', ' '),
            ),
            ' UTC',
          ]),
          ...(lastWayIn
            ? []
            : [
                h('form', { action, method: 'post' }, [
                  h('input', { type: 'hidden', name: 'issuer', value: identity.issuer }),
                  h('input', { type: 'hidden', name: 'subject', value: identity.subject }),
                  h('button', { type: 'submit' }, 'Unlink'),
                ]),
              ]),
        ]),
      ),
    ),
  ];
}

/** How each kind of session was opened, as its list says it; `provider` is what the sign-in page calls the identity provider. */
function signedInHow(signedInWith: string, provider: string): string {
  if (signedInWith === 'password') return 'Signed in with the password';
  if (signedInWith === 'oidc') return `Signed in through ${provider}`;
  if (signedInWith === 'saml') return 'Signed in through your organization’s SAML provider';
  return 'Signed in with an API token';
}

function sessionItem(session: ListedSession, endAction: string, provider: string): ElementContent {
  const how = signedInHow(session.signedInWith, provider);
  return h('li', [
    h('p', [
      h('strong', how),
      session.current ? ' (this session)' : '',
      h('br'),
      session.userAgent ?? 'An unnamed browser',
      h('br'),
      'Since ',
      h(
        'time',
        { dateTime: session.createdAt.toISOString() },
        session.createdAt.toISOString().slice(0, 16).replace('T', ' '),
      ),
      ' UTC, until ',
      h(
        'time',
        { dateTime: session.expiresAt.toISOString() },
        session.expiresAt.toISOString().slice(0, 16).replace('T', ' '),
      ),
      ' UTC',
    ]),
    h('form', { action: endAction, method: 'post' }, [
      h('input', { type: 'hidden', name: 'id', value: session.id }),
      h('button', { type: 'submit' }, session.current ? 'Sign out here' : 'End this session'),
    ]),
  ]);
}

/** Where a person asks for a link to set a new password; without mail, what to do instead. */
export function resetRequestPage(
  context: Context,
  theme: ThemeChoice | undefined,
  view: { mails: boolean; notice?: string; error?: string },
): AppAnswer {
  const body: ElementContent[] = view.mails
    ? [
        h('p', 'Give the e-mail address of your account: a link to set a new password is sent to it.'),
        h('form', { action: context.urls.app('password-reset'), method: 'post' }, [
          ...emailField(),
          h('button', { type: 'submit' }, 'Send the link'),
        ]),
      ]
    : [
        h(
          'p',
          'This service sends no e-mail. Ask its operator for a token of your own (cli tokens create), sign in with it, and set a new password under Your account.',
        ),
      ];
  return appPage(context, undefined, theme, 200, {
    title: 'Set a new password',
    home: { href: appHome(context), title: 'Quire' },
    main: [
      h('div.sign-in', [
        h('h1', 'Set a new password'),
        ...(view.notice ? [h('p.notice', { role: 'status' }, view.notice)] : []),
        ...(view.error ? [h('p.error', { role: 'alert' }, view.error)] : []),
        ...body,
      ]),
    ],
    back: context.urls.app('password-reset'),
  });
}

/** The page a mailed link opens: the new password, twice; or why the link no longer works. */
export function newPasswordPage(
  context: Context,
  theme: ThemeChoice | undefined,
  view: { action?: string; email?: string; error?: string },
): AppAnswer {
  const form = view.action
    ? [
        h('p', `For ${view.email}: at least ${PASSWORD_MIN_LENGTH} characters.`),
        h('form', { action: view.action, method: 'post' }, [
          ...newPasswordFields(),
          h('button', { type: 'submit' }, 'Set the password'),
        ]),
      ]
    : [
        h('p', [
          'This link has been used, has expired, or was replaced by a newer one. ',
          h('a', { href: context.urls.app('password-reset') }, 'Ask for a new link'),
        ]),
      ];
  return appPage(context, undefined, theme, view.action ? 200 : 404, {
    title: 'Set a new password',
    home: { href: appHome(context), title: 'Quire' },
    main: [
      h('div.sign-in', [
        h('h1', 'Set a new password'),
        ...(view.error ? [h('p.error', { role: 'alert' }, view.error)] : []),
        ...form,
      ]),
    ],
    // Never the link's own address: the theme switch would carry its secret.
    back: context.urls.app('password-reset'),
  });
}

/** The page a mailed proof link opens: a button that proves the address (a scanner's fetch proves nothing), or the outcome. */
export function emailProofPage(
  context: Context,
  theme: ThemeChoice | undefined,
  view: { action?: string; email?: string; proven?: string },
): AppAnswer {
  const body: ElementContent[] = view.proven
    ? [h('p.notice', { role: 'status' }, `${view.proven} is proven. Thank you.`)]
    : view.action
      ? [
          h('p', `Prove that ${view.email} is your address.`),
          h('form', { action: view.action, method: 'post' }, [h('button', { type: 'submit' }, 'Prove the address')]),
        ]
      : [
          h(
            'p',
            'This link has been used, has expired, or was replaced by a newer one. Ask for a new one under Your account.',
          ),
        ];
  return appPage(context, undefined, theme, view.action || view.proven ? 200 : 404, {
    title: 'Prove your address',
    home: { href: appHome(context), title: 'Quire' },
    main: [h('div.sign-in', [h('h1', 'Prove your address'), ...body])],
    // Never the link's own address: the theme switch would carry its secret.
    back: context.urls.app('account'),
  });
}
