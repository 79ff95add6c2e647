import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full garbage collection, for `mosaic index` to hand the build (`collectGarbage`): `globalThis.gc`
 * when node was started with `--expose-gc`, else V8's flag is set now and the function taken from a
 * fresh context (this context's globals stay as they are).
 */
export function fullGarbageCollection(): () => void {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
