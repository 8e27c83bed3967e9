// Worker-thread entry of the demo generator: writes the markets it is given, reports rows to the parent.

import { parentPort, workerData } from 'node:worker_threads';
import type { Market } from '../../engine/markets.js';
import { writeMarket } from './market-files.js';
import { planMarket, type PlanOptions } from './plan.js';

/** What the parent sends: the snapshot folder being written, the markets, and the plan options. */
export interface WorkerJob extends PlanOptions {
  readonly dir: string;
  readonly markets: readonly Market[];
}

/** Messages to the parent: row counts while working, then the byte total. */
export type WorkerMessage = { readonly rows: number } | { readonly done: true; readonly bytes: number };

const job = workerData as WorkerJob;
const port = parentPort;
if (!port) throw new Error('loaders/demo/worker.js must run in a worker thread');
let bytes = 0;
for (const market of job.markets) {
  // The plan is recomputed here rather than sent: it is cheap and deterministic, and keeps messages tiny.
  bytes += writeMarket(job.dir, planMarket(market, job), job.seed, (rows) =>
    port.postMessage({ rows } satisfies WorkerMessage),
  ).bytes;
}
port.postMessage({ done: true, bytes } satisfies WorkerMessage);
