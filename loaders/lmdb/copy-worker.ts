// A snapshot copy helper (from-lmdb.ts): opens the environment itself and fills the columns it takes from the shared counter.

import { workerData } from 'node:worker_threads';
import { open } from 'lmdb';
import { type CopyJob, fillColumns } from './from-lmdb.js';
import { envFile } from './layout.js';

const job = workerData as CopyJob;
const env = open({ path: envFile(job.dir), encoding: 'msgpack', readOnly: true });
try {
  fillColumns(env, job.markets, job.next);
} finally {
  await env.close();
}
