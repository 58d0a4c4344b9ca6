import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../src/integrations/events/signature.js';

export interface Received {
  body: Record<string, unknown>;
  raw: string;
  headers: Record<string, string | string[] | undefined>;
  /** Whether X-GitBook-Signature verified with the receiver's secret. */
  verified: boolean;
}

/**
 * An endpoint on 127.0.0.1 as an integration or a webhook would run one: it
 * verifies each request's signature and keeps what it accepted. `mode` makes
 * it fail (500), answer slowly (past the delivery timeout) or refuse
 * connections (down), on purpose.
 */
export class EventReceiver {
  received: Received[] = [];
  /** What came while slow, answered after the sender's timeout. */
  late: Array<Record<string, unknown>> = [];
  /** Every request, accepted or not. */
  requests = 0;
  mode: 'ok' | 'fail' | 'slow' | 'down' = 'ok';
  secret = '';
  slowMs = 1_000;
  private server: Server;
  url = '';

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.requests += 1;
        const raw = Buffer.concat(chunks).toString('utf8');
        if (this.mode === 'down') {
          request.socket.destroy();
          return;
        }
        if (this.mode === 'fail') {
          response.writeHead(500).end('failing on purpose');
          return;
        }
        const accept = () => {
          const header = String(request.headers['x-gitbook-signature'] ?? '');
          const verified = verifySignature(this.secret, raw, header, Math.floor(Date.now() / 1000));
          this.received.push({
            body: JSON.parse(raw) as Record<string, unknown>,
            raw,
            headers: request.headers,
            verified,
          });
          response.writeHead(verified ? 200 : 401).end();
        };
        // A slow answer comes after the sender gave up: what it carried is kept apart, as a receiver deduplicating by eventId would.
        if (this.mode === 'slow')
          setTimeout(() => {
            this.late.push(JSON.parse(raw) as Record<string, unknown>);
            response.writeHead(200).end();
          }, this.slowMs);
        else accept();
      });
    });
  }

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/events`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
