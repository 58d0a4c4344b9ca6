import { createHash, randomBytes } from 'node:crypto';
import type { ElementContent } from 'hast';
import { h } from 'hastscript';
import type { Caller } from '../access/auth.js';
import type { FastifyReply } from 'fastify';
import type { Context } from '../context.js';
import type { RenderedHeading } from '../html/document-html.js';
import { renderReaderPage, type ThemeChoice } from '../reader/layout.js';
import { READER_CSS_ETAG } from '../reader/styles.js';
import { appHome } from './session.js';

/** What an app reader page answers: the page, or where to go instead. */
export type AppAnswer =
  | { kind: 'page'; status: 200 | 404; html: string; etag: string; styleNonce?: string }
  | { kind: 'redirect'; location: string };

export interface AppPage {
  title: string;
  /** What the header's title links to and says: the organization, or the app's home. */
  home: { href: string; title: string };
  sidebar?: ElementContent[];
  main: ElementContent[];
  toc?: RenderedHeading[];
  /** This page's address, where the theme switch comes back to. */
  back: string;
  /** Scripts that add to the page (it works without them). */
  scripts?: string[];
  /** Whether its scripts add styles (the editor's CodeMirror does): the page's policy then allows those of a nonce its scripts hold. */
  scriptStyles?: boolean;
}

/**
 * An app reader page: the reader's theme, for a signed-in member, never
 * indexed (the app shows unpublished work), with a sign-out button.
 */
export function appPage(
  context: Context,
  caller: Caller | undefined,
  theme: ThemeChoice | undefined,
  status: 200 | 404,
  page: AppPage,
): AppAnswer {
  const styleNonce = page.scriptStyles ? randomBytes(18).toString('base64') : undefined;
  const html = renderReaderPage({
    lang: 'en',
    theme: theme ?? 'auto',
    themeToggle: true,
    title: page.title,
    siteTitle: page.home.title,
    noIndex: true,
    stylesheets: [`${context.urls.app('~', 'reader.css')}?v=${READER_CSS_ETAG.slice(1, 13)}`],
    ...(page.scripts ? { scripts: page.scripts } : {}),
    ...(styleNonce ? { scriptNonce: styleNonce } : {}),
    favicon: 'data:,',
    home: page.home.href,
    sections: [],
    headerLinks: [],
    account: caller ? { name: caller.displayName, signOutAction: context.urls.app('sign-out') } : undefined,
    themeAction: context.urls.app('~', 'theme'),
    back: page.back,
    sidebar: page.sidebar ?? [],
    main: page.main,
    toc: page.toc ?? [],
    footer: { groups: [], trademark: true },
  });
  const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
  return { kind: 'page', status, html, etag, ...(styleNonce ? { styleNonce } : {}) };
}

/** The page for anything the caller cannot see or that is not there: the same answer for both, as the API gives. */
export function notFound(context: Context, caller: Caller | undefined, theme: ThemeChoice | undefined, back: string) {
  return appPage(context, caller, theme, 404, {
    title: 'Not found',
    home: { href: appHome(context), title: 'Quire' },
    main: [
      h('div.message', [
        h('h1', 'Not found'),
        h('p', ['Nothing here is visible to you. ', h('a', { href: appHome(context) }, 'Go to your organizations')]),
      ]),
    ],
    back,
  });
}

/**
 * The app shows unpublished work: pages run only the service's own scripts,
 * load only its own styles (and those its scripts add with the page's nonce),
 * and are never cached.
 */
const appPolicy = (styleNonce: string | undefined) =>
  `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'${styleNonce ? ` 'nonce-${styleNonce}'` : ''}; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
const APP_POLICY = appPolicy(undefined);

export function sendAppAnswer(reply: FastifyReply, answer: AppAnswer, status?: number): FastifyReply {
  if (answer.kind === 'redirect') return reply.redirect(answer.location, 302);
  return (
    reply
      .code(status ?? answer.status)
      .header('content-security-policy', answer.styleNonce ? appPolicy(answer.styleNonce) : APP_POLICY)
      // Same-origin posts carry Origin (which sign-in and sign-out check); other sites get no referrer.
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'private, no-store')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(answer.html)
  );
}
