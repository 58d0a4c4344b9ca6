// A pool thread's entry when the service runs from TypeScript source (tests,
// `npm run dev`, benchmarks): it teaches the thread TypeScript, then serves
// the task module named in the pool's workerData. Built services load the
// compiled task module directly and never read this file.
import { workerData } from 'piscina';
import { register } from 'tsx/esm/api';

register();
const tasks = await import(workerData.tasks);
export default tasks.default;
