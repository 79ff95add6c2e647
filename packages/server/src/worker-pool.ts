import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AbortedError, InvalidArgumentError } from '@mosaic/spec';
import type { EngineCallOptions, MosaicEngine, ProgressEvent } from './engine.js';
import { WorkerExitedError } from './worker-exited-error.js';

type Method = 'retrieve' | 'ask' | 'policy' | 'document' | 'documents';

type ToWorker =
  | { type: 'init'; data: unknown }
  | { type: 'call'; id: number; method: Method; argument: unknown; events: boolean }
  | { type: 'abort'; id: number };

type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedError }
  | { type: 'event'; id: number; event: ProgressEvent }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: SerializedError };

interface SerializedError {
  name: string;
  message: string;
  argument?: string;
}

function serializeError(error: unknown): SerializedError {
  const value = error as { name?: string; message?: string; argument?: string };
  return { name: value?.name ?? 'Error', message: value?.message ?? String(error), ...(value?.argument ? { argument: value.argument } : {}) };
}

/** An error of a worker, rebuilt in this thread with its name (so `AbortedError.isInstance` and friends still hold). */
function rebuildError(error: SerializedError): Error {
  const rebuilt = new Error(error.message) as Error & { argument?: string };
  rebuilt.name = error.name;
  if (error.argument) rebuilt.argument = error.argument;
  return rebuilt;
}

export interface ServeEngineInWorkerOptions {
  /**
   * Questions the worker retrieves (and one it asks) through every stage before it tells the pool it is
   * ready, with the engine's `warmUp` (default 64; 0: none). A fresh process pays for its first
   * requests (lazily built tables, the encoder's first runs, V8 compiling the hot code): that cost
   * goes here instead of to the first clients.
   */
  warmUpQuestions?: number;
}

/**
 * Runs in a worker process (started by `createWorkerPool`): opens the engine once with the pool's
 * `workerData` (`open(workerData)`), warms it up (`warmUpQuestions`), tells the pool it is ready, and
 * answers the pool's calls; an abort from the pool aborts that call's pipeline. The worker leaves
 * SIGINT and SIGTERM to its parent (a Ctrl-C reaches the whole process group; the server drains
 * first, then closes the pool) and exits when the pool disconnects or goes away.
 */
export function serveEngineInWorker(open: (data: unknown) => Promise<MosaicEngine>, options: ServeEngineInWorkerOptions = {}): void {
  const send = process.send?.bind(process);
  if (!send)
    throw new InvalidArgumentError({ argument: 'process', message: 'serveEngineInWorker must run in a process started by createWorkerPool (no IPC channel)' });
  const post = (message: FromWorker) => send(message);
  let engine: MosaicEngine | undefined;
  const running = new Map<number, AbortController>();
  process.on('disconnect', () => process.exit(0));
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);
  const warmUpQuestions = options.warmUpQuestions ?? 64;
  process.on('message', (message: ToWorker) => {
    if (message.type === 'init') {
      open(message.data)
        .then(async (opened) => {
          if (warmUpQuestions > 0) await opened.warmUp?.({ questions: warmUpQuestions });
          return opened;
        })
        .then(
          (opened) => {
            engine = opened;
            post({ type: 'ready' });
          },
          (error) => post({ type: 'failed', error: serializeError(error) }),
        );
      return;
    }
    if (message.type === 'abort') {
      running.get(message.id)?.abort(new AbortedError({ stage: 'request' }));
      return;
    }
    if (!engine) return post({ type: 'error', id: message.id, error: { name: 'MosaicInvalidArgumentError', message: 'the engine is not open yet' } });
    const controller = new AbortController();
    running.set(message.id, controller);
    const call: EngineCallOptions = {
      abortSignal: controller.signal,
      ...(message.events ? { onEvent: (event: ProgressEvent) => post({ type: 'event', id: message.id, event }) } : {}),
    };
    dispatch(engine, message.method, message.argument, call)
      .then(
        (value) => post({ type: 'result', id: message.id, value }),
        (error) => post({ type: 'error', id: message.id, error: serializeError(error) }),
      )
      .finally(() => running.delete(message.id));
  });
}

