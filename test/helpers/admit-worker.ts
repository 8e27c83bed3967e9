// A thread that admits and charges one key many times over shared key slots (key-slots.test.ts).

import { parentPort, workerData } from 'node:worker_threads';
import type { KeyRecord } from '../../engine/plans.js';
import { Guard } from '../../transport/guard/guard.js';

const { slots, keys, assignments, key, attempts, nowMs } = workerData as {
  slots: SharedArrayBuffer;
  keys: KeyRecord[];
  assignments: [string, number][];
  key: string;
  attempts: number;
  nowMs: number;
};
const guard = new Guard('UTC', null, slots);
guard.setKeys(keys, assignments);
const state = guard.authenticate(key)!;
let admitted = 0;
for (let i = 0; i < attempts; i++) {
  if (guard.admit(state, nowMs, true).ok) {
    admitted++;
    guard.charge(state, 1, nowMs);
  }
}
parentPort!.postMessage(admitted);
