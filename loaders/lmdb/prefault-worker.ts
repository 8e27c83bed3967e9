// A prefault helper (prefault.ts): claims chunks from the back until none is left or the opener is there.

import { workerData } from 'node:worker_threads';
import { chunksOf, touchChunk } from './prefault.js';

const { buffers, state } = workerData as { buffers: SharedArrayBuffer[]; state: Int32Array };
const chunks = chunksOf(buffers);
for (;;) {
  const claimed = Atomics.sub(state, 0, 1) - 1;
  if (claimed < 0) break;
  const [index, at, bytes] = chunks[claimed];
  if (index <= Atomics.load(state, 1)) break; // the opener is filling this buffer or has passed it
  touchChunk(buffers[index], at, bytes);
}
