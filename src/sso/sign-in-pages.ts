import { h } from 'hastscript';
import type { Context } from '../context.js';
import type { ThemeChoice } from '../reader/layout.js';
import { appHome, appPath } from '../app-reader/session.js';
import { appPage, type AppAnswer } from '../app-reader/shell.js';
import { serviceEndpoints } from './present.js';

/** Where to sign in with a provider, coming back to `next`. */
export function startUrl(context: Context, providerId: string, next: string): string {
  const start = serviceEndpoints(context.config.publicUrl, providerId).startURL;
  return next === appPath(context) ? start : `${start}?next=${encodeURIComponent(next)}`;
}

/** The SAML providers an address's organizations sign their people in with, to choose one. */
export function providerChoicePage(
  context: Context,
  theme: ThemeChoice | undefined,
  domain: string,
  providers: Array<{ id: string; label: string; organizationTitle: string }>,
  next: string,
): AppAnswer {
  return appPage(context, undefined, theme, 200, {
    title: 'Single sign-on',
    home: { href: appHome(context), title: 'Quire' },
    main: [
      h('div.sign-in', [
        h('h1', 'Single sign-on'),
        h('p', `Organizations with addresses at ${domain} sign their people in through:`),
        h(
          'ul',
          providers.map((provider) =>
            h(
              'li',
              h(
                'a.button',
                { href: startUrl(context, provider.id, next) },
                `${provider.label} (${provider.organizationTitle})`,
              ),
            ),
          ),
        ),
        h('p', h('a', { href: appHome(context) }, 'Back to signing in')),
      ]),
    ],
    back: appPath(context),
  });
}
