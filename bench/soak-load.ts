/**
 * The soak's load, run by bench/soak.ts as a child process (forked with the
 * same loader flags, so it runs as TypeScript): the client's own work and
 * memory stay out of the process whose memory the soak watches.
 *
 * `connections` loops each send one request at a time over keep-alive
 * sockets, picking operations by weight; the parent asks for each interval's
 * figures and, at the end, for the figures per operation.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { pageMarkdown } from './seed-content.js';
import type { SoakTenant } from './soak-seed.js';

export interface LoadStart {
  type: 'start';
  base: string;
  authorization: string;
  tenants: SoakTenant[];
  connections: number;
}
/** Ends an interval; `measured` counts it in the per-operation figures (false during the warm-up). */
export interface LoadSample {
  type: 'sample';
  measured: boolean;
}
/** `pause` stops sending and answers `paused` once no request is in flight; `resume` goes on. */
export type ToLoad = LoadStart | LoadSample | { type: 'pause' } | { type: 'resume' } | { type: 'stop' };

export interface FailedRequest {
  operation: string;
  method: string;
  path: string;
  /** 0 when the connection failed. */
  status: number;
  body: string;
}

export interface IntervalFigures {
  type: 'interval';
  elapsedS: number;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  /** The first few failures of the interval, to say what went wrong. */
  failures: FailedRequest[];
}

export interface OperationFigures {
  operation: string;
  kind: 'read' | 'write';
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
}
export type FromLoad = IntervalFigures | { type: 'paused' } | { type: 'summary'; operations: OperationFigures[] };

/** The `at` quantile of sorted latencies, by nearest rank; 0 for none. */
export function quantile(sorted: number[], at: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(at * sorted.length) - 1))]!;
}

const FAILURES_KEPT = 5;
/** Words the seeded pages hold (section titles and their text), so searches find something. */
const SEARCHES = ['authentication', 'webhooks', 'token', 'revision', 'members', 'permissions', 'merge', 'billing'];

interface Tenant extends SoakTenant {
  /** Comments this load posted, oldest first: only these are deleted, so no other operation meets a deleted one. */
  posted: string[];
  /** One merge at a time per space: two merges of one space would contend for its lock, not measure a merge. */
  merging: boolean;
}

interface Reply {
  status: number;
  text: string;
}

const answered2xx = (reply: Reply) => reply.status >= 200 && reply.status < 300;

class Load {
  private readonly agent: http.Agent;
  private readonly tenants: Tenant[];
  private stopping = false;
  /** Operations under way. */
  private active = 0;
  /** While paused: what the connections wait on, and when the pause began. */
  private pause: { resumed: Promise<void>; resume: () => void; since: number } | undefined;
  private onIdle: (() => void) | undefined;
  private intervalStarted = performance.now();
  private latencies: number[] = [];
  private errors = 0;
  private failures: FailedRequest[] = [];
  /** Latencies of the measured intervals, by operation. */
  private readonly measured = new Map<string, { kind: 'read' | 'write'; latencies: number[]; errors: number }>();
  private interval = new Map<string, { kind: 'read' | 'write'; latencies: number[]; errors: number }>();
  private readonly operations: Array<{ weight: number; run: (tenant: Tenant) => Promise<void> }>;
  private readonly totalWeight: number;

