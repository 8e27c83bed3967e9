// A server tells when no request reads a Dataset any longer (what an edition's release waits for):
// at once for answers given in their handler, only after the answer for one waiting on the pool.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import type { KernelPool } from '../../../engine/pool/pool.js';
import type { ScreenResult } from '../../../engine/queries/screen.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { Guard } from '../../../transport/guard/guard.js';
import { type RunningServer, type ServerState, startServer } from '../../../transport/server.js';
import { FIXTURE, httpRequest } from '../../helpers/api-server.js';
import { keyRecordOf } from '../../helpers/e2e.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

const KEY = 'mdq_released01_S3cretS3cretS3cretS3cretS3cret00';

let server: RunningServer;
let state: ServerState;
let first: Dataset;
let cleanup: () => Promise<void>;
/** Screens sent to the stand-in pool wait here until the test lets them go. */
const pending: (() => void)[] = [];

before(async () => {
  const dir = await tempDir('mdq-released-');
  cleanup = dir.cleanup;
  await storeEdition(FIXTURE, dir.path, { threads: 0 });
  first = (await openCurrentDataset(dir.path))!;
  const kernels = {
    screen: (_d: Dataset, _m: string, _q: { limit: number }) =>
      new Promise<ScreenResult>((resolve) => pending.push(() => resolve({ total: 0, rows: new Uint32Array(0) }))),
  } as unknown as KernelPool;
  state = { dataset: first, draining: false };
  const guard = new Guard('UTC');
  guard.setKeys([keyRecordOf(KEY, 'internal', false)]);
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    guard,
    state,
    pool: { kernels, minScreenRows: 0, minAsOfSymbols: Infinity },
  });
});
after(async () => {
  server.close();
  await cleanup();
});

test('no request on a Dataset: released at once', async () => {
  await httpRequest(server.port, '/healthz');
  let done = false;
  await Promise.race([
    server.released(first).then(() => (done = true)),
    new Promise((resolve) => setTimeout(resolve, 50)),
  ]);
  assert.equal(done, true);
});

test('a request waiting on the pool holds its Dataset after a swap, until it is answered', async () => {
  const answer = httpRequest(server.port, '/api/v1/ashare/screen?limit=3', { headers: { 'x-api-key': KEY } });
  for (let i = 0; i < 100 && pending.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(pending.length, 1, 'the screen waits on the pool');
  state.dataset = { ...first, version: 'next' }; // a reload swapped in another Dataset
  let released = false;
  const watch = server.released(first).then(() => (released = true));
  let other = false;
  void server.released(state.dataset).then(() => (other = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual([released, other], [false, true], 'the first is still read; nothing reads the new one yet');
  pending.shift()!();
  const r = await answer;
  assert.equal(r.status, 200, r.text);
  await watch;
  assert.equal(released, true);
});