function dispatch(engine: MosaicEngine, method: Method, argument: unknown, call: EngineCallOptions): Promise<unknown> {
  switch (method) {
    case 'retrieve':
      return engine.retrieve(argument as never, call);
    case 'ask':
      return engine.ask(argument as never, call);
    case 'policy':
      return engine.policy(argument as never, call);
    case 'document':
      return engine.document(argument as string);
    case 'documents':
      return engine.documents();
  }
}

export interface WorkerPoolOptions {
  /** Worker processes, each holding its own loaded index (default 2). */
  size?: number;
  /** The worker module (a file URL or path): it calls `serveEngineInWorker(open)`. */
  worker: URL | string;
  /** Handed to the worker module's `open` (structured-cloneable data: e.g. the index directory and options). */
  workerData?: unknown;
  /** Extra Node flags of the workers (`execArgv`; default none). */
  execArgv?: string[];
  /**
   * Calls a worker runs at once (default 1). The pipeline is CPU-bound: a worker running several
   * questions interleaves them without finishing any sooner, and a call queued inside a busy worker
   * waits there while another worker may be idle. The rest wait in the pool's queue and go to the
   * first worker that frees up.
   */
  concurrency?: number;
}

export interface WorkerPool extends MosaicEngine {
  /** Resolves once every worker has opened its engine; rejects with the first worker's failure. */
  readonly ready: Promise<void>;
  readonly size: number;
  /** Calls in flight per worker (sent to it, not answered yet). */
  load(): number[];
  /** Calls waiting in the pool's queue for a free worker. */
  queued(): number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onEvent?(event: ProgressEvent): void;
  slot: number;
}

interface Queued {
  id: number;
  method: Method;
  argument: unknown;
  events: boolean;
  pending: Omit<Pending, 'slot'>;
}

/**
 * A MosaicEngine over worker processes. The pipeline is CPU-bound and runs one question at a time per
 * thread, so concurrent requests only use more cores when spread over workers: each worker runs
 * `concurrency` calls at a time (default 1), the rest wait in one queue and go, in order, to the first
 * worker that frees up (so no call waits behind a slow one while another worker idles). Processes, not
 * worker threads: faiss-node keeps its class constructors in process-wide statics, and loading indexes
 * in two threads of one process crashed it
 * (SIGSEGV in `fromBuffer`). A worker that dies is replaced; its calls in flight fail with
 * WorkerExitedError. Worker stdout goes to this process's stderr (stdout may be a protocol, e.g. MCP's stdio).
 */
