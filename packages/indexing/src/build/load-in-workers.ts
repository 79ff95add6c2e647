import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { IndexMismatchError, InputError, InvalidArgumentError } from '@mosaic/spec';
import { MAX_TIMER_MS, startWorker } from './extract-in-workers.js';
import { LOAD_SIGN_OF_LIFE_MS, type LoadAnswer, type LoadTask, runLoadTask, taskPath } from './load-tasks.js';
import { stopWorkers } from './worker-module.js';

/**
 * How long `loadIndex` waits for a silent load or digest worker by default before doing its remaining
 * work itself: two minutes. A worker says it is alive every second while its event loop is free; its
 * longest step without one (decoding the relations' BM25 state of 100 MB of text) takes seconds.
 */
export const LOAD_STALL_MS = 120_000;

/** Which of `loadIndex`'s worker threads was given up on, why, and the files this thread read instead. */
export interface LoadWorkerFallbackEvent {
  /** `'load'`: a worker reading stored vectors or gzip files; `'digests'`: the sha256 check. */
  worker: 'load' | 'digests';
  /** `'stalled'`: silent for the stall time; `'failed'`: it could not start, failed, or exited before answering. */
  reason: 'stalled' | 'failed';
  /** What happened, in words. */
  message: string;
  /** The files whose reading (or digest) this thread did instead, in order. */
  paths: string[];
}

/** How a load's worker threads are watched (see `LoadIndexOptions.stallMs`). */
export interface LoadWorkerOptions {
  /** Milliseconds a worker may stay silent before its remaining work is done on the calling thread. */
  stallMs: number;
  /** Told when a worker is given up on (before its remaining work starts here). */
  onFallback?: (event: LoadWorkerFallbackEvent) => void;
}

/** `stallMs` checked: a positive number of milliseconds (default LOAD_STALL_MS); InvalidArgumentError otherwise. */
export function resolveLoadStallMs(stallMs: number | undefined): number {
  const ms = stallMs ?? LOAD_STALL_MS;
  if (typeof ms !== 'number' || !(ms > 0)) {
    throw new InvalidArgumentError({ argument: 'stallMs', message: `must be a positive number of milliseconds, got ${String(stallMs)}` });
  }
  return ms;
}

/**
 * Calls `onStall` once when nothing was heard (`heard()`) for `stallMs`. The decision is taken after
 * the messages already waiting are read (setImmediate after the timer): a message that arrived while
 * this thread was busy counts. A stall time beyond what a timer waits is waited in several timers.
 * The timer keeps the process alive until `stop()` (the workers are unref'd: without it, a load
 * waiting on a silent worker would let node exit with nothing left to do).
 */
