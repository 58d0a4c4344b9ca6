import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * OpenAPI spec processing: a generated spec of about SPEC_BENCH_BYTES (many
 * paths, each operation's bodies a $ref to a component schema), served by
 * the bench on 127.0.0.1, created through the API and timed until a worker
 * has processed it. Two shapes: `shallow` schemas refer only to a few base
 * schemas (validated dereferenced, as swagger-parser does), `linked` schemas
 * refer to each other in long chains (whose dereferenced form is too large:
 * validated as written). Memory and the event loop's delay are sampled
 * while it runs.
 *
 * Needs a spec worker running against the service (server.ts starts one;
 * a bench that builds the app itself starts `startSpecWorker(app.context)`),
 * OUTBOUND_ALLOW_PRIVATE, and SPEC_MAX_BYTES above SPEC_BENCH_BYTES.
 */
export const SPEC_BENCH_BYTES = 5 * 1024 * 1024;
export const SPEC_BENCH_NAME = `PUT /v1/orgs/{id}/openapi/{slug} (${SPEC_BENCH_BYTES / 1024 / 1024} MB spec), until processed`;

export type SpecShape = 'shallow' | 'linked';

export interface SpecMeasurement {
  label: string;
  shape: SpecShape;
  specBytes: number;
  paths: number;
  schemas: number;
  /** From the PUT to `processingState: complete`. */
  processMs: number;
  /** The same source published again: processed, unchanged, no new version. */
  republishMs: number;
  versions: number;
  /** GET …/versions/latest/content: time and size of the answer. */
  contentMs: number;
  contentBytes: number;
  /** The process's resident memory before, and its peak while processing (worker threads included). */
  rssBeforeMb: number;
  rssPeakMb: number;
  /** The main thread's heap before, and its peak while processing. */
  heapBeforeMb: number;
  heapPeakMb: number;
  /** The event loop's delay while processing: what every other request waited at most. */
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
}

/** How many schemas every `shallow` schema may refer to. */
const BASE_SCHEMAS = 20;

function schema(i: number, shape: SpecShape): Record<string, unknown> {
  const refTo = (j: number) => ({ $ref: `#/components/schemas/Model${j}` });
  const links =
    shape === 'linked'
      ? i > 0
        ? { parent: refTo(i - 1), related: { type: 'array', items: refTo(Math.floor(i / 2)) } }
        : {}
      : i >= BASE_SCHEMAS
        ? { kind: refTo(i % BASE_SCHEMAS), tags: { type: 'array', items: refTo((i * 7) % BASE_SCHEMAS) } }
        : {};
  return {
    type: 'object',
    description: `Model number ${i}: a resource of the bench API, with its identifier, name and counters.`,
    required: ['id', 'name'],
    properties: {
      id: { type: 'string', description: `The identifier of model ${i}`, example: `m${i}-0001` },
      name: { type: 'string', maxLength: 200 },
      count: { type: 'integer', format: 'int32', minimum: 0 },
      createdAt: { type: 'string', format: 'date-time' },
      enabled: { type: 'boolean', default: true },
      ...links,
    },
  };
}

function operations(i: number): Record<string, unknown> {
  const body = { content: { 'application/json': { schema: { $ref: `#/components/schemas/Model${i}` } } } };
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
  return {
    get: {
      operationId: `getThing${i}`,
      summary: `Get thing ${i}`,
      description: `Returns thing ${i} by its identifier, with every field the caller may see.`,
      tags: [`group${i % 25}`],
      parameters: [id, { name: 'expand', in: 'query', schema: { type: 'boolean' } }],
      responses: { 200: { description: 'The thing', ...body }, 404: { description: 'No such thing' } },
    },
    put: {
      operationId: `putThing${i}`,
      summary: `Replace thing ${i}`,
      tags: [`group${i % 25}`],
      parameters: [id],
      requestBody: { required: true, ...body },
      responses: { 200: { description: 'Replaced', ...body } },
    },
  };
}

/** A spec of about `targetBytes`, as JSON text. */
export function generateSpec(targetBytes: number, shape: SpecShape): { text: string; paths: number; schemas: number } {
  const doc = {
    openapi: '3.0.3',
    info: { title: `Bench API (${shape})`, version: '1.0.0', description: 'A generated spec for the bench.' },
    tags: Array.from({ length: 25 }, (_, g) => ({ name: `group${g}`, description: `Operations of group ${g}` })),
    paths: {} as Record<string, unknown>,
    components: { schemas: {} as Record<string, unknown> },
  };
  // A path and its schema weigh about 1.6 KB as JSON.
  const count = Math.max(BASE_SCHEMAS, Math.round(targetBytes / 1_600));
  for (let i = 0; i < count; i++) {
    doc.components.schemas[`Model${i}`] = schema(i, shape);
    doc.paths[`/things${i}/{id}`] = operations(i);
  }
  return { text: JSON.stringify(doc), paths: count, schemas: count };
}

async function serve(text: string): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json` };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * Publishes a generated spec of `shape` and times its processing, then
 * publishes it again (unchanged) and reads its content.
 */
export async function measureSpecProcessing(
  base: string,
  authorization: string,
  organizationId: string,
  shape: SpecShape = 'shallow',
): Promise<SpecMeasurement> {
  const headers = { authorization, 'content-type': 'application/json' };
  const specUrl = `${base}/v1/orgs/${organizationId}/openapi/bench-${shape}`;
  const request = async <T>(method: string, url: string, body?: unknown): Promise<{ data: T; bytes: number }> => {
    const response = await fetch(url, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await response.text();
    if (!response.ok) throw new Error(`specs: ${method} ${url} answered ${response.status}: ${text.slice(0, 500)}`);
    return { data: JSON.parse(text) as T, bytes: Buffer.byteLength(text) };
  };
  interface Spec {
    processingState: string;
    lastProcessErrorCode?: string;
    lastProcessedErrors?: unknown;
    lastProcessedAt?: string;
  }
  /** Publishes the source and waits for the spec to be processed after `since`. */
  const publish = async (source: { url: string }): Promise<number> => {
    const started = performance.now();
    const { data: put } = await request<Spec>('PUT', specUrl, { source });
    let spec = put;
    while (spec.processingState !== 'complete') {
      await new Promise((resolve) => setTimeout(resolve, 25));
      spec = (await request<Spec>('GET', specUrl)).data;
    }
    if (spec.lastProcessErrorCode) {
      throw new Error(`specs: processing failed: ${JSON.stringify(spec.lastProcessedErrors).slice(0, 500)}`);
    }
    return performance.now() - started;
  };

  const generated = generateSpec(SPEC_BENCH_BYTES, shape);
  const site = await serve(generated.text);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const before = process.memoryUsage();
  let rssPeak = before.rss;
  let heapPeak = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    rssPeak = Math.max(rssPeak, now.rss);
    heapPeak = Math.max(heapPeak, now.heapUsed);
  }, 20);
  try {
    delay.enable();
    const processMs = await publish({ url: site.url });
    delay.disable();
    const republishMs = await publish({ url: site.url });
    const versions = (await request<{ count: number }>('GET', `${specUrl}/versions`)).data.count;
    const contentStarted = performance.now();
    const content = await request<unknown>('GET', `${specUrl}/versions/latest/content`);
    const contentMs = performance.now() - contentStarted;
    return {
      label: SPEC_BENCH_NAME,
      shape,
      specBytes: Buffer.byteLength(generated.text),
      paths: generated.paths,
      schemas: generated.schemas,
      processMs,
      republishMs,
      versions,
      contentMs,
      contentBytes: content.bytes,
      rssBeforeMb: mb(before.rss),
      rssPeakMb: mb(rssPeak),
      heapBeforeMb: mb(before.heapUsed),
      heapPeakMb: mb(heapPeak),
      eventLoopP99Ms: delay.percentile(99) / 1e6,
      eventLoopMaxMs: delay.max / 1e6,
    };
  } finally {
    clearInterval(sampler);
    delay.disable();
    site.server.closeAllConnections();
    await new Promise<void>((resolve) => site.server.close(() => resolve()));
  }
}

export function specTable(measured: SpecMeasurement): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return (
    `${measured.label}, ${measured.shape}: ${mb(measured.specBytes)} MB, ${measured.paths} paths; ` +
    `processed in ${s(measured.processMs)}, again unchanged in ${s(measured.republishMs)} ` +
    `(${measured.versions} version); content ${mb(measured.contentBytes)} MB in ${s(measured.contentMs)}; ` +
    `RSS ${measured.rssBeforeMb} → ${measured.rssPeakMb} MB peak, heap ${measured.heapBeforeMb} → ` +
    `${measured.heapPeakMb} MB peak; event loop delay p99 ${measured.eventLoopP99Ms.toFixed(1)} ms, ` +
    `max ${measured.eventLoopMaxMs.toFixed(1)} ms`
  );
}
