// A full collection on demand, without starting node with --expose-gc, then the freed native memory returned.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { trimNativeHeap } from './native-heap.js';

/**
 * After the collection, how long V8's background threads get to free the array buffers it found
 * dead before the C allocator's free pages are returned (an edition's copied parts, bodies).
 */
const TRIM_AFTER_MS = 1000;

export interface FullGcOptions {
  /** Whether the C allocator's free pages go back to the system after each collection (default true). */
  returnMemory?: boolean;
}

/**
 * V8's full collection, run as V8's asynchronous (incremental, concurrent) major GC: a
 * synchronous one paused requests for tens of ms. Called once the requests on a replaced
 * Dataset are done: its columns are SharedArrayBuffers, which V8 does not count as this
 * thread's memory, so nothing else prompts the collection that frees them. Then, unless
 * `returnMemory` is false, the process's free native memory is returned (native-heap.ts): without
 * it, RssAnon grew with every reload.
 */
export function fullGc(options: FullGcOptions = {}): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'async' }) => Promise<void>;
  const returnMemory = options.returnMemory ?? true;
  let trimTimer: NodeJS.Timeout | null = null;
  const trimSoon = (): void => {
    if (trimTimer !== null) return; // collections close together share one trim
    trimTimer = setTimeout(() => {
      trimTimer = null;
      void trimNativeHeap();
    }, TRIM_AFTER_MS);
    trimTimer.unref();
  };
  return () => {
    const done = gc({ type: 'major', execution: 'async' });
    if (returnMemory) void done.then(trimSoon);
  };
}
