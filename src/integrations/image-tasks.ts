/**
 * The image pool's task: decoding and checking a published image, on a worker
 * thread, never on the event loop.
 */
import { serveTasks, taskOutcome } from '../core/work-pool.js';
import { decodeImage } from './images.js';

export default serveTasks({
  decodeImage: (input: Parameters<typeof decodeImage>[0]) =>
    taskOutcome(
      () => decodeImage(input),
      () => 'is not an image that can be read',
    ),
});
