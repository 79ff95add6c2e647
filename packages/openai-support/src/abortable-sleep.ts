import { AbortedError } from '@mosaic/spec';

/**
 * Wait `ms` milliseconds; an abort of `abortSignal` during the wait rejects at once with
 * AbortedError for `stage`. `ms` ≤ 0 resolves immediately (even when already aborted: callers
 * check the signal before sleeping).
 */
export function abortableSleep(options: { ms: number; abortSignal?: AbortSignal; stage: string }): Promise<void> {
  const { ms, abortSignal: signal, stage } = options;
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError({ stage, cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
