import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Account } from './factory.js';

/** Requests of the content and change-request routes, for one app. */
export function contentApi(app: () => FastifyInstance) {
  const inject = (
    account: Account,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
    query?: Record<string, string>,
  ) =>
    app().inject({
      method,
      url,
      headers: account.headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      ...(query ? { query } : {}),
    });

  const api = {
    createSpace: async (account: Account, organizationId: string, payload: Record<string, unknown> = {}) => {
      const res = await inject(account, 'POST', `/v1/orgs/${organizationId}/spaces`, payload);
      expect(res.statusCode).toBe(201);
      return res.json() as { id: string; revision: string };
    },
    createCollection: async (account: Account, organizationId: string, payload: Record<string, unknown> = {}) => {
      const res = await inject(account, 'POST', `/v1/orgs/${organizationId}/collections`, payload);
      expect(res.statusCode).toBe(201);
      return res.json() as { id: string };
    },
    createChangeRequest: (account: Account, spaceId: string, payload: Record<string, unknown> = {}) =>
      inject(account, 'POST', `/v1/spaces/${spaceId}/change-requests`, payload),
    getChangeRequest: (account: Account, spaceId: string, changeRequestId: string | number) =>
      inject(account, 'GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`),
    listChangeRequests: (account: Account, spaceId: string, query: Record<string, string> = {}) =>
      inject(account, 'GET', `/v1/spaces/${spaceId}/change-requests`, undefined, query),
    patchChangeRequest: (
      account: Account,
      spaceId: string,
      changeRequestId: string,
      payload: Record<string, unknown>,
    ) => inject(account, 'PATCH', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`, payload),
    writeContent: (
      account: Account,
      spaceId: string,
      changeRequestId: string,
      changes: unknown[],
      query: Record<string, string> = {},
    ) =>
      inject(account, 'POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`, { changes }, query),
    merge: (account: Account, spaceId: string, changeRequestId: string) =>
      inject(account, 'POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`),
    read: (account: Account, url: string, query: Record<string, string> = {}) =>
      inject(account, 'GET', url, undefined, query),

    /** Opens a change request and returns its id. */
    async openChangeRequest(account: Account, spaceId: string, subject = 'Edit'): Promise<string> {
      const created = await api.createChangeRequest(account, spaceId, { subject });
      expect(created.statusCode).toBe(201);
      return created.json().id as string;
    },

    /** Opens a change request, writes the changes, merges it, and returns the change request's id. */
    async change(account: Account, spaceId: string, changes: unknown[]) {
      const created = await api.createChangeRequest(account, spaceId, { subject: 'Edit' });
      expect(created.statusCode).toBe(201);
      const id = created.json().id as string;
      const written = await api.writeContent(account, spaceId, id, changes, { compat: 'false' });
      expect(written.statusCode, written.body).toBe(200);
      const merged = await api.merge(account, spaceId, id);
      expect(merged.json()).toMatchObject({ result: 'merge' });
      return { id, written: written.json() };
    },
  };
  return api;
}

interface TreePage {
  id: string;
  title: string;
  path: string;
  pages: TreePage[];
  markdown?: string;
}

/** A page tree reduced to titles and paths, to compare whole trees. */
export function outline(pages: TreePage[]): Array<{ title: string; path: string; pages: unknown[] }> {
  return pages.map((page) => ({ title: page.title, path: page.path, pages: outline(page.pages) }));
}

/** Every page of a tree, parents first. */
export function flatten(pages: TreePage[]): TreePage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages)]);
}
