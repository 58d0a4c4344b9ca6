import type { FastifyInstance } from 'fastify';
import {
  bindWrite,
  changesOfRepository,
  filesToUpload,
  recordCreatedPages,
  type RepositoryContent,
  type RepositoryFile,
} from '../src/git-sync/format/index.js';

/**
 * Writes a repository's content into a new space of the app as a client of
 * the API would: one change request, the files over the inline limit through
 * the storage upload route first, then the writes `changesOfRepository`
 * gives, each naming earlier writes' pages by id, then a merge.
 */

export interface SpaceWriter {
  app: FastifyInstance;
  /** The service's base URL (its PUBLIC_URL), which the upload URLs start with. */
  base: string;
  token: string;
  organizationId: string;
}

export interface WrittenSpace {
  spaceId: string;
  writes: number;
  uploads: number;
}

async function call(
  { app, token }: SpaceWriter,
  method: 'POST' | 'PUT',
  url: string,
  payload?: object,
  query?: Record<string, string>,
) {
  const answer = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload !== undefined ? { payload } : {}),
    ...(query ? { query } : {}),
  });
  if (answer.statusCode >= 300) throw new Error(`${method} ${url} answered ${answer.statusCode}: ${answer.body}`);
  return answer.json() as Record<string, unknown>;
}

/** Announces a file to the storage upload route, sends its bytes, and returns the URL a write names it by. */
async function upload(writer: SpaceWriter, file: RepositoryFile): Promise<string> {
  const { url } = (await call(writer, 'POST', `/v1/orgs/${writer.organizationId}/storage/upload`, {
    file: { name: file.name, type: file.contentType, size: file.bytes.byteLength },
    kind: 'organization_file',
  })) as { url: string };
  const sent = await writer.app.inject({
    method: 'PUT',
    url: url.slice(writer.base.length),
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(file.bytes),
  });
  if (sent.statusCode !== 200) throw new Error(`uploading ${file.name} answered ${sent.statusCode}: ${sent.body}`);
  return url;
}

export async function writeIntoNewSpace(writer: SpaceWriter, content: RepositoryContent): Promise<WrittenSpace> {
  const space = (await call(writer, 'POST', `/v1/orgs/${writer.organizationId}/spaces`, { title: 'Docs' })) as {
    id: string;
  };
  const changeRequest = (await call(writer, 'POST', `/v1/spaces/${space.id}/change-requests`, {
    subject: 'Import from Git',
  })) as { id: string };
  const urls = new Map<string, string>();
  for (const file of filesToUpload(content)) urls.set(file.name, await upload(writer, file));
  const written = new Map<string, string>();
  const writes = changesOfRepository(content, { urls });
  for (const write of writes) {
    const answer = await call(
      writer,
      'POST',
      `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`,
      { changes: bindWrite(write, written) },
      { compat: 'false' },
    );
    recordCreatedPages(answer, written);
  }
  const merged = await call(writer, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
  if (merged.result !== 'merge') throw new Error(`the merge answered ${JSON.stringify(merged)}`);
  return { spaceId: space.id, writes: writes.length, uploads: urls.size };
}
