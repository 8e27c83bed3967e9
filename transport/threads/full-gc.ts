// A full collection on demand, without starting node with --expose-gc.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full collection, run as V8's asynchronous (incremental, concurrent) major GC: a
 * synchronous one paused requests for tens of ms. Called once the requests on a replaced
 * Dataset are done: its columns are SharedArrayBuffers, which V8 does not count as this
 * thread's memory, so nothing else prompts the collection that frees them.
 */
export function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'async' }) => Promise<void>;
  return () => void gc({ type: 'major', execution: 'async' });
}
