import { hkdfSync, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** What the token is for: its audience, which nothing else in the service accepts. */
export const NOTIFICATIONS_AUDIENCE = 'quire:user-notifications';
export const NOTIFICATIONS_TOKEN_SECONDS = 60 * 60;

/** The key that signs notification tokens, derived from the service secret for this purpose alone. */
function notificationsKey(serviceSecret: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', serviceSecret, 'quire-jwt', 'user-notifications', 32));
}

interface Issuer {
  serviceSecret: string;
  issuer: string;
  now: Date;
}

/** A short-lived HS256 JWT naming the user as its subject and the notifications as its audience. */
export async function signNotificationsToken(userId: string, { serviceSecret, issuer, now }: Issuer): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ scope: 'notifications:read' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setAudience(NOTIFICATIONS_AUDIENCE)
    .setIssuer(issuer)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + NOTIFICATIONS_TOKEN_SECONDS)
    .setJti(randomUUID())
    .sign(notificationsKey(serviceSecret));
}

/** The user a notifications token was made for, once its signature, audience, issuer and expiry hold; else undefined. */
export async function verifyNotificationsToken(token: string, { serviceSecret, issuer, now }: Issuer) {
  try {
    const { payload } = await jwtVerify(token, notificationsKey(serviceSecret), {
      algorithms: ['HS256'],
      audience: NOTIFICATIONS_AUDIENCE,
      issuer,
      currentDate: now,
    });
    return payload.sub;
  } catch {
    return undefined;
  }
}
