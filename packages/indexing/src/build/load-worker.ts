/**
 * The load worker thread of `loadIndex`: does the reading of an index directory that needs no parsing
 * into JavaScript objects, beside the thread that parses the rest. `workerData.tasks` are done in
 * order (`runLoadTask` of load-tasks.ts), each answered with one message, its buffers transferred.
 * While it works it says it is alive (`{ alive: true }`) every `LOAD_SIGN_OF_LIFE_MS`, whenever its
 * event loop is free (reading and decompressing are asynchronous): `loadIndex` gives up on a worker
 * silent for its stall time and does the remaining tasks itself.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LOAD_SIGN_OF_LIFE_MS, type LoadTask, runLoadTask } from './load-tasks.js';

const { tasks } = workerData as { tasks: LoadTask[] };
const alive = setInterval(() => parentPort?.postMessage({ alive: true }), LOAD_SIGN_OF_LIFE_MS);
try {
  for (const task of tasks) {
    const { answer, transfer } = await runLoadTask(task);
    parentPort?.postMessage(answer, transfer);
  }
} finally {
  clearInterval(alive);
}
