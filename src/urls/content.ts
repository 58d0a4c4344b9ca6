import { getChangeRequest } from '../change-requests/actions.js';
import { getCollection } from '../collections/actions.js';
import { readPage, readPageAtPath, type ContentLocator, type PageForm } from '../content/actions.js';
import type { Context } from '../context.js';
import { NotFoundError } from '../core/errors.js';
import { getSpace } from '../spaces/actions.js';
import { ownAddress, parseHttpUrl, type OwnAddress } from './addresses.js';
import type { ContentByUrl, PageJson } from './schemas.js';
import { lookUpSiteAddress } from './site-lookup.js';

export const noContentAtUrl = () => new NotFoundError('No content you can read at this URL');

/** Pages are answered as the page reads answer them by default. */
const PAGE_FORM: PageForm = { format: 'document', evaluated: false, computed: true };

/** What the caller may read at an address: its content, with the site's name when it is a site's. */
export interface ResolvedContent {
  content: ContentByUrl;
  /** The title of the published site the address is in, if it is in one. */
  siteTitle?: string;
}

/**
 * The collection, or the space (with its change request and page), that an
 * address of ours shows: an app address, a space's published address or a
 * site's. Every read is the caller's own (the same checks as the API's
 * reads), so what they may not read is a 404, as an address of nothing is.
 */
export async function contentByUrl(context: Context, userId: string, rawUrl: string): Promise<ContentByUrl> {
  const url = parseHttpUrl(rawUrl, 'url');
  const address = ownAddress(context, url);
  if (!address) throw noContentAtUrl();
  return (await resolveOwnAddress(context, userId, address)).content;
}

export async function resolveOwnAddress(
  context: Context,
  userId: string,
  address: OwnAddress,
): Promise<ResolvedContent> {
  switch (address.kind) {
    case 'app-collection': {
      const collection = await getCollection(context, userId, address.collectionId);
      if (collection.organization !== address.organizationId) throw noContentAtUrl();
      return { content: { collection } };
    }
    case 'app-space': {
      const space = await getSpace(context, userId, address.spaceId, undefined);
      if (space.organization !== address.organizationId) throw noContentAtUrl();
      if (address.changeRequest === undefined) {
        const locator = { spaceId: space.id, shareKey: undefined };
        return { content: { space, ...(await pageAtPath(context, userId, locator, address.pagePath)) } };
      }
      const changeRequest = await getChangeRequest(context, userId, space.id, address.changeRequest);
      const locator = { spaceId: space.id, changeRequestId: changeRequest.id };
      return { content: { space, changeRequest, ...(await pageAtPath(context, userId, locator, address.pagePath)) } };
    }
    case 'app-page': {
      const space = await getSpace(context, userId, address.spaceId, undefined);
      if (space.organization !== address.organizationId) throw noContentAtUrl();
      const page = await readPage(
        context,
        userId,
        { spaceId: space.id, shareKey: undefined },
        address.pageId,
        PAGE_FORM,
      );
      return { content: { space, page: JSON.parse(page) as PageJson } };
    }
    case 'published-space': {
      const space = await getSpace(context, userId, address.spaceId, address.shareKey);
      const locator = { spaceId: space.id, shareKey: address.shareKey };
      return { content: { space, ...(await pageAtPath(context, userId, locator, address.pagePath)) } };
    }
    case 'site': {
      // The site as its reader shows it to a visitor with the address's credentials, then the space as the caller reads it.
      const lookup = await lookUpSiteAddress(context, address, {});
      if (lookup.kind !== 'content') throw noContentAtUrl();
      const spaceId = lookup.place.siteSpace.space.id;
      const space = await getSpace(context, userId, spaceId, undefined);
      const locator = { spaceId, shareKey: undefined };
      const page = await readPage(context, userId, locator, lookup.page.pageId, PAGE_FORM);
      return {
        content: { space, page: JSON.parse(page) as PageJson },
        siteTitle: lookup.open.settings.title ?? lookup.open.site.title,
      };
    }
  }
}

/** The page at a path, or no page for the space's (or change request's) own address. */
async function pageAtPath(
  context: Context,
  userId: string,
  locator: ContentLocator,
  path: string,
): Promise<{ page?: PageJson }> {
  if (path === '') return {};
  const page = await readPageAtPath(context, userId, locator, path, PAGE_FORM);
  return { page: JSON.parse(page) as PageJson };
}
