/**
 * The floor every read scenario is compared with, as a process of its own
 * (started by bench/processes.ts): a bare Fastify app, none of the service's
 * plugins or hooks, that answers each endpoint's very bytes after one
 * primary-key query on the same database through `pg`, as the service would
 * if everything but that query cost nothing.
 *
 *   GET /baseline/:id  an organization's id and title, read by its id
 *   GET /floor/:n      the n-th body of the bodies file, after the baseline's query
 *
 * Argument: JSON {databaseUrl, organizationId, bodiesFile, poolSize}; the bodies file holds
 * [{body (base64), headers}]. Prints the base URL on stdout once it listens.
 */
import Fastify from 'fastify';
import { readFile } from 'node:fs/promises';
import pg from 'pg';

interface FloorArguments {
  databaseUrl: string;
  organizationId: string;
  bodiesFile: string;
  poolSize: number;
}

const { databaseUrl, organizationId, bodiesFile, poolSize } = JSON.parse(process.argv[2] ?? '{}') as FloorArguments;
const bodies = (
  JSON.parse(await readFile(bodiesFile, 'utf8')) as Array<{ body: string; headers: Record<string, string> }>
).map(({ body, headers }) => ({ body: Buffer.from(body, 'base64'), headers }));

const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
// Named, so PostgreSQL plans it once per connection, as the service's statements are.
const organization = async (id: string) =>
  (await pool.query({ name: 'floor', text: 'select id, title from organizations where id = $1', values: [id] }))
    .rows[0] as { id: string; title: string } | undefined;

const app = Fastify();
app.get<{ Params: { id: string } }>('/baseline/:id', async (request, reply) => {
  const row = await organization(request.params.id);
  return row ?? reply.code(404).send({ error: { code: 404, message: 'No such organization' } });
});
app.get<{ Params: { n: string } }>('/floor/:n', async (request, reply) => {
  const floor = bodies[Number(request.params.n)];
  const row = floor && (await organization(organizationId));
  if (!floor || !row) return reply.code(404).send({ error: { code: 404, message: 'No such floor' } });
  return reply.headers(floor.headers).send(floor.body);
});

const base = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${base}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () =>
      void app
        .close()
        .then(() => pool.end())
        .finally(() => process.exit(0)),
  );
}
