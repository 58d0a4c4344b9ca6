/**
 * The import pool's tasks: a zip of markdown is inflated and read on a worker
 * thread, never on the event loop. A zip that cannot be read comes back as a
 * refusal, which fails its run with the reason.
 */
import { serveTasks, taskOutcome } from '../core/work-pool.js';
import { readZip } from './zip-read.js';

export default serveTasks({
  readZip: (input: { bytes: Uint8Array; field: string }) =>
    taskOutcome(
      () => readZip(input.bytes, input.field),
      (error) => `could not be read as a zip of markdown (${(error as Error).message})`,
    ),
});
