import type { FastifyInstance } from 'fastify';
import type { SeededContentSpace } from './seed-content.js';

/** A signed-in session of the app reader, and the app's address of each content space's leaf page. */
export interface SeededApp {
  /** `quire_session=…`: the cookie a browser sends once signed in with the measured user's token. */
  cookie: string;
  /** `/app/o/{organization}/s/{space}/{page path}` of each space's leaf page, as a member opens it. */
  smallLeafPath: string;
  bigLeafPath: string;
}

/**
 * Signs the measured user in to the app as a browser does (the sign-in form,
 * with their token), and finds the app's address of both leaf pages. The
 * session lives in the database, so the service process reads it too.
 */
export async function seedAppSession(
  app: FastifyInstance,
  authorization: string,
  organizationId: string,
  big: SeededContentSpace,
  small: SeededContentSpace,
): Promise<SeededApp> {
  const signedIn = await app.inject({
    method: 'POST',
    url: '/app/sign-in',
    headers: { origin: app.context.urls.origin, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: authorization.replace(/^Bearer /, '') }).toString(),
  });
  const setCookie = [signedIn.headers['set-cookie'] ?? []].flat().map(String);
  const cookie = setCookie.map((header) => header.split(';')[0]!).find((pair) => pair.startsWith('quire_session='));
  if (signedIn.statusCode !== 303 || !cookie)
    throw new Error(`Signing in to the app answered ${signedIn.statusCode}: ${signedIn.body.slice(0, 300)}`);
  const appPath = async (space: SeededContentSpace) => {
    const response = await app.inject({
      method: 'GET',
      url: `/v1/spaces/${space.spaceId}/content/page/${space.leafPageId}`,
      headers: { authorization },
    });
    if (response.statusCode !== 200)
      throw new Error(`Reading a leaf page for the app answered ${response.statusCode}: ${response.body}`);
    return `/app/o/${organizationId}/s/${space.spaceId}/${response.json<{ path: string }>().path}`;
  };
  return { cookie, smallLeafPath: await appPath(small), bigLeafPath: await appPath(big) };
}
