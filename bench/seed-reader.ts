import type { FastifyInstance } from 'fastify';
import type { SeededContentSpace } from './seed-content.js';

/** A published public site reading the two content spaces, and the reader addresses of their leaf pages. */
export interface SeededReader {
  siteId: string;
  /** `/s/{site}/{site space}/{page path}` of each space's leaf page, as readers open it. */
  smallLeafPath: string;
  bigLeafPath: string;
  /** The reader address of each of the small space's leaf pages, by page id: what the render measurement reads. */
  smallLeafPaths: Map<string, string>;
}

/**
 * The site a reader opens: both content spaces at its root, published to the
 * public, made through the API as an admin would.
 */
export async function seedReaderSite(
  app: FastifyInstance,
  authorization: string,
  organizationId: string,
  big: SeededContentSpace,
  small: SeededContentSpace,
): Promise<SeededReader> {
  const call = async <T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
    const response = await app.inject({ method, url, headers: { authorization }, ...(payload ? { payload } : {}) });
    if (response.statusCode < 200 || response.statusCode > 299)
      throw new Error(`Seeding the reader site: ${method} ${url} answered ${response.statusCode}: ${response.body}`);
    return response.json<T>();
  };
  const sites = `/v1/orgs/${organizationId}/sites`;
  const site = await call<{ id: string }>('POST', sites, {
    title: 'Bench reader',
    spaces: [small.spaceId, big.spaceId],
  });
  await call('POST', `${sites}/${site.id}/publish`);
  const { items } = await call<{ items: Array<{ path: string; space: { id: string } }> }>(
    'GET',
    `${sites}/${site.id}/site-spaces`,
  );
  const siteSpacePath = (spaceId: string) => items.find((item) => item.space.id === spaceId)!.path;
  const readerPath = async (space: SeededContentSpace, pageId: string) => {
    const page = await call<{ path: string }>('GET', `/v1/spaces/${space.spaceId}/content/page/${pageId}`);
    return `/s/${site.id}/${siteSpacePath(space.spaceId)}/${page.path}`;
  };
  const smallLeafPaths = new Map<string, string>();
  for (const pageId of small.leafPageIds) smallLeafPaths.set(pageId, await readerPath(small, pageId));
  return {
    siteId: site.id,
    smallLeafPath: await readerPath(small, small.leafPageId),
    bigLeafPath: await readerPath(big, big.leafPageId),
    smallLeafPaths,
  };
}
