/** `npm run cluster`: starts the topology of docs/cluster.md and keeps it until Ctrl-C. */
import { startCluster } from './cluster.js';

const cluster = await startCluster({ base: Number(process.env.CLUSTER_PORT ?? 7540) });
const stopAndExit = () => void cluster.stop().then(() => process.exit(0));
process.once('SIGINT', stopAndExit);
process.once('SIGTERM', stopAndExit);
process.stdout.write(
  [
    '',
    `Quire is at ${cluster.url} (HAProxy over instances on ports ${cluster.ports.instances.join(', ')})`,
    `  admin: ${cluster.adminEmail}, token: ${cluster.adminToken}`,
    `  try:   curl -H 'Authorization: Bearer ${cluster.adminToken}' ${cluster.url}/v1/user`,
    `  PgBouncer :${cluster.ports.pgbouncer} (quire, quire_replica), primary :${cluster.ports.primary}, replica :${cluster.ports.replica}, Redis :${cluster.ports.redis}`,
    '  logs in .cluster/logs/. Ctrl-C stops everything.',
    '',
  ].join('\n'),
);