function watchdog(stallMs: number, onStall: () => void): { heard(): void; stop(): void } {
  let last = performance.now();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(() => setImmediate(check), Math.min(Math.max(1, Math.ceil(ms)), MAX_TIMER_MS));
  };
  const check = () => {
    if (stopped) return;
    const quiet = performance.now() - last;
    if (quiet < stallMs) {
      arm(stallMs - quiet);
      return;
    }
    stopped = true;
    onStall();
  };
  arm(stallMs);
  return {
    heard() {
      last = performance.now();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** A worker's failure in words: its error's message, or the exit code it stopped with. */
function failure(cause: unknown): string {
  return typeof cause === 'number' ? `it exited with code ${cause} before answering` : `it failed: ${cause instanceof Error ? cause.message : String(cause)}`;
}

/**
 * Starts a worker (`start`, then unref'd) and watches it (`watchdog`): every message it sends counts as a
 * sign of life, and those other than `{ alive: true }` go to `onMessage`. A worker that cannot start, fails,
 * exits, or stays silent for `stallMs` is given up on, once: it is stopped, `onFallback` is told (which
 * worker, why, and `paths()`, the files left), and `fallBack` is called — with the error `onFallback`
 * threw, if it did, for the caller to fail with. `finish()`, when the worker has answered all: nothing is
 * given up on after it, and the worker is stopped.
 */
function superviseWorker<M>(options: {
  worker: LoadWorkerFallbackEvent['worker'];
  stallMs: number;
  start: () => Worker;
  onMessage: (message: M) => void;
  onFallback: LoadWorkerOptions['onFallback'];
  paths: () => string[];
  fallBack: (callbackFailed?: { error: unknown }) => void;
}): { finish(): void } {
  let worker: Worker | undefined;
  let over = false;
  const finish = () => {
    if (over) return;
    over = true;
    dog.stop();
    if (worker) void stopWorkers([worker]);
  };
  const giveUp = (reason: LoadWorkerFallbackEvent['reason'], message: string) => {
    if (over) return;
    finish();
    const name = options.worker === 'load' ? 'the index load worker' : 'the index digest worker';
    try {
      options.onFallback?.({ worker: options.worker, reason, message: `${name} was given up on: ${message}`, paths: options.paths() });
    } catch (error) {
      options.fallBack({ error });
      return;
    }
    options.fallBack();
  };
  const dog = watchdog(options.stallMs, () => giveUp('stalled', `it was silent for ${options.stallMs} ms`));
  try {
    worker = options.start();
  } catch (error) {
    giveUp('failed', failure(error));
    return { finish };
  }
  worker.unref();
  worker.on('message', (message: M | { alive: true }) => {
    dog.heard();
    if (over || (typeof message === 'object' && message !== null && 'alive' in message)) return;
    options.onMessage(message as M);
  });
  worker.once('error', (error) => giveUp('failed', failure(error)));
  worker.once('exit', (code) => giveUp('failed', failure(code)));
  return { finish };
}

/** The promise of an answer as `loadIndex` reads it: an error answer rejects (an InputError stays one). */
function settle(waiting: { resolve(answer: LoadAnswer): void; reject(error: Error): void }, answer: LoadAnswer): void {
  if (!answer.error) waiting.resolve(answer);
  else if (answer.error.name === 'MosaicInputError' && answer.error.source !== undefined) {
    const { source, message } = answer.error;
    waiting.reject(new InputError({ source, message: message.startsWith(`${source}: `) ? message.slice(source.length + 2) : message }));
  } else waiting.reject(Object.assign(new Error(answer.error.message), { name: answer.error.name, code: answer.error.code }));
}

/**
 * The answer to each task (`runLoadTask`), by path, in task order, done in a worker thread of its own
 * beside the parsing on this thread. A task that fails rejects its own promise with the error it met
 * (an InputError stays one). A worker that cannot start, fails, exits before answering, or stays
 * silent for `stallMs` (see `watchdog`) is stopped and the tasks it had not answered are done on this
 * thread, in order (`onFallback` told first; an error it throws rejects them): the same answers, later. `start` starts the worker
 * (default: this package's load worker; tests pass others).
 */
export function loadInWorker(
  tasks: readonly LoadTask[],
  options: LoadWorkerOptions,
  start: (workerData: { tasks: readonly LoadTask[] }) => Worker = (workerData) => startWorker(workerData, 'load-worker'),
): Map<string, Promise<LoadAnswer>> {
  const pending = new Map<string, { task: LoadTask; resolve(answer: LoadAnswer): void; reject(error: Error): void }>();
  const out = new Map<string, Promise<LoadAnswer>>();
  for (const task of tasks) {
    const path = taskPath(task);
    const answer = new Promise<LoadAnswer>((resolve, reject) => pending.set(path, { task, resolve, reject }));
    answer.catch(() => undefined); // awaited when its file is needed; not an unhandled rejection meanwhile
    out.set(path, answer);
  }
  if (tasks.length === 0) return out;
  const supervised = superviseWorker<LoadAnswer>({
    worker: 'load',
    stallMs: options.stallMs,
    start: () => start({ tasks }),
    onMessage: (answer) => {
      const waiting = pending.get(answer.path);
      if (!waiting) return;
      pending.delete(answer.path);
      settle(waiting, answer);
      if (pending.size === 0) supervised.finish();
    },
    onFallback: options.onFallback,
    paths: () => [...pending.keys()],
    fallBack: (callbackFailed) => {
      const left = [...pending.values()];
      pending.clear();
      // The caller's callback failed: the load fails with its error, as it is.
      if (callbackFailed) for (const waiting of left) waiting.reject(callbackFailed.error as Error);
      else
        void (async () => {
          for (const waiting of left) settle(waiting, (await runLoadTask(waiting.task)).answer);
        })();
    },
  });
  return out;
}

/** The digest worker's program: each file's sha256, streamed 1 MiB at a time, saying it is alive meanwhile. */
const DIGEST_WORKER = `const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { createReadStream } = require('node:fs');
const alive = setInterval(() => parentPort.postMessage({ alive: true }), ${LOAD_SIGN_OF_LIFE_MS});
(async () => {
  const out = [];
  try {
    for (const path of workerData.paths) {
      try {
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk);
        out.push(hash.digest('hex'));
      } catch (error) {
        parentPort.postMessage({ failed: path, message: String(error && error.message) });
        return;
      }
    }
    parentPort.postMessage({ digests: out });
  } finally {
    clearInterval(alive);
  }
})();`;

/**
 * The sha256 of each file, computed in a worker thread (streamed, 1 MiB at a time): on a machine with
 * two cores the check runs beside the parsing instead of before it. A file that cannot be read
 * rejects with IndexMismatchError naming it. A worker that cannot start, fails, exits before
 * answering, or stays silent for `stallMs` is stopped and the digests are computed by `here` on this
 * thread instead (`onFallback` told first; an error it throws rejects). `start` starts the worker (tests pass others).
 */
export function digestsInWorker(
  dir: string,
  names: readonly string[],
  options: LoadWorkerOptions & { here: (names: readonly string[]) => Promise<string[]> },
  start: (workerData: { paths: string[] }) => Worker = (workerData) => new Worker(DIGEST_WORKER, { eval: true, workerData }),
): Promise<string[]> {
  const paths = names.map((name) => join(dir, name));
  return new Promise((resolve, reject) => {
    const supervised = superviseWorker<{ digests?: string[]; failed?: string; message?: string }>({
      worker: 'digests',
      stallMs: options.stallMs,
      start: () => start({ paths }),
      onMessage: (message) => {
        supervised.finish();
        if (message.digests) {
          resolve(message.digests);
          return;
        }
        const name = names[paths.indexOf(message.failed ?? '')] ?? message.failed ?? '';
        reject(
          new IndexMismatchError({
            path: join(dir, name),
            field: `files.${name}`,
            expected: 'readable',
            actual: 'unreadable',
            message: `${join(dir, name)} cannot be read (${message.message})`,
          }),
        );
      },
      onFallback: options.onFallback,
      paths: () => paths,
      // The caller's callback failed: the check fails with its error, as it is.
      fallBack: (callbackFailed) => (callbackFailed ? reject(callbackFailed.error) : options.here(names).then(resolve, reject)),
    });
  });
}
