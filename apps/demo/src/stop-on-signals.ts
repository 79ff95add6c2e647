/** The signals a long command stops on, with the exit code each ends it with (128 + signal number). */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

export interface SignalStop {
  /** Aborted on the first SIGINT or SIGTERM; pass it to the work as its abortSignal. */
  signal: AbortSignal;
  /** The signal received, if any. */
  received(): StopSignal | undefined;
  /** Removes the handlers (the default behaviour returns). */
  dispose(): void;
}

/**
 * Turns the first SIGINT or SIGTERM into an abort, so that the work can clean up (remove temporary
 * files) and the command can end with exit code 130 / 143. The handler is removed after the first
 * signal: a second Ctrl-C ends the process at once, as usual.
 */
export function stopOnSignals(): SignalStop {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const handlers = new Map<StopSignal, () => void>();
  const dispose = () => {
    for (const [name, handler] of handlers) process.off(name, handler);
    handlers.clear();
  };
  for (const name of Object.keys(STOP_SIGNALS) as StopSignal[]) {
    const handler = () => {
      received = name;
      dispose();
      controller.abort(new Error(`received ${name}`));
    };
    handlers.set(name, handler);
    process.on(name, handler);
  }
  return { signal: controller.signal, received: () => received, dispose };
}
