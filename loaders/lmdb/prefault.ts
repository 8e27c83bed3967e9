// Fresh shared memory faulted in on helper threads while the opening thread fills it.
//
// Why: on the VMs measured here the first write to a fresh page costs ~15 µs (a 200 MB
// copy: 740 ms into fresh memory, 16 ms into memory already touched), so opening the
// demo's 900 MB of columns is mostly page faults; faults on different cores proceed in
// parallel (two threads: 1.8× one). Helpers claim 4 MiB chunks from the back of the list
// while the opener copies from the front; each touch is an atomic compare-exchange of 0
// with 0, which faults the page in for writing yet never overwrites a value the opener has
// already copied there.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export const CHUNK_BYTES = 4 << 20;
export const PAGE_BYTES = 4096;

/** [buffer index, byte offset, bytes] of every chunk of `buffers`, in order. */
export function chunksOf(buffers: readonly SharedArrayBuffer[]): [number, number, number][] {
  const chunks: [number, number, number][] = [];
  buffers.forEach((b, i) => {
    for (let at = 0; at < b.byteLength; at += CHUNK_BYTES) chunks.push([i, at, Math.min(CHUNK_BYTES, b.byteLength - at)]);
  });
  return chunks;
}

/** Faults in one chunk's pages without changing a byte. */
export function touchChunk(buffer: SharedArrayBuffer, at: number, bytes: number): void {
  const words = new Int32Array(buffer, at, bytes >> 2);
  for (let i = 0; i < words.length; i += PAGE_BYTES >> 2) Atomics.compareExchange(words, i, 0, 0);
}

export interface Prefault {
  /** The opener has begun filling buffer `index`: helpers leave it and those before it alone. */
  reached(index: number): void;
  /** Resolves when every helper has stopped. */
  done(): Promise<void>;
}

/** Starts `threads` helpers (default: cores − 1) on `buffers` (every byteLength a multiple of 4). */
export function prefault(buffers: SharedArrayBuffer[], threads = availableParallelism() - 1): Prefault {
  // [0]: chunks not yet claimed (helpers take chunk [0] − 1); [1]: the buffer the opener has reached.
  const state = new Int32Array(new SharedArrayBuffer(8));
  state[0] = chunksOf(buffers).length;
  state[1] = -1;
  const workers = Array.from({ length: Math.max(0, threads) }, () => new Worker(new URL('./prefault-worker.js', import.meta.url), { workerData: { buffers, state } }));
  const exits = workers.map((w) => new Promise<void>((resolve) => w.once('exit', () => resolve()).once('error', () => resolve())));
  return {
    reached: (index) => Atomics.store(state, 1, index),
    done: async () => {
      Atomics.store(state, 0, 0); // nothing left to claim: helpers stop after their chunk
      await Promise.all(exits);
    },
  };
}
