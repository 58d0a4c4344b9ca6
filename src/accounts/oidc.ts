import * as client from 'openid-client';
import type { Config } from '../config.js';
import type { Keyring } from '../core/keyring.js';

/** The operator's OpenID Connect provider, as configured (OIDC_*), once all three of its settings are set. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Whether signing out of a session opened through the provider ends the person's session there too (OIDC_END_SESSION). */
  endSession: boolean;
}

/** The provider's settings, when all three are set (configuration refuses some without the others). */
export function oidcSettings(config: Pick<Config, 'oidc'>): OidcSettings | undefined {
  const { issuer, clientId, clientSecret, endSession } = config.oidc;
  return issuer && clientId && clientSecret ? { issuer, clientId, clientSecret, endSession } : undefined;
}

/** Who the provider says signed in: its name for them, and the address it vouches for or not. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

/**
 * What a sign-in keeps in the browser between leaving for the provider and
 * coming back (sealed in a cookie, so that any instance finishes it): the
 * state, nonce and PKCE verifier it checks the answer with, and where to go.
 */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  startedAt: number;
}

/** How long a person may take at the provider, from leaving to coming back. */
export const PENDING_SIGN_IN_SECONDS = 600;
const SEALED_FOR = 'oidc-sign-in';
const SCOPE = 'openid email profile';
/** Seconds any one request to the provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** The provider refused to sign the person in (they cancelled, or it denied them); its words, when it gave some. */
export class ProviderRefusal extends Error {}

/** An answer that belongs to another sign-in than the browser's own (its state differs): someone else's code, handed on. */
export class ForeignAnswer extends Error {}

/**
 * Signing in through the operator's OpenID Connect provider, with the
 * authorization code flow, PKCE and a nonce (openid-client checks the
 * answer, the ID token's signature and claims). The provider's metadata is
 * read once, on the first sign-in, and again after a failed read.
 */
export class OidcSignIn {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    private readonly redirectUri: string,
    private readonly keyring: Keyring,
  ) {}

  private discovered(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(new URL(this.settings.issuer), this.settings.clientId, this.settings.clientSecret, undefined, {
        // Configuration allows http only for a provider on a loopback address.
        execute: new URL(this.settings.issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [],
        timeout: PROVIDER_TIMEOUT_SECONDS,
      })
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  /** Where to send the person to sign in, and the sealed pending sign-in to keep until they come back. */
  async start(next: string, now: Date): Promise<{ url: string; sealed: string }> {
    const configuration = await this.discovered();
    const pending: PendingSignIn = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      next,
      startedAt: now.getTime(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, sealed: this.keyring.seal(JSON.stringify(pending), SEALED_FOR) };
  }

  /**
   * Where to send a person who signed out of a session opened through the
   * provider, to end their session there too (RP-initiated logout), the
   * provider sending them back to `afterwards`: undefined where the operator
   * did not ask for it or the provider's metadata names no end-session
   * endpoint. Signing out here never waits on a provider that cannot be read.
   * The session's ID token, where it was kept, goes as `id_token_hint`: the
   * provider then knows whose session to end without asking the person.
   */
  async endSessionUrl(afterwards: string, idTokenHint: string | undefined): Promise<string | undefined> {
    if (!this.settings.endSession) return undefined;
    const configuration = await this.discovered();
    if (!configuration.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(configuration, {
      post_logout_redirect_uri: afterwards,
      ...(idTokenHint ? { id_token_hint: idTokenHint } : {}),
    }).href;
  }

  /** The pending sign-in a cookie holds, while it is young enough; undefined for anything else. */
  pending(sealed: string | undefined, now: Date): PendingSignIn | undefined {
    if (!sealed) return undefined;
    try {
      const pending = JSON.parse(this.keyring.open(sealed, SEALED_FOR)) as PendingSignIn;
      const age = now.getTime() - pending.startedAt;
      return age >= 0 && age <= PENDING_SIGN_IN_SECONDS * 1000 ? pending : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Finishes a sign-in from the provider's answer (`callback`, the redirect
   * URI with its query): exchanges the code, checks the ID token, and reads
   * the address from the user info when the ID token does not carry it.
   * Answers the identity, and the ID token, which the sign-out hands back.
   */
  async finish(callback: URL, pending: PendingSignIn): Promise<{ identity: ProviderIdentity; idToken: string }> {
    if (callback.searchParams.get('state') !== pending.state) throw new ForeignAnswer('another sign-in’s answer');
    const configuration = await this.discovered();
    let tokens;
    try {
      tokens = await client.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      if (error instanceof client.AuthorizationResponseError) {
        throw new ProviderRefusal(error.error_description ?? error.error);
      }
      throw error;
    }
    const claims = tokens.claims()!;
    let { email, email_verified: emailVerified, name } = claims;
    if (typeof email !== 'string') {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      ({ email, email_verified: emailVerified, name } = info);
    }
    const identity = {
      issuer: configuration.serverMetadata().issuer,
      subject: claims.sub,
      email: typeof email === 'string' ? email : undefined,
      emailVerified: emailVerified === true,
      name: typeof name === 'string' ? name : undefined,
    };
    // idTokenExpected: the grant fails without one.
    return { identity, idToken: tokens.id_token! };
  }
}
