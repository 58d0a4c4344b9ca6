import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the test provider knows: the subject it names them by, and what it says about them. */
export interface ProviderAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** People the provider signs in, by subject; tests add to it as they go. */
  accounts: Map<string, ProviderAccount>;
  /**
   * Plays the person at the provider: follows the authorization URL, signs in
   * as `subject` (or cancels, with `deny`) and consents, and returns the URL
   * the provider sends the browser back to.
   */
  signIn(authorizationUrl: string, subject: string, options?: { deny?: boolean }): Promise<URL>;
  /**
   * Plays the browser of the last sign-in at the provider's end-session URL
   * (RP-initiated logout): confirms the sign-out and returns the URL the
   * provider sends the browser back to.
   */
  signOut(endSessionUrl: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1,
 * with its development sign-in and consent forms, and one confidential client
 * whose redirect URI is `redirectUri`. By default the ID token carries only
 * the subject and the address comes from the user info, as many providers do;
 * `idTokenClaims` puts them in the ID token too. The client may be sent back
 * after signing out to `redirectUri`'s app home (`…/app`).
 */
export async function startTestProvider(
  redirectUri: string,
  options: { idTokenClaims?: boolean } = {},
): Promise<TestProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'quire';
  const clientSecret = randomBytes(24).toString('base64url');
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [redirectUri.replace(/\/sign-in\/oidc\/callback$/, '')],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: !options.idTokenClaims,
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ ...account }) };
    },
  });
  const handle = provider.callback();
  server.on('request', (request, response) => void handle(request, response));

  // The browser of the last sign-in, which a sign-out at the provider goes on with.
  let lastBrowser: ReturnType<typeof browser> | undefined;

  function browser() {
    // A browser at the provider: its cookies, kept by name (every step of a sign-in shares them).
    const cookies = new Map<string, string>();
    const visit = async (url: URL, form?: Record<string, string>) => {
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      for (const header of response.headers.getSetCookie()) {
        const pair = header.split(';')[0]!;
        cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return response;
    };
    const follow = async (url: URL, form?: Record<string, string>): Promise<URL> => {
      const response = await visit(url, form);
      const location = response.headers.get('location');
      if (!location)
        throw new Error(`The provider answered ${response.status} at ${url.pathname}: ${await response.text()}`);
      return new URL(location, url);
    };
    return { visit, follow };
  }

  async function signIn(authorizationUrl: string, subject: string, { deny = false } = {}): Promise<URL> {
    const { visit, follow } = (lastBrowser = browser());
    // Every step at the provider ends in a redirect: to its sign-in or consent form, or back to the client.
    let at = await follow(new URL(authorizationUrl));
    for (let step = 0; step < 8 && at.origin === issuer; step++) {
      if (!/^\/interaction\/[\w-]+$/.test(at.pathname)) {
        at = await follow(at);
      } else if (deny) {
        at = await follow(new URL(`${at.pathname}/abort`, issuer));
      } else if ((await (await visit(at)).text()).includes('name="prompt" value="login"')) {
        at = await follow(at, { prompt: 'login', login: subject, password: 'any' });
      } else {
        at = await follow(at, { prompt: 'consent' });
      }
    }
    return at;
  }

  async function signOut(endSessionUrl: string): Promise<URL> {
    if (!lastBrowser) throw new Error('No one signed in at the provider');
    const { visit, follow } = lastBrowser;
    const page = await visit(new URL(endSessionUrl));
    const html = await page.text();
    const action = /<form id="op\.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    if (page.status !== 200 || !action || !xsrf) throw new Error(`The provider answered ${page.status}: ${html}`);
    return follow(new URL(action, issuer), { xsrf, logout: 'yes' });
  }

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signIn,
    signOut,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
