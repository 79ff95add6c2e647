import { AbortedError, InvalidArgumentError } from '@mosaic/spec';

/** The outcome of one batch item: its position, and a result or the error it failed with. */
export type BatchItem<Input, Output> = { index: number; input: Input; ok: true; result: Output } | { index: number; input: Input; ok: false; error: unknown };

/**
 * Run `task` over `inputs` with at most `concurrency` in flight. A failing item is recorded and the batch
 * goes on; when `abortSignal` fires, no new item starts, in-flight items see the signal, and the batch
 * rejects with AbortedError once they settle (items finished before that were passed to `onResult`).
 * Resolves with every item in input order.
 */
export async function runBatch<Input, Output>(options: {
  inputs: readonly Input[];
  concurrency: number;
  abortSignal?: AbortSignal;
  task: (input: Input, index: number) => Promise<Output>;
  onResult?: (item: BatchItem<Input, Output>) => void;
}): Promise<BatchItem<Input, Output>[]> {
  const { inputs, concurrency, abortSignal, task, onResult } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidArgumentError({ argument: 'concurrency', message: `must be a positive integer, got ${concurrency}` });
  }
  const items = new Array<BatchItem<Input, Output>>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length && !abortSignal?.aborted) {
      const index = next;
      next += 1;
      const input = inputs[index];
      let item: BatchItem<Input, Output>;
      try {
        item = { index, input, ok: true, result: await task(input, index) };
      } catch (error) {
        if (abortSignal?.aborted) return;
        item = { index, input, ok: false, error };
      }
      items[index] = item;
      onResult?.(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
  if (abortSignal?.aborted) throw new AbortedError({ stage: 'batch', cause: abortSignal.reason });
  return items;
}
