import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.js';
import { testConfig } from '../test/support/app.js';
import { Factory } from '../test/support/factory.js';
import { createBenchDatabase } from './database.js';

/**
 * Peak memory of one change-request content write that brings FILES files by
 * URL, each just under OUTBOUND_MAX_BYTES (10 MiB), served by this process on
 * 127.0.0.1 from one small chunk. Not part of `npm run bench`: run it alone,
 * `node --expose-gc --import tsx bench/batch-memory.ts 30`, and compare
 * commits. It prints the status of the write and the peaks over the memory
 * before it: rss, V8's heap, and Buffers (arrayBuffers), sampled every 5 ms.
 */
const FILES = Number(process.argv[2] ?? 30);
const FILE_BYTES = 10 * 1024 * 1024 - 1024;
const CHUNK = 64 * 1024;

const server = createServer((request, response) => {
  const n = Number(/^\/file\/(\d+)$/.exec(request.url ?? '')?.[1] ?? NaN);
  if (Number.isNaN(n)) return void response.writeHead(404).end();
  // Each file's bytes differ in their first chunk, so that each is stored apart.
  const first = Buffer.alloc(CHUNK, n % 251);
  first.writeUInt32BE(n, 0);
  const rest = Buffer.alloc(CHUNK, 7);
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(FILE_BYTES) });
  let sent = 0;
  const pump = () => {
    while (sent < FILE_BYTES) {
      const size = Math.min(CHUNK, FILE_BYTES - sent);
      const chunk = (sent === 0 ? first : rest).subarray(0, size);
      sent += size;
      if (!response.write(chunk)) return void response.once('drain', pump);
    }
    response.end();
  };
  pump();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const database = await createBenchDatabase();
const app = await buildApp(
  testConfig(database.url, { logLevel: 'silent', conversion: { threads: 1, timeoutMs: 5_000, queueWaitMs: 60_000 } }),
);
await app.ready();
try {
  const factory = new Factory(app.context.db);
  const admin = await factory.account();
  const organization = await factory.organization(admin.user.id);
  const call = (method: 'POST', url: string, payload: object) =>
    app.inject({ method, url, headers: admin.headers, payload });
  const space = (await call('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Files' })).json() as { id: string };
  const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Files' })).json() as {
    id: string;
  };
  // 20 files a change, as many changes as it takes.
  const changes = [];
  for (let start = 0; start < FILES; start += 20) {
    const files = [];
    for (let n = start; n < Math.min(FILES, start + 20); n++)
      files.push({ name: `f${n}.bin`, url: `${origin}/file/${n}` });
    changes.push({ operation: 'insert_files', files });
  }

  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  const peak = { rss: 0, heapUsed: 0, arrayBuffers: 0 };
  const sample = setInterval(() => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss - base.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed - base.heapUsed);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers - base.arrayBuffers);
  }, 5);
  const written = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    changes,
  });
  clearInterval(sample);
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    JSON.stringify({
      files: FILES,
      fileMiB: FILE_BYTES / 1024 / 1024,
      status: written.statusCode,
      message:
        written.statusCode === 200 ? undefined : (written.json() as { error: { message: string } }).error.message,
      peakOverBase: { rss: mib(peak.rss), heapUsed: mib(peak.heapUsed), arrayBuffers: mib(peak.arrayBuffers) },
    }),
  );
} finally {
  await app.close();
  await database.drop();
  server.close();
}