export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const size = options.size ?? 2;
  if (!Number.isInteger(size) || size < 1) throw new InvalidArgumentError({ argument: 'size', message: `must be a positive integer, got ${size}` });
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new InvalidArgumentError({ argument: 'concurrency', message: `must be a positive integer, got ${concurrency}` });
  const queue: Queued[] = [];
  const pending = new Map<number, Pending>();
  const inFlight: number[] = new Array(size).fill(0);
  const workers: ChildProcess[] = [];
  const wasReady: boolean[] = new Array(size).fill(false);
  /** Whether the worker of each slot is up (ready, and not exited since). */
  const wasUp: boolean[] = new Array(size).fill(false);
  /** Whether the worker of each slot exited for good (not to be replaced). */
  const gone: boolean[] = new Array(size).fill(false);
  let nextId = 1;
  let closing = false;

  function spawn(slot: number): Promise<void> {
    const modulePath = typeof options.worker === 'string' ? options.worker : fileURLToPath(options.worker);
    const worker = fork(modulePath, [], { execArgv: options.execArgv ?? [], serialization: 'advanced', stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    worker.stdout?.pipe(process.stderr, { end: false });
    workers[slot] = worker;
    worker.send({ type: 'init', data: options.workerData } satisfies ToWorker);
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') {
          wasReady[slot] = true;
          wasUp[slot] = true;
          resolve();
          return dispatchQueued();
        }
        if (message.type === 'failed') {
          // A worker that cannot open its engine is of no use: it leaves (and its slot is gone).
          reject(rebuildError(message.error));
          if (worker.connected) worker.disconnect();
          return;
        }
        const call = pending.get(message.id);
        if (!call) return;
        if (message.type === 'event') return call.onEvent?.(message.event);
        pending.delete(message.id);
        inFlight[call.slot] -= 1;
        if (message.type === 'result') call.resolve(message.value);
        else call.reject(rebuildError(message.error));
        dispatchQueued();
      });
      worker.on('error', (error) => reject(error));
      worker.on('exit', (exitCode, signal) => {
        const code = exitCode ?? (signal ? 128 : 1);
        for (const [id, call] of pending) {
          if (call.slot !== slot) continue;
          pending.delete(id);
          call.reject(new WorkerExitedError({ slot, exitCode: code }));
        }
        inFlight[slot] = 0;
        wasUp[slot] = false;
        reject(new WorkerExitedError({ slot, exitCode: code, message: `worker ${slot} exited with code ${code} before it was ready` }));
        // Replace a worker that served and died; one that never came up would only die again. When
        // no worker is left to answer, the queued calls fail.
        gone[slot] = closing || !wasReady[slot];
        if (gone.every(Boolean)) for (const waiting of queue.splice(0)) waiting.pending.reject(new WorkerExitedError({ slot, exitCode: code }));
        if (!closing && wasReady[slot]) {
          wasReady[slot] = false;
          spawn(slot).catch(() => undefined);
        }
      });
    });
  }

  const ready = Promise.all(Array.from({ length: size }, (_, slot) => spawn(slot))).then(() => undefined);
  ready.catch(() => undefined);

  /** Sends queued calls, in order, to the workers that are up and have room (fewest in flight first). */
  function dispatchQueued(): void {
    while (queue.length > 0) {
      let slot = -1;
      for (let i = 0; i < size; i += 1) if (wasUp[i] && inFlight[i]! < concurrency && (slot < 0 || inFlight[i]! < inFlight[slot]!)) slot = i;
      if (slot < 0) return;
      const next = queue.shift()!;
      inFlight[slot] += 1;
      pending.set(next.id, { ...next.pending, slot });
      workers[slot]!.send({ type: 'call', id: next.id, method: next.method, argument: next.argument, events: next.events } satisfies ToWorker);
    }
  }

  function call<T>(method: Method, argument: unknown, callOptions: EngineCallOptions = {}): Promise<T> {
    const { abortSignal, onEvent } = callOptions;
    if (abortSignal?.aborted) return Promise.reject(new AbortedError({ stage: 'request', cause: abortSignal.reason }));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        abortSignal?.removeEventListener('abort', onAbort);
        finish();
      };
      // An abort of a queued call takes it off the queue; of a sent one, stops the worker's pipeline.
      // Either way the caller's wait ends at once; the worker's own reply, when it comes, frees its slot.
      function onAbort() {
        const queuedAt = queue.findIndex((entry) => entry.id === id);
        if (queuedAt >= 0) queue.splice(queuedAt, 1);
        else {
          const sent = pending.get(id);
          if (sent) workers[sent.slot]?.send({ type: 'abort', id } satisfies ToWorker);
        }
        settle(() => reject(new AbortedError({ stage: 'request', cause: abortSignal?.reason })));
      }
      abortSignal?.addEventListener('abort', onAbort, { once: true });
      queue.push({
        id,
        method,
        argument,
        events: onEvent !== undefined,
        pending: {
          onEvent: onEvent && ((event) => (settled ? undefined : onEvent(event))),
          resolve: (value) => settle(() => resolve(value as T)),
          reject: (error) => settle(() => reject(error)),
        },
      });
      dispatchQueued();
    });
  }

  return {
    ready,
    size,
    load: () => [...inFlight],
    queued: () => queue.length,
    retrieve: (request, callOptions) => call('retrieve', request, callOptions),
    ask: (request, callOptions) => call('ask', request, callOptions),
    policy: (request, callOptions) => call('policy', request, callOptions),
    document: (id) => call('document', id),
    documents: () => call('documents', undefined),
    async close() {
      closing = true;
      for (const waiting of queue.splice(0)) waiting.pending.reject(new WorkerExitedError({ slot: -1, exitCode: 0, message: 'the worker pool was closed' }));
      // Workers ignore SIGTERM and SIGINT (the parent drains first): a disconnect ends them; a worker
      // that does not end within 5 s is killed.
      await Promise.all(
        workers.map((worker) =>
          worker.exitCode !== null || worker.signalCode !== null
            ? undefined
            : new Promise<void>((resolve) => {
                const timer = setTimeout(() => worker.kill('SIGKILL'), 5_000);
                worker.once('exit', () => {
                  clearTimeout(timer);
                  resolve();
                });
                if (worker.connected) worker.disconnect();
                else worker.kill('SIGKILL');
              }),
        ),
      );
    },
  };
}
