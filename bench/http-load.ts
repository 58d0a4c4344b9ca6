/**
 * A load generator for endpoints with large bodies, run as a child process
 * by measure.ts: autocannon parses bodies in JavaScript and tops out near
 * 65 MB/s, so on a multi-megabyte answer it measures itself. This one reads
 * with Node's own HTTP parser and discards the bytes.
 *
 * Argument: JSON {url, headers, connections, durationS}. Output: JSON
 * {latenciesMs, failures, elapsedS} on stdout.
 */
import http from 'node:http';

interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationS: number;
}

const { url, headers, connections, durationS } = JSON.parse(process.argv[2] ?? '{}') as LoadRequest;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

/** One request, read to its last byte: its status, or 0 when the connection failed. */
function once(): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers }, (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
  });
}

const latenciesMs: number[] = [];
let failures = 0;
const started = performance.now();
const deadline = started + durationS * 1000;

async function connection(): Promise<void> {
  while (performance.now() < deadline) {
    const sent = performance.now();
    const status = await once();
    if (status >= 200 && status < 300) latenciesMs.push(performance.now() - sent);
    else failures += 1;
  }
}

await Promise.all(Array.from({ length: connections }, connection));
agent.destroy();
process.stdout.write(JSON.stringify({ latenciesMs, failures, elapsedS: (performance.now() - started) / 1000 }));
