import type { StubReply, StubRequest, StubResponder } from './openai-stub.js';

export interface QueueRepliesOptions {
  /** Responder used once the queue is empty. Default: the stub's default reply. */
  then?: StubResponder;
  /** Only requests of this kind consume the queue; others go to `then`. Default: every kind. */
  kind?: StubRequest['kind'];
}

/** A responder that answers with `replies` in order, one per request, then defers to `then`. */
export function queueReplies(replies: readonly StubReply[], options: QueueRepliesOptions = {}): StubResponder {
  const queue = [...replies];
  return (request) => {
    if ((options.kind === undefined || options.kind === request.kind) && queue.length > 0) return queue.shift();
    return options.then?.(request);
  };
}