  constructor(private readonly start: LoadStart) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: start.connections });
    this.tenants = start.tenants.map((tenant) => ({ ...tenant, posted: [], merging: false }));
    const read = (operation: string, path: (tenant: Tenant) => string) => (tenant: Tenant) =>
      this.call(operation, 'read', 'GET', path(tenant)).then(() => {});
    const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
    // Weights in percent: reads 80, writes 20.
    this.operations = [
      { weight: 8, run: read('GET space', (t) => `/v1/spaces/${t.spaceId}`) },
      { weight: 4, run: read('GET organization', (t) => `/v1/orgs/${t.organizationId}`) },
      {
        weight: 10,
        run: read(
          'GET page (markdown)',
          (t) => `/v1/spaces/${t.spaceId}/content/page/${pick(t.pageIds)}?format=markdown`,
        ),
      },
      {
        weight: 10,
        run: read(
          'GET page (document)',
          (t) => `/v1/spaces/${t.spaceId}/content/page/${pick(t.pageIds)}?format=document`,
        ),
      },
      { weight: 3, run: read('GET revision', (t) => `/v1/spaces/${t.spaceId}/content`) },
      { weight: 7, run: read('GET spaces', (t) => `/v1/orgs/${t.organizationId}/spaces`) },
      { weight: 8, run: read('GET comments', (t) => `/v1/spaces/${t.spaceId}/comments`) },
      { weight: 3, run: read('GET comment', (t) => `/v1/spaces/${t.spaceId}/comments/${pick(t.commentIds)}`) },
      { weight: 7, run: read('GET change requests', (t) => `/v1/spaces/${t.spaceId}/change-requests`) },
      { weight: 6, run: read('GET members', (t) => `/v1/orgs/${t.organizationId}/members`) },
      { weight: 5, run: read('GET space search', (t) => `/v1/spaces/${t.spaceId}/search?query=${pick(SEARCHES)}`) },
      {
        weight: 4,
        run: read('GET organization search', (t) => `/v1/orgs/${t.organizationId}/search?query=${pick(SEARCHES)}`),
      },
      { weight: 5, run: read('GET site structure', (t) => `/v1/orgs/${t.organizationId}/sites/${t.siteId}/structure`) },
      { weight: 6, run: (t) => this.postComment(t) },
      { weight: 4, run: (t) => this.postReply(t, pick(t.commentIds)) },
      { weight: 2, run: (t) => this.deleteComment(t) },
      { weight: 2, run: (t) => this.openChangeRequest(t) },
      { weight: 3, run: (t) => this.mergeOnePage(t, pick(t.pageIds)) },
      { weight: 3, run: (t) => this.createAndDeleteSpace(t) },
    ];
    this.totalWeight = this.operations.reduce((sum, operation) => sum + operation.weight, 0);
  }

  /** One request, read to its end; failures are recorded, and the caller learns of them by a non-2xx status. */
  private call(
    operation: string,
    kind: 'read' | 'write',
    method: string,
    path: string,
    body?: unknown,
    succeeded: (reply: Reply) => boolean = answered2xx,
  ): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const sent = performance.now();
    return new Promise<Reply>((resolve) => {
      const request = http.request(
        `${this.start.base}${path}`,
        {
          method,
          agent: this.agent,
          headers: {
            authorization: this.start.authorization,
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
        },
        (response) => {
          // Reads only need their status; the bodies of writes hold the ids the next steps use.
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => {
            if (kind === 'write' || (response.statusCode ?? 0) >= 300) chunks.push(chunk);
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          response.on('error', () => resolve({ status: 0, text: 'response aborted' }));
        },
      );
      request.on('error', (error) => resolve({ status: 0, text: error.message }));
      request.end(payload);
    }).then((reply) => {
      this.record(operation, kind, performance.now() - sent, succeeded(reply), reply, method, path);
      return reply;
    });
  }

  private record(
    operation: string,
    kind: 'read' | 'write',
    ms: number,
    ok: boolean,
    reply: Reply,
    method: string,
    path: string,
  ) {
    let figures = this.interval.get(operation);
    if (!figures) this.interval.set(operation, (figures = { kind, latencies: [], errors: 0 }));
    if (ok) {
      this.latencies.push(ms);
      figures.latencies.push(ms);
      return;
    }
    this.errors += 1;
    figures.errors += 1;
    if (this.failures.length < FAILURES_KEPT) {
      this.failures.push({ operation, method, path, status: reply.status, body: reply.text.slice(0, 300) });
    }
  }

  private async postComment(tenant: Tenant): Promise<void> {
    const page = Math.random() < 0.8 ? tenant.pageIds[Math.floor(Math.random() * tenant.pageIds.length)] : undefined;
    const reply = await this.call('POST comment', 'write', 'POST', `/v1/spaces/${tenant.spaceId}/comments`, {
      body: { markdown: `Soak comment: is the **${page ?? 'space'}** example still right for \`v2\`?` },
      ...(page ? { page } : {}),
    });
    if (answered2xx(reply)) tenant.posted.push((JSON.parse(reply.text) as { id: string }).id);
  }

  private async postReply(tenant: Tenant, commentId: string): Promise<void> {
    await this.call('POST reply', 'write', 'POST', `/v1/spaces/${tenant.spaceId}/comments/${commentId}/replies`, {
      body: { markdown: 'Agreed, updated in the next change request.' },
    });
  }

  /** Deletes the oldest comment this load posted, so the comments grow by what is posted less what is deleted. */
  private async deleteComment(tenant: Tenant): Promise<void> {
    const commentId = tenant.posted.shift();
    if (!commentId) return this.postComment(tenant);
    await this.call('DELETE comment', 'write', 'DELETE', `/v1/spaces/${tenant.spaceId}/comments/${commentId}`);
  }

  private async openChangeRequest(tenant: Tenant): Promise<void> {
    await this.call('POST change request', 'write', 'POST', `/v1/spaces/${tenant.spaceId}/change-requests`, {
      subject: 'Soak: a draft left open',
    });
  }

  /** A change request that updates one page, merged: three requests. Another space when this one is merging. */
  private async mergeOnePage(tenant: Tenant, pageId: string): Promise<void> {
    if (tenant.merging) {
      const free = this.tenants.find((other) => !other.merging);
      if (!free) return this.openChangeRequest(tenant);
      return this.mergeOnePage(free, free.pageIds[Math.floor(Math.random() * free.pageIds.length)]!);
    }
    tenant.merging = true;
    try {
      const base = `/v1/spaces/${tenant.spaceId}/change-requests`;
      const opened = await this.call('POST change request (merged)', 'write', 'POST', base, {
        subject: 'Soak: an edit',
      });
      if (!answered2xx(opened)) return;
      const { id } = JSON.parse(opened.text) as { id: string };
      const markdown = pageMarkdown(
        { title: 'Edited in the soak', previousSlug: null },
        Math.floor(Math.random() * 1e6),
        1,
      );
      const written = await this.call(
        'POST change request content',
        'write',
        'POST',
        `${base}/${id}/content?compat=false`,
        {
          changes: [{ operation: 'update_page', page: pageId, document: { markdown } }],
        },
      );
      if (!answered2xx(written)) return;
      // A merge answered with another result (a conflict) did not merge: a failure too.
      await this.call(
        'POST merge',
        'write',
        'POST',
        `${base}/${id}/merge`,
        {},
        (reply) => answered2xx(reply) && (JSON.parse(reply.text) as { result?: string }).result === 'merge',
      );
    } finally {
      tenant.merging = false;
    }
  }

  private async createAndDeleteSpace(tenant: Tenant): Promise<void> {
    const created = await this.call('POST space', 'write', 'POST', `/v1/orgs/${tenant.organizationId}/spaces`, {
      title: 'Soak scratch space',
    });
    if (!answered2xx(created)) return;
    const { id } = JSON.parse(created.text) as { id: string };
    await this.call('DELETE space', 'write', 'DELETE', `/v1/spaces/${id}`);
  }

  private async connection(): Promise<void> {
    for (;;) {
      while (this.pause) await this.pause.resumed;
      if (this.stopping) return;
      const tenant = this.tenants[Math.floor(Math.random() * this.tenants.length)]!;
      let draw = Math.random() * this.totalWeight;
      const operation = this.operations.find((candidate) => (draw -= candidate.weight) < 0) ?? this.operations.at(-1)!;
      this.active += 1;
      try {
        await operation.run(tenant);
      } finally {
        this.active -= 1;
        if (this.active === 0) this.onIdle?.();
      }
    }
  }

  /** Resolves once every operation under way has ended; no new one starts until `resume`. */
  paused(): Promise<void> {
    let resume = () => {};
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    this.pause ??= { resumed, resume, since: performance.now() };
    return new Promise((resolve) => {
      if (this.active === 0) return resolve();
      this.onIdle = () => {
        this.onIdle = undefined;
        resolve();
      };
    });
  }

  resume(): void {
    if (!this.pause) return;
    // The pause is not part of the interval: its throughput is over the time the load ran.
    this.intervalStarted += performance.now() - this.pause.since;
    this.pause.resume();
    this.pause = undefined;
  }

  private running: Promise<unknown> | undefined;

  run(): void {
    this.running = Promise.all(Array.from({ length: this.start.connections }, () => this.connection()));
  }

  /** The figures of the interval since the last sample, which starts a new one. */
  sample(measured: boolean): IntervalFigures {
    const now = performance.now();
    const sorted = this.latencies.sort((a, b) => a - b);
    const figures: IntervalFigures = {
      type: 'interval',
      elapsedS: (now - this.intervalStarted) / 1000,
      requests: sorted.length + this.errors,
      errors: this.errors,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      failures: this.failures,
    };
    if (measured) {
      for (const [operation, { kind, latencies, errors }] of this.interval) {
        const total = this.measured.get(operation) ?? { kind, latencies: [], errors: 0 };
        for (const ms of latencies) total.latencies.push(ms);
        total.errors += errors;
        this.measured.set(operation, total);
      }
    }
    this.intervalStarted = now;
    // Sampled while paused: the next interval starts when the load resumes.
    if (this.pause) this.pause.since = now;
    this.latencies = [];
    this.errors = 0;
    this.failures = [];
    this.interval = new Map();
    return figures;
  }

  async stop(): Promise<OperationFigures[]> {
    this.stopping = true;
    this.resume();
    await this.running;
    this.agent.destroy();
    return [...this.measured]
      .map(([operation, { kind, latencies, errors }]) => {
        const sorted = latencies.sort((a, b) => a - b);
        return {
          operation,
          kind,
          requests: sorted.length + errors,
          errors,
          p50Ms: quantile(sorted, 0.5),
          p99Ms: quantile(sorted, 0.99),
        };
      })
      .sort((a, b) => b.requests - a.requests);
  }
}

/** Whether this module is what node was asked to run, rather than an import of its types and helpers. */
export const isEntryPoint = (moduleUrl: string) =>
  process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;

if (isEntryPoint(import.meta.url)) {
  const send = (message: FromLoad, then?: () => void) => process.send!(message, undefined, undefined, then);
  let load: Load | undefined;
  process.on('message', (message: ToLoad) => {
    if (message.type === 'start') {
      load = new Load(message);
      load.run();
    } else if (message.type === 'sample') {
      send(load!.sample(message.measured));
    } else if (message.type === 'pause') {
      void load!.paused().then(() => send({ type: 'paused' }));
    } else if (message.type === 'resume') {
      load!.resume();
    } else {
      void load!.stop().then((operations) => send({ type: 'summary', operations }, () => process.disconnect()));
    }
  });
  // The soak went away (finished, killed or interrupted): nothing left to load.
  process.on('disconnect', () => process.exit(0));
}
